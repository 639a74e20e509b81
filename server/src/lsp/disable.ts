import { join } from 'node:path';
import { modify } from 'jsonc-parser';
import type { TextEdit as LspTextEdit } from 'vscode-languageserver';
import type { Format } from '../core/model/types';
import { LineIndex } from '../core/positions';
import { parseDirective } from '../core/suppress';
import type { DocText } from './convert';

/** The directive the "Disable <id> for this line" action writes (DESIGN "Suppression"). */
export const NEXT_LINE_DIRECTIVE = 'rollout-lint-disable-next-line';

/** The file name of the per-directory configuration. */
export const RC_FILE = '.rolloutlintrc.json';

/** Formats whose comments can carry a directive; JSON is disabled through `.rolloutlintrc.json`. */
export function hasLineComments(format: Format): boolean {
  return format !== 'json';
}

function lineBreak(text: string): string {
  return /\r\n/.test(text) ? '\r\n' : '\n';
}

/** 0-based first line of the `\`-continued shell command that holds `line`. */
function commandStart(doc: DocText, line: number): number {
  let first = line;
  while (first > 0 && /(^|[^\\])(\\\\)*\\$/.test(doc.lineText(first - 1))) first--;
  return first;
}

/**
 * The edit that silences `ruleId` on 0-based `line`: `# rollout-lint-disable-next-line <id>` on a
 * line of its own above it, indented like it (in shell, above the first line of a `\`-continued
 * command). When that line already holds a next-line directive with ids, `ruleId` is added to it.
 */
export function disableLineEdit(doc: DocText, format: Format, line: number, ruleId: string): LspTextEdit {
  const target = format === 'shell' ? commandStart(doc, line) : line;
  const text = doc.coreText;
  const index = new LineIndex(text);
  if (target > 0) {
    const previous = index.lineText(target - 1);
    const hash = previous.indexOf('#');
    if (hash >= 0 && previous.slice(0, hash).trim() === '') {
      const start = index.offsetAt({ line: target - 1, character: hash });
      const comment = { text: previous.slice(hash), range: { start, end: start + previous.length - hash } };
      const directive = parseDirective(text, comment, index);
      if (directive?.kind === 'next-line' && directive.ownLine && directive.ids.length > 0) {
        const at = directive.ids[directive.ids.length - 1].range.end;
        return doc.edit({ range: { start: at, end: at }, text: `, ${ruleId}` });
      }
    }
  }
  const lineStart = index.offsetAt({ line: target, character: 0 });
  const indent = /^[ \t]*/.exec(index.lineText(target))![0];
  return doc.edit({ range: { start: lineStart, end: lineStart }, text: `${indent}# ${NEXT_LINE_DIRECTIVE} ${ruleId}${lineBreak(text)}` });
}

/** Where a new `.rolloutlintrc.json` goes: the one that applies already, else the workspace folder root. */
export function rcFileFor(existing: string | undefined, root: string): string {
  return existing ?? join(root, RC_FILE);
}

/**
 * Edits that set `rules.<ruleId>` to `"off"` in a `.rolloutlintrc.json` whose current text is
 * `text` (formatting and comments kept, via jsonc-parser `modify`), or the whole content of a new file
 * when `text` is undefined.
 */
export function rcDisableEdits(text: string | undefined, ruleId: string): { create: boolean; edits: LspTextEdit[] } {
  if (text === undefined || text.trim() === '') {
    const content = `${JSON.stringify({ rules: { [ruleId]: 'off' } }, null, 2)}\n`;
    const end = text === undefined ? { line: 0, character: 0 } : new LineIndex(text).positionAt(text.length);
    return { create: text === undefined, edits: [{ range: { start: { line: 0, character: 0 }, end }, newText: content }] };
  }
  const eol = lineBreak(text);
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  const edits = modify(text, ['rules', ruleId], 'off', {
    formattingOptions: { insertSpaces: !indent.includes('\t'), tabSize: indent.includes('\t') ? 1 : indent.length, eol },
  });
  const index = new LineIndex(text);
  return {
    create: false,
    edits: edits.map((e) => ({ range: { start: index.positionAt(e.offset), end: index.positionAt(e.offset + e.length) }, newText: e.content })),
  };
}
