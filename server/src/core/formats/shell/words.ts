import type { Range } from '../../model/types';
import type { SyntaxNode } from '../treesitter';

/** Node types whose value bash computes at run time (the value is then not a literal). */
const EXPANSION_TYPES = new Set([
  'simple_expansion',
  'expansion',
  'command_substitution',
  'arithmetic_expansion',
  'process_substitution',
]);

/** `${K:-d}`, `${K-d}`, `${K:=d}`, `${K=d}`: the operators that give a variable a default (bash manual, Parameter Expansion). */
const DEFAULT_OPERATORS = new Set([':-', '-', ':=', '=']);

/**
 * One piece of a decoded shell word: literal characters with the source offset of each, or an
 * expansion node whose value is only known at run time.
 */
export type Segment =
  | { kind: 'literal'; text: string; offsets: number[] }
  | { kind: 'expansion'; node: SyntaxNode };

/** A shell word decoded the way bash yields it (quotes removed, escapes applied), with positions. */
export interface Word {
  range: Range;
  segments: Segment[];
  /** The decoded value when the word has no expansion; `undefined` otherwise. */
  literal: string | undefined;
  /** Set when the whole range is one quoted string: its quote and the range inside the quotes. */
  quoted?: { quote: '"' | "'"; content: Range };
}

type Mode = 'plain' | 'double' | 'single' | 'ansi';

const ANSI_ESCAPES: Record<string, string> = {
  n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v',
  '\\': '\\', "'": "'", '"': '"', '?': '?',
};

/** The outermost expansion nodes under `node` that start inside `[start, end)`, in source order. */
export function expansionsWithin(node: SyntaxNode, start: number, end: number): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  const stack: SyntaxNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.endIndex <= start || current.startIndex >= end) continue;
    if (EXPANSION_TYPES.has(current.type) && current.startIndex >= start) {
      found.push(current);
      continue;
    }
    for (let i = current.childCount - 1; i >= 0; i--) stack.push(current.child(i)!);
  }
  return found.sort((a, b) => a.startIndex - b.startIndex);
}

/**
 * Decodes the source text `[start, end)` as one bash word: backslash escapes, `'…'`, `"…"`,
 * `$'…'` and line continuations are resolved; `expansions` (from `expansionsWithin`) become
 * expansion segments. `mode` is the quoting state at `start` (for a region that begins inside quotes).
 */
export function decodeWord(text: string, start: number, end: number, expansions: SyntaxNode[], mode: Mode = 'plain'): Word {
  const segments: Segment[] = [];
  let literal = '';
  let offsets: number[] = [];
  const flush = () => {
    if (literal.length > 0) segments.push({ kind: 'literal', text: literal, offsets });
    literal = '';
    offsets = [];
  };
  const push = (ch: string, at: number) => {
    literal += ch;
    for (let k = 0; k < ch.length; k++) offsets.push(at);
  };
  /**
   * Pushes the ordinary characters from `from` (which is one) up to the first of the char codes
   * `a`/`b`/`c`/`d`, the next expansion's start or `end`, at once; returns where it stopped. The same as
   * pushing them one by one (each is one code unit at its own offset), without a string per character.
   */
  const pushRun = (from: number, a: number, b: number, c: number, d: number): number => {
    const limit = next < expansions.length && expansions[next].startIndex > from ? Math.min(end, expansions[next].startIndex) : end;
    let j = from + 1;
    while (j < limit) {
      const code = text.charCodeAt(j);
      if (code === a || code === b || code === c || code === d) break;
      j++;
    }
    literal += text.slice(from, j);
    for (let k = from; k < j; k++) offsets.push(k);
    return j;
  };
  const spans: { quote: '"' | "'"; open: number; contentStart: number; close: number }[] = [];
  let next = 0;
  let i = start;
  while (i < end) {
    while (next < expansions.length && expansions[next].startIndex < i) next++;
    const expansion = expansions[next];
    if (expansion && expansion.startIndex === i && (mode === 'plain' || mode === 'double')) {
      flush();
      segments.push({ kind: 'expansion', node: expansion });
      i = Math.max(expansion.endIndex, i + 1);
      continue;
    }
    const c = text[i];
    if (mode === 'single') {
      if (c === "'") {
        closeSpan(spans, i);
        mode = 'plain';
        i++;
      } else i = pushRun(i, 39, 39, 39, 39);
    } else if (mode === 'ansi') {
      if (c === "'") {
        closeSpan(spans, i);
        mode = 'plain';
        i++;
      } else if (c === '\\' && i + 1 < end) {
        i = decodeAnsiEscape(text, i, end, push);
      } else push(c, i++);
    } else if (c === '\\') {
      const after = text[i + 1];
      if (after === '\n') i += 2;
      else if (after === '\r' && text[i + 2] === '\n') i += 3;
      else if (i + 1 >= end) push(c, i++);
      else if (mode === 'plain' || after === '$' || after === '`' || after === '"' || after === '\\') {
        push(after, i + 1);
        i += 2;
      } else push(c, i++);
    } else if (mode === 'double') {
      if (c === '"') {
        closeSpan(spans, i);
        mode = 'plain';
        i++;
      } else i = pushRun(i, 92, 34, 34, 34);
    } else if (c === "'") {
      spans.push({ quote: "'", open: i, contentStart: i + 1, close: -1 });
      mode = 'single';
      i++;
    } else if (c === '"') {
      spans.push({ quote: '"', open: i, contentStart: i + 1, close: -1 });
      mode = 'double';
      i++;
    } else if (c === '$' && (text[i + 1] === "'" || text[i + 1] === '"') && i + 1 < end) {
      const quote = text[i + 1] as '"' | "'";
      spans.push({ quote, open: i, contentStart: i + 2, close: -1 });
      mode = quote === "'" ? 'ansi' : 'double';
      i += 2;
    } else i = pushRun(i, 92, 39, 34, 36);
  }
  flush();
  const word: Word = { range: { start, end }, segments, literal: literalOf(segments) };
  const only = spans.length === 1 ? spans[0] : undefined;
  if (only && only.open === start && only.close === end - 1) {
    word.quoted = { quote: only.quote, content: { start: only.contentStart, end: only.close } };
  }
  return word;
}

function closeSpan(spans: { close: number }[], at: number): void {
  const open = spans[spans.length - 1];
  if (open && open.close < 0) open.close = at;
}

function decodeAnsiEscape(text: string, i: number, end: number, push: (ch: string, at: number) => void): number {
  const c = text[i + 1];
  const simple = ANSI_ESCAPES[c];
  if (simple !== undefined) {
    push(simple, i);
    return i + 2;
  }
  const numeric = /^(?:x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|([0-7]{1,3}))/.exec(text.slice(i + 1, Math.min(end, i + 10)));
  if (numeric) {
    const code = numeric[4] !== undefined ? parseInt(numeric[4], 8) : parseInt(numeric[1] ?? numeric[2] ?? numeric[3], 16);
    push(code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd', i);
    return i + 1 + numeric[0].length;
  }
  push('\\', i);
  return i + 1;
}

function literalOf(segments: Segment[]): string | undefined {
  let value = '';
  for (const segment of segments) {
    if (segment.kind === 'expansion') return undefined;
    value += segment.text;
  }
  return value;
}

/** Decodes the whole of `node` as a word. */
export function decodeNode(text: string, node: SyntaxNode): Word {
  return decodeWord(text, node.startIndex, node.endIndex, expansionsWithin(node, node.startIndex, node.endIndex));
}

/** The variable an expansion reads (`$K`, `${K}`, `${K:-d}`, `${#K}`), or undefined for `$1`, `$@`, arrays. */
export function expansionVariable(node: SyntaxNode): SyntaxNode | undefined {
  if (node.type !== 'simple_expansion' && node.type !== 'expansion') return undefined;
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'subscript') return undefined;
    if (child.type === 'variable_name') return /^[A-Za-z_]\w*$/.test(child.text) ? child : undefined;
  }
  return undefined;
}

/** The array an expansion spreads: `${A[@]}`, `${A[*]}` → `A`; undefined for anything else. */
export function arraySpread(node: SyntaxNode): string | undefined {
  if (node.type !== 'expansion') return undefined;
  const subscript = node.namedChildren.find((child) => child?.type === 'subscript');
  const name = subscript?.childForFieldName('name');
  const index = subscript?.childForFieldName('index');
  if (!name || !index || (index.text !== '@' && index.text !== '*')) return undefined;
  return name.text;
}

/** A `${K:-default}`-style expansion: the variable, its name node and the default's source range. */
export interface DefaultedExpansion {
  name: string;
  nameRange: Range;
  defaultRange: Range;
  /** The decoded default, `undefined` when the default itself expands something. */
  defaultWord: Word;
}

/** Reads `${K:-d}` / `${K-d}` / `${K:=d}` / `${K=d}`; undefined for any other expansion. */
export function defaultedExpansion(text: string, node: SyntaxNode): DefaultedExpansion | undefined {
  if (node.type !== 'expansion') return undefined;
  const operator = node.childForFieldName('operator');
  const variable = expansionVariable(node);
  if (!operator || !variable || !DEFAULT_OPERATORS.has(operator.type) || operator.startIndex !== variable.endIndex) return undefined;
  const last = node.child(node.childCount - 1);
  const end = last && last.type === '}' && !last.isMissing ? last.startIndex : node.endIndex;
  const start = Math.min(operator.endIndex, end);
  return {
    name: variable.text,
    nameRange: { start: variable.startIndex, end: variable.endIndex },
    defaultRange: { start, end },
    defaultWord: decodeWord(text, start, end, expansionsWithin(node, start, end)),
  };
}

/** The single expansion a word consists of (`${K:-d}`, `"${K:-d}"`), or undefined. */
export function soleExpansion(word: Word): SyntaxNode | undefined {
  const only = word.segments.length === 1 ? word.segments[0] : undefined;
  return only?.kind === 'expansion' ? only.node : undefined;
}

/** Source range of decoded characters `[from, to)` of a literal segment (`to > from`, or an empty range at `from`). */
export function literalSpan(segment: { offsets: number[] }, from: number, to: number): Range {
  const start = segment.offsets[from];
  return { start, end: to > from ? segment.offsets[to - 1] + 1 : start };
}
