import type { AST } from 'toml-eslint-parser' with { 'resolution-mode': 'import' };
import { BudgetExceeded } from '../budget';
import type { Extraction, InsertionPoint, Range } from '../model/types';
import { emptyExtraction } from '../model/types';
import { contentLineCount } from './size';
import { MAX_NESTING, collectTree, flowInsertion, indentBetween, lineBreakOf, nestingProblem } from './structured';
import type { TreeEntry, TreeMap, TreeNode, TreeScalar } from './structured';

/**
 * toml-eslint-parser ships only ES modules; Node ≥ 20.19 (our `engines`) loads them with `require`, and
 * the esbuild bundle inlines it.
 */
const { parseTOML } = require('toml-eslint-parser') as typeof import('toml-eslint-parser', { with: { 'resolution-mode': 'import' } });

/**
 * Extracts settings, request sites, comments and parse problems from TOML (v1.0) with
 * `toml-eslint-parser`, which keeps every key's and value's source range.
 *
 * - Tables (`[model_providers.tao]`), dotted keys (`a.b = 1`), inline tables and arrays of tables
 *   (`[[x]]`, path `x[0]`) become one tree, so `model_providers.tao.base_url` has that path and shares
 *   its `group` (`model_providers.tao`) with the table's `wire_api`, `env_key` and `query_params`.
 * - Scalars: strings as decoded (basic, literal and multi-line); integers, floats and date-times as
 *   their source text; booleans `'true'`/`'false'`. `contentRange` spans the characters between the
 *   quotes (after the newline a multi-line string drops).
 *
 * Ranges are UTF-16 offsets into `text` (the parser counts string indexes). The parser stops at the
 * first syntax error, which becomes the only ParseProblem and leaves no settings. Throws only
 * `BudgetExceeded` (`nodes`), before parsing, for a file of more than `MAX_STATEMENTS` statements.
 */
export function extractToml(text: string, path: string): Extraction {
  const out = emptyExtraction();
  // toml-eslint-parser keeps ~6 tokens and ~7 nodes per statement and is not interruptible: past
  // MAX_STATEMENTS the lint would pass the 800 MB goal before its time budget ran out (issue 29).
  if (contentLineCount(text) > MAX_STATEMENTS) throw new BudgetExceeded('nodes', `${MAX_STATEMENTS} TOML statements`);
  try {
    const tooDeep = firstTooDeep(text);
    if (tooDeep !== undefined) {
      out.parseProblems.push(nestingProblem({ start: tooDeep, end: tooDeep + 1 }));
      return out;
    }
    const ast = parseTOML(text);
    out.comments = ast.comments.map((c) => ({ text: c.value.trim(), range: { start: c.range[0], end: c.range[1] } }));
    collectTree(new TomlTree(text).build(ast.body[0]), { format: 'toml', filePath: path, groupPrefix: '' }, out);
  } catch (error) {
    const index = typeof (error as { index?: unknown }).index === 'number' ? Math.min((error as { index: number }).index, text.length) : 0;
    out.parseProblems.push({ message: error instanceof Error ? error.message : String(error), range: { start: index, end: Math.min(index + 1, text.length) } });
  }
  return out;
}

/**
 * Most statements (`contentLineCount`) a TOML file may have before it counts as over the node budget
 * unparsed. Measured with the CLI (issue 29): 50k `[t]` tables with one key each (100k statements)
 * cost 579 MB and 4.1 s CPU; 95k–100k tables, 1.0 GB and over the 5 s budget. Real TOML configs
 * (pyproject.toml, Codex config.toml) have a few hundred.
 */
export const MAX_STATEMENTS = 100_000;

/**
 * The offset of the first `[`/`{` outside strings and comments nested deeper than `MAX_NESTING`
 * (the parser recurses per level of inline arrays and tables). A rough scan is enough: it only
 * guards recursion depth, strings and comments are skipped so ordinary files never trip it.
 */
function firstTooDeep(text: string): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      const line = text.indexOf('\n', i + 1);
      i = close < 0 || (line >= 0 && line < close) ? (line < 0 ? text.length : line) : close;
    } else if (c === '[' || c === '{') {
      if (++depth > MAX_NESTING) return i;
    } else if (c === ']' || c === '}') {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

/** A mapping being built: the tree node plus its child maps by key, so later tables extend it. */
interface Building {
  node: TreeMap;
  children: Map<string, Building | BuildingSeq>;
}

interface BuildingSeq {
  node: { kind: 'seq'; range: Range; items: TreeNode[] };
  items: Building[];
}

class TomlTree {
  private readonly lineBreak: string;

  constructor(private readonly text: string) {
    this.lineBreak = lineBreakOf(text);
  }

  build(top: AST.TOMLTopLevelTable): TreeMap {
    const root = this.newMap({ start: 0, end: this.text.length }, { start: 0, end: 0 });
    const rootInsertion = () => this.lineInsertion(top.body.filter((n): n is AST.TOMLKeyValue => n.type === 'TOMLKeyValue'), 0);
    root.node.insertion = rootInsertion;
    for (const item of top.body) {
      if (item.type === 'TOMLKeyValue') this.keyValue(root, item);
      else this.table(root, item);
    }
    return root.node;
  }

  private newMap(range: Range, openRange: Range): Building {
    const node: TreeMap = { kind: 'map', range, openRange, entries: [], insertion: () => ({ offset: range.end, prefix: this.lineBreak, suffix: '' }) };
    return { node, children: new Map() };
  }

  /** After the last key/value line of a table (or its header), indented like that line. */
  private lineInsertion(body: readonly AST.TOMLKeyValue[], headerEnd: number): InsertionPoint {
    const last = body[body.length - 1];
    if (!last) return { offset: headerEnd, prefix: headerEnd === 0 ? '' : this.lineBreak, suffix: headerEnd === 0 ? this.lineBreak : '' };
    const start = last.range[0];
    let lineStart = start;
    while (lineStart > 0 && this.text[lineStart - 1] !== '\n' && this.text[lineStart - 1] !== '\r') lineStart--;
    return { offset: last.range[1], prefix: this.lineBreak + indentBetween(this.text, lineStart, start), suffix: '' };
  }

  /** The child map of `parent` under `key`, created (as an entry) when absent. */
  private child(parent: Building, key: string, keyRange: Range, statementRange: Range): Building | undefined {
    const existing = parent.children.get(key);
    if (existing && 'children' in existing) return existing;
    if (existing) return existing.items[existing.items.length - 1];
    const made = this.newMap(statementRange, keyRange);
    parent.children.set(key, made);
    parent.node.entries.push({ key, keyRange, statementRange, value: made.node });
    return made;
  }

  private keyRanges(key: AST.TOMLKey): { name: string; range: Range }[] {
    return key.keys.map((k) => {
      const [start, end] = k.range;
      const quoted = k.type === 'TOMLQuoted';
      return { name: k.type === 'TOMLBare' ? k.name : k.value, range: quoted ? { start: start + 1, end: Math.max(start + 1, end - 1) } : { start, end } };
    });
  }

  private table(root: Building, table: AST.TOMLTable): void {
    const segments = this.keyRanges(table.key);
    const statementRange = { start: table.range[0], end: table.range[1] };
    let current: Building | undefined = root;
    segments.forEach((segment, index) => {
      if (!current) return;
      const last = index === segments.length - 1;
      if (last && table.kind === 'array') {
        let seq = current.children.get(segment.name);
        if (!seq || 'children' in seq) {
          const node = { kind: 'seq' as const, range: statementRange, items: [] as TreeNode[] };
          seq = { node, items: [] };
          current.children.set(segment.name, seq);
          current.node.entries.push({ key: segment.name, keyRange: segment.range, statementRange, value: node });
        }
        const item = this.newMap(statementRange, segment.range);
        seq.items.push(item);
        seq.node.items.push(item.node);
        seq.node.range = { start: seq.node.range.start, end: statementRange.end };
        current = item;
      } else {
        current = this.child(current, segment.name, segment.range, last ? statementRange : { start: segment.range.start, end: statementRange.end });
      }
    });
    if (!current) return;
    const target = current;
    target.node.range = statementRange;
    target.node.openRange = segments[segments.length - 1]?.range ?? target.node.openRange;
    const headerEnd = table.key.range[1] + (table.kind === 'array' ? 2 : 1);
    target.node.insertion = () => this.lineInsertion(table.body, Math.min(headerEnd, this.text.length));
    for (const item of table.body) this.keyValue(target, item);
  }

  private keyValue(parent: Building, kv: AST.TOMLKeyValue): void {
    const segments = this.keyRanges(kv.key);
    const statementRange = { start: kv.range[0], end: kv.range[1] };
    let current: Building | undefined = parent;
    for (const segment of segments.slice(0, -1)) current = current && this.child(current, segment.name, segment.range, statementRange);
    const last = segments[segments.length - 1];
    if (!current || !last) return;
    const value = this.value(kv.value);
    if (!value) return;
    const entry: TreeEntry = { key: last.name, keyRange: last.range, statementRange, value };
    current.node.entries.push(entry);
  }

  private value(node: AST.TOMLContentNode): TreeNode | undefined {
    const range = { start: node.range[0], end: node.range[1] };
    if (node.type === 'TOMLArray') return { kind: 'seq', range, items: node.elements.map((e) => this.value(e)).filter((e): e is TreeNode => e !== undefined) };
    if (node.type === 'TOMLInlineTable') {
      const map = this.newMap(range, { start: range.start, end: range.start + 1 });
      for (const kv of node.body) this.keyValue(map, kv);
      map.node.insertion = () => flowInsertion(this.text, this.lineBreak, range.start, map.node.entries, (offset) => this.lineStart(offset));
      return map.node;
    }
    return this.scalar(node, range);
  }

  private scalar(node: AST.TOMLValue | AST.TOMLDateTimeValue, range: Range): TreeScalar {
    const raw = this.text.slice(range.start, range.end);
    const base = { kind: 'scalar' as const, range, raw, contentRange: range, quote: '' as const };
    if (node.kind === 'string') {
      const width = node.multiline ? 3 : 1;
      let start = Math.min(range.start + width, range.end);
      if (node.multiline) {
        if (this.text.startsWith('\r\n', start)) start += 2;
        else if (this.text[start] === '\n') start += 1;
      }
      const end = Math.max(start, range.end - width);
      return { ...base, contentRange: { start, end }, value: node.value, valueType: 'string', quote: node.style === 'basic' ? '"' : "'" };
    }
    if (node.kind === 'boolean') return { ...base, value: String(node.value), valueType: 'boolean' };
    if (node.kind === 'integer' || node.kind === 'float') return { ...base, value: raw, valueType: 'number' };
    return { ...base, value: raw, valueType: 'string' };
  }

  private lineStart(offset: number): number {
    let start = offset;
    while (start > 0 && this.text[start - 1] !== '\n' && this.text[start - 1] !== '\r') start--;
    return start;
  }
}
