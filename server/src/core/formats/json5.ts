import { parse as parseMomoa } from '@humanwhocodes/momoa';
import { BudgetExceeded, spend } from '../budget';
import type { Comment, Extraction, Range } from '../model/types';
import { emptyExtraction } from '../model/types';
import { collectTree, flowInsertion, lineBreakOf, MAX_NESTING, nestingProblem } from './structured';
import type { TreeEntry, TreeNode, TreeScalar } from './structured';
import { lineStartOf } from './json';

/** A momoa AST node, as far as this extractor reads it (`range` = [start, end) string offsets). */
interface MomoaNode {
  type: string;
  range: [number, number];
  value?: unknown;
  name?: string | MomoaNode;
  members?: { name: MomoaNode; value: MomoaNode; range: [number, number] }[];
  elements?: { value: MomoaNode }[];
}

/** True for the files OpenClaw (and JSON5 tooling) read as JSON5: `openclaw.json` and `*.json5`. */
export function isJson5Path(path: string): boolean {
  const name = path.split(/[\\/]/).pop() ?? path;
  return name === 'openclaw.json' || name.toLowerCase().endsWith('.json5');
}

/**
 * Extracts settings, env maps, comments and parse problems from JSON5 (unquoted keys, single-quoted
 * strings, comments, trailing commas, hex numbers) with `@humanwhocodes/momoa` in `json5` mode, into the
 * same model as `extractJson` (OpenClaw documents `openclaw.json` as JSON5). Ranges are UTF-16 offsets
 * into `text` (momoa ranges are string indexes; a leading BOM is read as white space). Never throws:
 * a syntax error becomes one ParseProblem at its offset, text nested deeper than `MAX_NESTING` one at
 * the first too-deep bracket. A spent lint budget (`spend`, one per node) is rethrown.
 */
export function extractJson5(text: string, path: string): Extraction {
  const out = emptyExtraction();
  const unpadded = text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text;
  // momoa 3.3.13 loops forever in json5 mode when the text ends in an escape inside an unterminated
  // string (`"a\`, found by the property test): one trailing newline (whitespace to JSON5, a line
  // continuation inside the string) makes it report the unterminated string; no offset moves.
  const source = /(^|[^\\])(\\\\)*\\$/.test(unpadded) ? `${unpadded}\n` : unpadded;
  const tooDeep = firstTooDeep(source);
  if (tooDeep !== undefined) {
    out.parseProblems.push(nestingProblem({ start: tooDeep, end: tooDeep + 1 }));
    return out;
  }
  try {
    const doc = parseMomoa(source, { mode: 'json5', ranges: true, tokens: true }) as unknown as { body: MomoaNode; tokens?: { type: string; range: [number, number] }[] };
    out.comments = (doc.tokens ?? []).filter((t) => t.type === 'LineComment' || t.type === 'BlockComment').map((t): Comment => {
      const [start, end] = t.range;
      const body = t.type === 'BlockComment' ? source.slice(start + 2, end - 2) : source.slice(start + 2, end);
      return { text: body.trim(), range: { start, end } };
    });
    const tree = toTree(source, lineBreakOf(source), doc.body);
    if (tree) collectTree(tree, { format: 'json', filePath: path, groupPrefix: '' }, out);
  } catch (error) {
    if (error instanceof BudgetExceeded) throw error;
    const offset = typeof (error as { offset?: unknown }).offset === 'number' ? Math.min((error as { offset: number }).offset, text.length) : 0;
    const message = error instanceof Error ? error.message.replace(/\s*\(\d+:\d+\)$/, '') : String(error);
    out.parseProblems.push({ message: `JSON5: ${message}`, range: { start: offset, end: Math.min(offset + 1, text.length) } });
  }
  return out;
}

/** Offset of the first `{`/`[` nested deeper than `MAX_NESTING` outside strings and comments (momoa recurses per level). */
function firstTooDeep(text: string): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      for (i++; i < text.length && text[i] !== ch && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (ch === '{' || ch === '[') {
      if (++depth > MAX_NESTING) return i;
    } else if (ch === '}' || ch === ']') {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

/** Inside the quotes of a string or quoted key; the identifier itself when unquoted. */
function inner(text: string, node: MomoaNode): Range {
  const [start, end] = node.range;
  const q = text[start];
  return q === '"' || q === "'" ? { start: start + 1, end: Math.max(start + 1, end - 1) } : { start, end };
}

function keyName(node: MomoaNode): string {
  if (node.type === 'Identifier') return String(node.name);
  return String(node.value);
}

function toTree(text: string, lineBreak: string, node: MomoaNode): TreeNode | undefined {
  spend();
  const range = { start: node.range[0], end: node.range[1] };
  switch (node.type) {
    case 'Object': {
      const entries: TreeEntry[] = [];
      for (const member of node.members ?? []) {
        const value = toTree(text, lineBreak, member.value);
        if (!value) continue;
        entries.push({ key: keyName(member.name), keyRange: inner(text, member.name), statementRange: { start: member.range[0], end: member.range[1] }, value });
      }
      return {
        kind: 'map',
        range,
        openRange: { start: range.start, end: Math.min(range.start + 1, range.end) },
        entries,
        insertion: () => flowInsertion(text, lineBreak, range.start, entries, (offset) => lineStartOf(text, offset)),
      };
    }
    case 'Array':
      return { kind: 'seq', range, items: (node.elements ?? []).map((e) => toTree(text, lineBreak, e.value)).filter((c): c is TreeNode => c !== undefined) };
    case 'String':
    case 'Number':
    case 'Boolean':
    case 'Null':
    case 'Infinity':
    case 'NaN': {
      const raw = text.slice(range.start, range.end);
      const scalar = (valueType: TreeScalar['valueType'], value: string, contentRange: Range, quote: TreeScalar['quote']): TreeScalar => ({ kind: 'scalar', range, contentRange, raw, value, valueType, quote });
      if (node.type === 'String') return scalar('string', String(node.value), inner(text, node), raw[0] === "'" ? "'" : '"');
      if (node.type === 'Boolean') return scalar('boolean', String(node.value), range, '');
      if (node.type === 'Null') return scalar('null', 'null', range, '');
      return scalar('number', raw, range, '');
    }
    default:
      return undefined;
  }
}
