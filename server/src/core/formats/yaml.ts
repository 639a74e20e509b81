import { BudgetExceeded, spend } from '../budget';
import { Composer, Lexer, LineCounter, Parser, isAlias, isMap, isScalar, isSeq } from 'yaml';
import type { Alias, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import type { Comment, Extraction, InsertionPoint, ParseProblem, Range } from '../model/types';
import { emptyExtraction } from '../model/types';
import { MAX_NESTING, collectTree, flowInsertion, indentBetween, lineBreakOf, nestingProblem } from './structured';
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
 * every `doc.errors` entry becomes a ParseProblem (sorted by offset), and an unexpected failure
 * becomes one covering the whole text, keeping whatever was extracted before it. Duplicate keys are
 * reported here with yaml's message ("Map keys must be unique") because its own check is quadratic
 * in the number of keys of a mapping.
 */
export function extractYaml(input: string, path: string): Extraction {
  const out = emptyExtraction();
  // YAML 1.2 §5.4 counts a lone CR as a line break; the `yaml` package only splits at LF. Same length, so offsets hold.
  const text = input.includes('\r') ? input.replace(/\r(?!\n)/g, '\n') : input;
  try {
    const lineCounter = new LineCounter();
    // The lexer loop the `yaml` package documents for `Parser` (parse/parser.d.ts), with a budget checkpoint per lexeme.
    const parser = new Parser(lineCounter.addNewLine);
    const tokens = [];
    for (const lexeme of new Lexer().lex(text)) {
      spend(0);
      for (const token of parser.next(lexeme)) tokens.push(token);
    }
    for (const token of parser.end()) tokens.push(token);
    const composable: typeof tokens = [];
    for (const token of tokens) {
      spend();
      const scan = scanCst(token, out.comments);
      if (scan.tooDeep === undefined) composable.push(token);
      else out.parseProblems.push(nestingProblem({ start: scan.tooDeep, end: Math.min(scan.tooDeep + 1, text.length) }));
    }
    out.comments.sort((a, b) => a.range.start - b.range.start);
    const composer = new Composer({ prettyErrors: false, uniqueKeys: false });
    const documents = Array.from(composer.compose(composable));
    const errors = documents.length === 0 ? composer.streamInfo().errors : documents.flatMap((document) => document.errors);
    for (const error of errors) out.parseProblems.push(problem(error.message, error.pos, text.length));
    documents.forEach((document, index) => {
      const root = new YamlTree(text, lineCounter, out.parseProblems).node(document.contents);
      if (root) collectTree(root, { format: 'yaml', filePath: path, groupPrefix: index === 0 ? '' : `doc${index}:` }, out);
    });
  } catch (error) {
    if (error instanceof BudgetExceeded) throw error;
    out.parseProblems.push({ message: `YAML could not be read: ${error instanceof Error ? error.message : String(error)}`, range: { start: 0, end: text.length } });
  }
  out.parseProblems.sort((a, b) => a.range.start - b.range.start);
  return out;
}

function problem(message: string, pos: readonly [number, number], length: number): ParseProblem {
  const start = Math.max(0, Math.min(pos[0], length));
  return { message, range: { start, end: Math.max(start, Math.min(pos[1], length)) } };
}

const CST_COLLECTIONS = new Set(['block-map', 'block-seq', 'flow-collection']);
/** The types of `yaml`'s CST `SourceToken` (parse/cst.d.ts): leaves whose fields are all strings and numbers. */
const CST_SOURCE_TOKENS = new Set([
  'byte-order-mark', 'doc-mode', 'doc-start', 'space', 'comment', 'newline', 'directive-line', 'anchor', 'tag', 'seq-item-ind',
  'explicit-key-ind', 'map-value-ind', 'flow-map-start', 'flow-map-end', 'flow-seq-start', 'flow-seq-end', 'flow-error-end', 'comma', 'block-scalar-header',
]);

/**
 * Walks one top-level CST token without recursion. Appends every `# …` comment to `comments` (`text`
 * without `#`, trimmed; `range` from `#` to the end of the comment) and returns the offset of the
 * first collection nested deeper than `MAX_NESTING`, if any. Such a document is not composed: the
 * `yaml` composer recurses until the stack overflows, which is not safe to rely on.
 */
function scanCst(root: unknown, comments: Comment[]): { tooDeep?: number } {
  let tooDeep: number | undefined;
  const items: unknown[] = [root];
  const depths: number[] = [0];
  while (items.length > 0) {
    const item = items.pop();
    const depth = depths.pop()!;
    if (Array.isArray(item)) {
      for (const child of item) {
        items.push(child);
        depths.push(depth);
      }
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    const token = item as Record<string, unknown>;
    if (token.type === 'comment' && typeof token.offset === 'number' && typeof token.source === 'string') {
      comments.push({ text: token.source.slice(1).trim(), range: { start: token.offset, end: token.offset + token.source.length } });
    }
    // A source token (`yaml`'s CST `SourceToken`: type, offset, indent, source) holds no token: nothing below it.
    if (typeof token.type === 'string' && CST_SOURCE_TOKENS.has(token.type)) continue;
    const inner = typeof token.type === 'string' && CST_COLLECTIONS.has(token.type) ? depth + 1 : depth;
    if (inner > MAX_NESTING && typeof token.offset === 'number') tooDeep = Math.min(tooDeep ?? token.offset, token.offset);
    for (const key in token) {
      const value = token[key];
      if (value !== null && typeof value === 'object') {
        items.push(value);
        depths.push(inner);
      }
    }
  }
  return { tooDeep };
}

/** Converts `yaml` document nodes to the format-neutral tree. */
class YamlTree {
  private readonly lineBreak: string;

  constructor(
    private readonly text: string,
    private readonly lineCounter: LineCounter,
    private readonly problems: ParseProblem[],
  ) {
    this.lineBreak = lineBreakOf(text);
  }

  node(node: unknown): TreeNode | undefined {
    spend();
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
    const quote = node.type === 'QUOTE_DOUBLE' ? '"' : node.type === 'QUOTE_SINGLE' ? "'" : '';
    const block = node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED';
    const start = node.range[0];
    const end = block ? this.trimmedEnd(start, node.range[1]) : node.range[1];
    const raw = this.text.slice(start, end);
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
    return { start: first, end };
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
    const seen = new Set<unknown>();
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? this.scalar(pair.key) : undefined;
      if (!key || !isScalar(pair.key)) continue;
      const name = typeof pair.key.value === 'string' ? pair.key.value : key.raw;
      if (name === '<<') continue;
      const duplicate = seen.has(pair.key.value);
      seen.add(pair.key.value);
      const value = this.node(pair.value);
      if (duplicate) this.problems.push({ message: 'Map keys must be unique', zh: '映射中的键必须唯一', range: key.range, kind: 'duplicateKey', key: name, hidden: { start: key.range.start, end: value?.range.end ?? key.range.end } });
      if (!value) continue;
      entries.push({ key: name, keyRange: key.contentRange, statementRange: { start: key.range.start, end: value.range.end }, value });
    }
    const flow = node.flow === true;
    const first = entries[0];
    return {
      kind: 'map',
      range: { start, end: this.trimmedEnd(start, node.range[1]) },
      openRange: flow || !first ? { start, end: Math.min(start + 1, this.text.length) } : first.keyRange,
      entries,
      insertion: () => (flow ? flowInsertion(this.text, this.lineBreak, start, entries, this.lineStart) : this.blockInsertion(entries, start)),
    };
  }

  /** After the end of the last entry's last line, as `<line break><the entries' indentation>`. */
  private blockInsertion(entries: TreeEntry[], start: number): InsertionPoint {
    const last = entries[entries.length - 1];
    if (!last) return { offset: start, prefix: '', suffix: '' };
    let offset = last.statementRange.end;
    while (offset < this.text.length && this.text[offset] !== '\n' && this.text[offset] !== '\r') offset++;
    const keyStart = last.statementRange.start;
    return { offset, prefix: this.lineBreak + indentBetween(this.text, this.lineStart(keyStart), keyStart), suffix: '' };
  }
}
