import type { TextEdit as LspTextEdit } from 'vscode-languageserver';
import type { Finding } from '../core/model/types';
import type { Grammars } from '../core/formats/treesitter';
import type { Locale } from '../core/messages/locale';
import { lintDocument } from '../core/lint';
import { applyEdits, chooseFixes } from '../core/fix';
import { minimalEdits } from './convert';
import { provenLint, type DocumentLint } from './lint-service';
import { writeRefusal } from '../node/write-guard';

/** Fix passes before giving up (as the CLI's `--fix`). */
const MAX_PASSES = 10;

/**
 * The edits that apply every safe fix to the document, re-linting after each pass until nothing
 * safe is left (at most 10 passes), as minimal edits (one per changed line, see `minimalEdits`) in the
 * linted version's LSP positions.
 * `only` narrows the findings fixed (e.g. one rule). `undefined` when nothing changes.
 */
export function safeFixAllEdits(lint: DocumentLint, grammars: Grammars, locale: Locale, only: (f: Finding) => boolean = () => true): LspTextEdit[] | undefined {
  return safeFixAll(lint, grammars, locale, only).edits;
}

/**
 * As `safeFixAllEdits`, with counts: `fixed` findings gone after the fixes, `remaining` findings left
 * (of any severity; they need a decision). Counts are 0 when the document has no lint outcome.
 * `refused` says why nothing is fixed although fixes exist: the document's file is a symbolic link
 * out of its work tree (`writeRefusal`); the editor would write through it.
 */
export function safeFixAll(lint: DocumentLint, grammars: Grammars, locale: Locale, only: (f: Finding) => boolean = () => true): { edits: LspTextEdit[] | undefined; fixed: number; remaining: number; refused?: string } {
  const outcome = provenLint(lint, grammars).outcome;
  if (!outcome) return { edits: undefined, fixed: 0, remaining: 0 };
  const refused = lint.location.absPath ? writeRefusal(lint.location.absPath) : undefined;
  if (refused) return { edits: undefined, fixed: 0, remaining: outcome.findings.length, refused };
  const original = lint.doc.coreText;
  let text = original;
  let findings = outcome.findings;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const fixes = chooseFixes(findings.filter(only), false);
    if (fixes.length === 0) break;
    let next: string;
    try {
      next = applyEdits(text, fixes.flatMap((f) => f.edits));
    } catch {
      break;
    }
    if (next === text) break;
    text = next;
    findings = lintDocument(
      { path: outcome.document.path, text, format: outcome.document.format },
      { grammars, config: lint.config.config, facts: lint.location.facts, locale },
    ).findings;
  }
  const edits = minimalEdits(original, text);
  const before = outcome.findings.length;
  return { edits: edits.length ? edits.map((e) => lint.doc.edit(e)) : undefined, fixed: Math.max(0, before - findings.length), remaining: findings.length };
}
