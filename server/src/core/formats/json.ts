import { BudgetExceeded, spend } from '../budget';
import { createScanner, parseTree, printParseErrorCode, SyntaxKind } from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';
import type { Comment, Extraction, Range } from '../model/types';
import { emptyExtraction } from '../model/types';
import { MAX_NESTING, collectTree, flowInsertion, lineBreakOf, nestingProblem } from './structured';
import type { TreeEntry, TreeNode, TreeScalar } from './structured';

/**
 * Extracts settings, env definitions, request sites, comments and parse problems from JSON with
 * comments and trailing commas (JSONC), using `jsonc-parser`.
 *
 * - Scalars: strings as decoded; numbers as their source text; `'true'`/`'false'`/`'null'`.
 * - Every scalar member of an `env` or `environment` object (Claude Code `settings.json`,
 *   `openclaw.json`, also its `env.vars`) is one `env` setting and no `property` one. `group` is the dotted path of the enclosing object
 *   (`models.providers.local`), so one provider's `baseUrl`/`apiKey`/`api` share it.
 *
 * Ranges are UTF-16 offsets into `text` (jsonc-parser offsets are string indexes). A leading BOM is
 * read as white space. Never throws: parser errors become ParseProblems (message = the error code in
 * words, e.g. "Comma expected"), and an unexpected failure becomes one covering the whole text.
 */
export function extractJson(text: string, path: string): Extraction {
  const out = emptyExtraction();
  try {
    const source = text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text;
    const errors: ParseError[] = [];
    const scan = scanTokens(source);
    out.comments = scan.comments;
    if (scan.tooDeep !== undefined) {
      out.parseProblems.push(nestingProblem({ start: scan.tooDeep, end: scan.tooDeep + 1 }));
      return out;
    }
    const root = parseTree(source, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
    for (const error of errors) {
      const start = Math.min(error.offset, text.length);
      out.parseProblems.push({ message: describe(printParseErrorCode(error.error)), range: { start, end: Math.min(start + error.length, text.length) } });
    }
    const tree = root ? toTree(source, lineBreakOf(source), root) : undefined;
    if (tree) collectTree(tree, { format: 'json', filePath: path, groupPrefix: '' }, out);
  } catch (error) {
    if (error instanceof BudgetExceeded) throw error;
    out.parseProblems.push({ message: `JSON could not be read: ${error instanceof Error ? error.message : String(error)}`, range: { start: 0, end: text.length } });
  }
  return out;
}

/** `PropertyNameExpected` → `Property name expected`. */
function describe(code: string): string {
  const words = code.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * One pass of jsonc-parser's scanner: `//` and `/* *\/` comments (`text` is the body without
 * markers, trimmed; the range is clamped to the text, as the scanner reports an unterminated `/*`
 * at the end one character too long), and the offset of the first `{`/`[` nested deeper than
 * `MAX_NESTING`, if any (`parseTree` recurses per level, so such text is not parsed).
 */
function scanTokens(text: string): { comments: Comment[]; tooDeep?: number } {
  const comments: Comment[] = [];
  let depth = 0;
  let tooDeep: number | undefined;
  const scanner = createScanner(text, false);
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.OpenBraceToken || kind === SyntaxKind.OpenBracketToken) {
      if (++depth > MAX_NESTING) tooDeep ??= scanner.getTokenOffset();
    } else if (kind === SyntaxKind.CloseBraceToken || kind === SyntaxKind.CloseBracketToken) {
      depth = Math.max(0, depth - 1);
    }
    if (kind !== SyntaxKind.LineCommentTrivia && kind !== SyntaxKind.BlockCommentTrivia) continue;
    const start = scanner.getTokenOffset();
    const end = Math.min(start + scanner.getTokenLength(), text.length);
    const body = text.slice(start + 2, kind === SyntaxKind.BlockCommentTrivia && text.endsWith('*/', end) && end - start >= 4 ? end - 2 : end);
    comments.push({ text: body.trim(), range: { start, end } });
  }
  return { comments, tooDeep };
}

/** The offset of the start of the line holding `offset` (after its `\n` or `\r`). */
export function lineStartOf(text: string, offset: number): number {
  let start = offset;
  while (start > 0 && text[start - 1] !== '\n' && text[start - 1] !== '\r') start--;
  return start;
}

function innerOfString(text: string, node: Node): Range {
  const end = node.offset + node.length;
  const closed = node.length >= 2 && text[end - 1] === '"';
  return { start: Math.min(node.offset + 1, end), end: closed ? end - 1 : end };
}

function toTree(text: string, lineBreak: string, node: Node): TreeNode | undefined {
  spend();
  const range = { start: node.offset, end: Math.min(node.offset + node.length, text.length) };
  switch (node.type) {
    case 'object': {
      const entries: TreeEntry[] = [];
      for (const property of node.children ?? []) {
        const [key, valueNode] = property.children ?? [];
        const value = valueNode ? toTree(text, lineBreak, valueNode) : undefined;
        if (key?.type !== 'string' || !value) continue;
        entries.push({ key: String(key.value), keyRange: innerOfString(text, key), statementRange: { start: property.offset, end: property.offset + property.length }, value });
      }
      return {
        kind: 'map',
        range,
        openRange: { start: node.offset, end: Math.min(node.offset + 1, range.end) },
        entries,
        insertion: () => flowInsertion(text, lineBreak, node.offset, entries, (offset) => lineStartOf(text, offset)),
      };
    }
    case 'array':
      return { kind: 'seq', range, items: (node.children ?? []).map((child) => toTree(text, lineBreak, child)).filter((c): c is TreeNode => c !== undefined) };
    case 'string':
    case 'number':
    case 'boolean':
    case 'null': {
      const raw = text.slice(range.start, range.end);
      const scalar = (valueType: TreeScalar['valueType'], value: string, contentRange: Range, quote: TreeScalar['quote']): TreeScalar => ({ kind: 'scalar', range, contentRange, raw, value, valueType, quote });
      if (node.type === 'string') return scalar('string', String(node.value), innerOfString(text, node), '"');
      if (node.type === 'number') return scalar('number', raw, range, '');
      return scalar(node.type, String(node.value), range, '');
    }
    default:
      return undefined;
  }
}
