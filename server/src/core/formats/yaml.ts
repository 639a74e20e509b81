import { Composer, LineCounter, Parser, isAlias, isMap, isScalar, isSeq } from 'yaml';
import type { Alias, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import type { Comment, Extraction, ParseProblem, Range } from '../model/types';
import { emptyExtraction } from '../model/types';
import { collectTree, flowInsertion, indentBetween, lineBreakOf } from './structured';
import type { TreeEntry, TreeMap, TreeNode, TreeScalar } from './structured';

/**
 * Extracts settings, env definitions, request sites, comments and parse problems from a YAML
 * stream (every document of it), using the `yaml` package in its default YAML 1.2 core schema.
 *
 * - Scalars: `value` is the parsed string (`yes`/`on` stay strings, unquoted); booleans, nulls and
 *   numbers become `'true'`/`'false'`, `'null'` and the number's source text. Aliases are
 *   `valueType: 'dynamic'` with `value` undefined. Block scalars' `contentRange` spans their content.
 * - `group` is the dotted path of the enclosing mapping, prefixed `doc<i>:` for the i-th document
 *   (0-based) after the first, so settings of different documents never pair.
 * - Env: scalars of any `env:`/`environment:` mapping, `- KEY=value` strings (split at the first
 *   `=`; `- KEY` alone has `value` undefined) and `{name, value}` items of such a list.
 *
 * All ranges are UTF-16 offsets into `text` (the `yaml` package counts string indexes). Never throws:
 * every `doc.errors` entry becomes a ParseProblem, and an unexpected failure becomes one covering the
 * whole text, keeping whatever was extracted before it.
 */
export function extractYaml(text: string, path: string): Extraction {
  const out = emptyExtraction();
  try {
    const lineCounter = new LineCounter();
    const tokens = Array.from(new Parser(lineCounter.addNewLine).parse(text));
    out.comments = cstComments(tokens);
    const composer = new Composer({ prettyErrors: false });
    const documents = Array.from(composer.compose(tokens));
    if (documents.length === 0) out.parseProblems.push(...composer.streamInfo().errors.map((e) => problem(e.message, e.pos, text.length)));
    documents.forEach((document, index) => {
      out.parseProblems.push(...document.errors.map((e) => problem(e.message, e.pos, text.length)));
      const root = new YamlTree(text, lineCounter).node(document.contents);
      if (root) collectTree(root, { format: 'yaml', filePath: path, groupPrefix: index === 0 ? '' : `doc${index}:` }, out);
    });
  } catch (error) {
    out.parseProblems.push({ message: `YAML could not be read: ${error instanceof Error ? error.message : String(error)}`, range: { start: 0, end: text.length } });
  }
  return out;
}

function problem(message: string, pos: readonly [number, number], length: number): ParseProblem {
  const start = Math.max(0, Math.min(pos[0], length));
  return { message, range: { start, end: Math.max(start, Math.min(pos[1], length)) } };
}

/**
 * Every `# …` comment token in the parser's concrete syntax tree, in source order. `text` is the
 * comment without `#`, trimmed; `range` covers `#` through the end of the comment.
 */
function cstComments(tokens: unknown[]): Comment[] {
  const comments: Comment[] = [];
  const pending: unknown[] = [...tokens];
  while (pending.length > 0) {
    const item = pending.pop();
    if (Array.isArray(item)) {
      pending.push(...item);
    } else if (item !== null && typeof item === 'object') {
      const token = item as { type?: unknown; offset?: unknown; source?: unknown };
      if (token.type === 'comment' && typeof token.offset === 'number' && typeof token.source === 'string') {
        comments.push({ text: token.source.slice(1).trim(), range: { start: token.offset, end: token.offset + token.source.length } });
      }
      for (const value of Object.values(item)) if (value !== null && typeof value === 'object') pending.push(value);
    }
  }
  return comments.sort((a, b) => a.range.start - b.range.start);
}

/** Converts `yaml` document nodes to the format-neutral tree. */
class YamlTree {
  constructor(
    private readonly text: string,
    private readonly lineCounter: LineCounter,
  ) {}

  node(node: unknown): TreeNode | undefined {
    if (isScalar(node)) return this.scalar(node);
    if (isAlias(node)) return this.alias(node);
    if (isMap(node)) return this.map(node);
    if (isSeq(node)) return this.seq(node);
    return undefined;
  }

  private lineStart = (offset: number): number => offset - (this.lineCounter.linePos(offset).col - 1);

  private trimmedEnd(start: number, end: number): number {
    while (end > start && /\s/.test(this.text[end - 1])) end--;
    return end;
  }

  private scalar(node: Scalar): TreeScalar | undefined {
    if (!node.range) return undefined;
    const [start, end] = node.range;
    const raw = this.text.slice(start, end);
    const quote = node.type === 'QUOTE_DOUBLE' ? '"' : node.type === 'QUOTE_SINGLE' ? "'" : '';
    const block = node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED';
    const contentRange = quote ? this.quotedContent(start, end, quote) : block ? this.blockContent(start, end) : { start, end };
    const v: unknown = node.value;
    const plainText = quote || block ? this.text.slice(contentRange.start, contentRange.end) : raw;
    const scalar = (valueType: TreeScalar['valueType'], value: string): TreeScalar => ({ kind: 'scalar', range: { start, end }, contentRange, raw, value, valueType, quote });
    if (typeof v === 'string') return scalar('string', v);
    if (typeof v === 'number' || typeof v === 'bigint') return scalar('number', quote || block ? String(v) : raw);
    if (typeof v === 'boolean') return scalar('boolean', String(v));
    if (v === null || v === undefined) return scalar('null', 'null');
    return scalar('string', plainText);
  }

  private quotedContent(start: number, end: number, quote: string): Range {
    const closed = end - start >= 2 && this.text[end - 1] === quote;
    return { start: Math.min(start + 1, end), end: closed ? end - 1 : end };
  }

  /** The content of a block scalar: from its first non-blank character after the header line to its last. */
  private blockContent(start: number, end: number): Range {
    const lineBreak = this.text.indexOf('\n', start);
    let first = lineBreak < 0 || lineBreak >= end ? end : lineBreak + 1;
    while (first < end && /\s/.test(this.text[first])) first++;
    return { start: first, end: Math.max(first, this.trimmedEnd(start, end)) };
  }

  private alias(node: Alias): TreeScalar | undefined {
    if (!node.range) return undefined;
    const range = { start: node.range[0], end: node.range[1] };
    return { kind: 'scalar', range, contentRange: range, raw: this.text.slice(range.start, range.end), value: undefined, valueType: 'dynamic', quote: '' };
  }

  private seq(node: YAMLSeq): TreeNode | undefined {
    if (!node.range) return undefined;
    const items = node.items.map((item) => this.node(item)).filter((item): item is TreeNode => item !== undefined);
    return { kind: 'seq', range: { start: node.range[0], end: this.trimmedEnd(node.range[0], node.range[1]) }, items };
  }

  private map(node: YAMLMap): TreeMap | undefined {
    if (!node.range) return undefined;
    const start = node.range[0];
    const entries: TreeEntry[] = [];
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? this.scalar(pair.key) : undefined;
      const value = this.node(pair.value);
      if (!key || !value || !isScalar(pair.key)) continue;
      const name = typeof pair.key.value === 'string' ? pair.key.value : key.raw;
      if (name === '<<') continue;
      entries.push({ key: name, keyRange: key.contentRange, statementRange: { start: key.range.start, end: value.range.end }, value });
    }
    const flow = node.flow === true || this.text[start] === '{';
    const first = entries[0];
    return {
      kind: 'map',
      range: { start, end: this.trimmedEnd(start, node.range[1]) },
      openRange: flow || !first ? { start, end: Math.min(start + 1, this.text.length) } : first.keyRange,
      entries,
      insertion: () => (flow ? flowInsertion(this.text, start, entries, this.lineStart) : this.blockInsertion(entries, start)),
    };
  }

  /** After the end of the last entry's last line, as `<line break><the entries' indentation>`. */
  private blockInsertion(entries: TreeEntry[], start: number) {
    const last = entries[entries.length - 1];
    if (!last) return { offset: start, prefix: '', suffix: '' };
    const lineEnd = /[\r\n]/.exec(this.text.slice(last.statementRange.end));
    const offset = lineEnd ? last.statementRange.end + lineEnd.index : this.text.length;
    const keyStart = last.statementRange.start;
    return { offset, prefix: lineBreakOf(this.text) + indentBetween(this.text, this.lineStart(keyStart), keyStart), suffix: '' };
  }
}
