import type { TextEdit as LspTextEdit } from 'vscode-languageserver';
import type { Finding } from '../core/model/types';
import type { Grammars } from '../core/formats/treesitter';
import type { Locale } from '../core/messages/locale';
import { lintDocument } from '../core/lint';
import { applyEdits, chooseFixes } from '../core/fix';
import { minimalEdits } from './convert';
import type { DocumentLint } from './lint-service';

/** Fix passes before giving up (as the CLI's `--fix`). */
const MAX_PASSES = 10;

/**
 * The edits that apply every safe fix to the document, re-linting after each pass until nothing
 * safe is left (at most 10 passes), as minimal edits (one per changed line, see `minimalEdits`) in the
 * linted version's LSP positions.
 * `only` narrows the findings fixed (e.g. one rule). `undefined` when nothing changes.
 */
export function safeFixAllEdits(lint: DocumentLint, grammars: Grammars, locale: Locale, only: (f: Finding) => boolean = () => true): LspTextEdit[] | undefined {
  const outcome = lint.outcome;
  if (!outcome) return undefined;
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
  return edits.length ? edits.map((e) => lint.doc.edit(e)) : undefined;
}
