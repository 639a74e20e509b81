import type { Range, Setting, ValueType } from '../../model/types';
import type { SyntaxNode } from '../treesitter';

/** A Python value expression read as a literal: what a `Setting` needs besides key and placement. */
export interface Literal {
  raw: string;
  /** Decoded value; `undefined` unless the value is a scalar literal (string, number, bool, None). */
  value: string | undefined;
  valueType: ValueType;
  quote: Setting['quote'];
  valueRange: Range;
  /** Inside the quotes for strings, else equal to `valueRange`. */
  contentRange: Range;
}

/** The parts of one `string` node: prefix letters (`rb`, `f`), quote, and its literal segments. */
export interface StringParts {
  prefix: string;
  quote: '"' | "'";
  contentRange: Range;
  /** Top-level `{…}` interpolations of an f-string, in order. */
  interpolations: SyntaxNode[];
}

/** Splits a tree-sitter-python `string` node; `undefined` when it has no `string_start`. */
export function stringParts(node: SyntaxNode): StringParts | undefined {
  const start = node.firstChild;
  if (!start || start.type !== 'string_start') return undefined;
  const open = start.text;
  const last = node.lastChild;
  const end = last && last.type === 'string_end' && !last.isMissing ? last.startIndex : node.endIndex;
  return {
    prefix: open.replace(/["']+$/, '').toLowerCase(),
    quote: open.endsWith("'") ? "'" : '"',
    contentRange: { start: start.endIndex, end: Math.max(start.endIndex, end) },
    interpolations: node.namedChildren.filter((c): c is SyntaxNode => c !== null && c.type === 'interpolation'),
  };
}

const ESCAPE = /\\(\n|[\\'"abfnrtv]|[0-7]{1,3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})|\{\{|\}\}/g;
const SIMPLE: Record<string, string> = { '\n': '', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/**
 * Decodes the literal source text of a string segment as CPython does: source newlines become `\n`,
 * escapes apply unless the prefix has `r` (`\u`/`\U` only in str, not bytes; `\N{…}` is kept as written),
 * and `{{`/`}}` become braces in f-strings.
 */
export function decodeSegment(source: string, prefix: string): string {
  const src = source.replace(/\r\n?/g, '\n');
  const raw = prefix.includes('r');
  const bytes = prefix.includes('b');
  const fstring = prefix.includes('f');
  return src.replace(ESCAPE, (whole: string, esc: string | undefined) => {
    if (esc === undefined) return fstring ? whole[0] : whole;
    if (raw) return whole;
    if (esc in SIMPLE) return SIMPLE[esc];
    if (/^[0-7]/.test(esc)) return String.fromCharCode(parseInt(esc, 8));
    if (esc[0] === 'x') return String.fromCharCode(parseInt(esc.slice(1), 16));
    const code = parseInt(esc.slice(1), 16);
    return bytes || code > 0x10ffff ? whole : String.fromCodePoint(code);
  });
}

/** The decoded value of a string or implicitly concatenated string without interpolations. */
export function stringValue(node: SyntaxNode | null | undefined, text: string): string | undefined {
  if (!node) return undefined;
  if (node.type === 'parenthesized_expression') return stringValue(node.namedChild(0), text);
  if (node.type === 'concatenated_string') {
    let out = '';
    for (const part of node.namedChildren) {
      const v = part?.type === 'string' ? stringValue(part, text) : undefined;
      if (v === undefined) return undefined;
      out += v;
    }
    return out;
  }
  if (node.type !== 'string') return undefined;
  const parts = stringParts(node);
  if (!parts || parts.interpolations.length > 0) return undefined;
  return decodeSegment(text.slice(parts.contentRange.start, parts.contentRange.end), parts.prefix);
}

/**
 * The decoded literal text of an f-string between `from` and `to` (offsets inside its content),
 * stopping at the next interpolation.
 */
export function fstringSegment(node: SyntaxNode, text: string, from: number): string {
  const parts = stringParts(node);
  if (!parts) return '';
  const next = parts.interpolations.find((i) => i.startIndex >= from);
  return decodeSegment(text.slice(from, next ? next.startIndex : parts.contentRange.end), parts.prefix);
}

function unwrap(node: SyntaxNode): SyntaxNode {
  let n = node;
  while (n.type === 'parenthesized_expression' && n.namedChildCount === 1) {
    const inner = n.namedChild(0);
    if (!inner || inner.type === 'comment') break;
    n = inner;
  }
  return n;
}

function scalar(node: SyntaxNode, text: string): Pick<Literal, 'value' | 'valueType' | 'quote'> & { content?: Range } {
  switch (node.type) {
    case 'string':
    case 'concatenated_string': {
      const first = node.type === 'string' ? node : node.namedChild(0);
      const last = node.type === 'string' ? node : node.namedChild(node.namedChildCount - 1);
      const a = first && first.type === 'string' ? stringParts(first) : undefined;
      const b = last && last.type === 'string' ? stringParts(last) : undefined;
      const value = stringValue(node, text);
      const content = a && b ? { start: a.contentRange.start, end: b.contentRange.end } : undefined;
      return { value, valueType: value === undefined ? 'dynamic' : 'string', quote: a?.quote ?? '', content };
    }
    case 'integer':
    case 'float':
      return { value: node.text.replace(/_/g, ''), valueType: 'number', quote: '' };
    case 'unary_operator': {
      const arg = node.childForFieldName('argument');
      const op = node.childForFieldName('operator')?.type;
      if (arg && (op === '-' || op === '+') && (arg.type === 'integer' || arg.type === 'float')) {
        return { value: (op === '-' ? '-' : '') + arg.text.replace(/_/g, ''), valueType: 'number', quote: '' };
      }
      return { value: undefined, valueType: 'dynamic', quote: '' };
    }
    case 'true':
      return { value: 'true', valueType: 'boolean', quote: '' };
    case 'false':
      return { value: 'false', valueType: 'boolean', quote: '' };
    case 'none':
      return { value: 'null', valueType: 'null', quote: '' };
    case 'list':
    case 'tuple':
      return { value: undefined, valueType: 'list', quote: '' };
    case 'dictionary':
      return { value: undefined, valueType: 'map', quote: '' };
    default:
      return { value: undefined, valueType: 'dynamic', quote: '' };
  }
}

/**
 * Reads a value expression (`raw` is sliced from `text`, the document as written): strings (any prefix, quotes, escapes; f-strings with interpolations are
 * `dynamic`), numbers (underscores removed), `True`/`False` → `true`/`false`, `None` → `null`,
 * lists/dicts as `list`/`map` without a value, anything else `dynamic`.
 */
export function literalOf(node: SyntaxNode, text: string): Literal {
  const range = { start: node.startIndex, end: node.endIndex };
  const s = scalar(unwrap(node), text);
  return { raw: text.slice(range.start, range.end), value: s.value, valueType: s.valueType, quote: s.quote, valueRange: range, contentRange: s.content ?? range };
}

/** True for literal kinds that can seed a Setting (`NAME = <literal>`): scalars, lists and dicts. */
export function isLiteral(lit: Literal): boolean {
  return lit.valueType !== 'dynamic';
}
