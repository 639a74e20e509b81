import type { Language, Tree } from 'web-tree-sitter';
import { Parser } from 'web-tree-sitter';
import type { Range } from '../model/types';
import { spend } from '../budget';

/**
 * Grammar languages loaded by the host (the CLI and server load the shipped `.wasm` files with
 * `locateFile`; see `server/src/node/grammars.ts`). Core only parses with them.
 */
export interface Grammars {
  python: Language;
  bash: Language;
  /** tree-sitter-javascript (JSX included), tree-sitter-typescript's `typescript` and `tsx`: only for env reads. */
  javascript: Language;
  typescript: Language;
  tsx: Language;
}

const parsers = new WeakMap<Language, Parser>();

/**
 * Parses `text` with `language`, reusing one parser per language. The tree's nodes count against the
 * active lint budget (`spend`; throws `BudgetExceeded`).
 * web-tree-sitter 0.27 receives the JS string as UTF-16, so node `startIndex`/`endIndex` are
 * UTF-16 code-unit offsets, the same unit as core ranges (a fixture with Chinese text checks it).
 */
export function parseWith(language: Language, text: string) {
  let parser = parsers.get(language);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(language);
    parsers.set(language, parser);
  }
  spend(0, true);
  const tree = parser.parse(text);
  if (!tree) throw new Error('tree-sitter returned no tree');
  try {
    spend(tree.rootNode.descendantCount, true);
  } catch (error) {
    tree.delete();
    throw error;
  }
  return tree;
}

const NONE = -1;
const NAMED = 1;
const MISSING = 2;

/**
 * A plain-JS copy of a tree-sitter tree: every visible node in pre-order, as parallel arrays indexed
 * by the node's pre-order index (0: the root). Node objects (`SyntaxNode`) are made only for the
 * nodes a caller asks for, once each (`node(index)`), so reading the copy never calls into wasm and
 * allocates little: each web-tree-sitter `Node` property read marshals the node into wasm memory and
 * back (tens of thousands of calls per file), which was most of the extraction time (issue 16).
 */
export class SyntaxTreeSnapshot {
  /** Number of nodes. */
  size = 0;
  private readonly typeIds: Uint16Array;
  private readonly flags: Uint8Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly parents: Int32Array;
  /** Field id of each node in its parent (0: none). */
  private readonly fieldIds: Uint16Array;
  private readonly firstChildren: Int32Array;
  private readonly nextSiblings: Int32Array;
  /** Node objects made so far, by index: sized up front, so writes at scattered indices keep fast elements. */
  private readonly nodes: (SyntaxNode | undefined)[];
  /** The language's field name → field id map (`fieldIdsOf`), looked up once per snapshot. */
  private fieldMap: Map<string, number> | undefined;

  /**
   * `text` is the parsed text, `capacity` the number of nodes (`descendantCount` of the root), `types`
   * and `fields` the language's node type names by type id and field names by field id.
   */
  constructor(
    readonly text: string,
    capacity: number,
    private readonly types: readonly string[],
    private readonly fields: readonly (string | null)[],
  ) {
    this.typeIds = new Uint16Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.parents = new Int32Array(capacity);
    this.fieldIds = new Uint16Array(capacity);
    this.firstChildren = new Int32Array(capacity).fill(NONE);
    this.nextSiblings = new Int32Array(capacity).fill(NONE);
    this.nodes = new Array<SyntaxNode | undefined>(capacity).fill(undefined);
  }

  /** The type of node `index` without making its node object. */
  typeOf(index: number): string {
    return this.types[this.typeIds[index]] || 'ERROR';
  }

  /** The end offset of node `index` without making its node object. */
  endOf(index: number): number {
    return this.ends[index];
  }

  /** Whether node `index` is a MISSING token, without making its node object. */
  isMissingAt(index: number): boolean {
    return (this.flags[index] & MISSING) !== 0;
  }

  /** Index of the parent of node `index`; -1 for the root. */
  parentOf(index: number): number {
    return this.parents[index];
  }

  /** The node object for pre-order index `index` (0 ≤ index < size), the same object on every call. */
  node(index: number): SyntaxNode {
    let node = this.nodes[index];
    if (!node) {
      const flags = this.flags[index];
      node = new SyntaxNode(this, index, this.typeOf(index), (flags & NAMED) !== 0, (flags & MISSING) !== 0, this.starts[index], this.ends[index]);
      this.nodes[index] = node;
    }
    return node;
  }

  /** @internal The node objects of node `index`'s children, in order. */
  childrenOf(index: number): SyntaxNode[] {
    const out: SyntaxNode[] = [];
    for (let c = this.firstChildren[index]; c !== NONE; c = this.nextSiblings[c]) out.push(this.node(c));
    return out;
  }

  /** @internal First child of node `index` in field `name` (-1: none), or all of them. */
  inField(index: number, name: string, all: number[] | undefined): number {
    const field = (this.fieldMap ??= fieldIdsOf(this.fields)).get(name);
    if (field === undefined) return NONE;
    for (let c = this.firstChildren[index]; c !== NONE; c = this.nextSiblings[c]) {
      if (this.fieldIds[c] !== field) continue;
      if (!all) return c;
      all.push(c);
    }
    return NONE;
  }

  /** @internal */
  fieldName(index: number): string | null {
    const field = this.fieldIds[index];
    return field > 0 ? (this.fields[field] ?? null) : null;
  }

  /** @internal Appends a node while the snapshot is built; returns its index. Throws past `capacity`. */
  add(typeId: number, flags: number, start: number, end: number, parent: number, field: number, previousSibling: number): number {
    const index = this.size++;
    if (index >= this.typeIds.length) throw new Error('syntax snapshot: more nodes than descendantCount');
    this.typeIds[index] = typeId;
    this.flags[index] = flags;
    this.starts[index] = start;
    this.ends[index] = end;
    this.parents[index] = parent;
    this.fieldIds[index] = field;
    if (previousSibling !== NONE) this.nextSiblings[previousSibling] = index;
    else if (parent !== NONE) this.firstChildren[parent] = index;
    return index;
  }
}

/**
 * One visible node of a `SyntaxTreeSnapshot`, with the read-only part of web-tree-sitter's `Node`
 * API the extractors use and the same answers (a test compares them node by node on every fixture).
 * `id` is the node's pre-order index, unique within its snapshot only. `startIndex`/`endIndex` are
 * UTF-16 offsets into the parsed text, as in `Node`. One difference: a field is only a child's own
 * (as the TreeCursor reports it), where `Node.childForFieldName` also finds a field of a child inside
 * an aliased hidden rule (Python `match_statement` → `alternative`, which no extractor reads).
 */
export class SyntaxNode {
  private kids: readonly SyntaxNode[] | undefined;
  private named: readonly SyntaxNode[] | undefined;

  constructor(
    private readonly snapshot: SyntaxTreeSnapshot,
    readonly id: number,
    readonly type: string,
    readonly isNamed: boolean,
    readonly isMissing: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
  ) {}

  /** The node's source text (a slice of the parsed text). */
  get text(): string {
    return this.snapshot.text.slice(this.startIndex, this.endIndex);
  }

  get parent(): SyntaxNode | null {
    const parent = this.snapshot.parentOf(this.id);
    return parent === NONE ? null : this.snapshot.node(parent);
  }

  /** The children in order (never mutate the array). */
  get children(): readonly SyntaxNode[] {
    this.kids ??= this.snapshot.childrenOf(this.id);
    return this.kids;
  }

  get childCount(): number {
    return this.children.length;
  }

  get namedChildren(): readonly SyntaxNode[] {
    const children = this.children;
    this.named ??= children.every((child) => child.isNamed) ? children : children.filter((child) => child.isNamed);
    return this.named;
  }

  get namedChildCount(): number {
    return this.namedChildren.length;
  }

  get firstChild(): SyntaxNode | null {
    return this.children[0] ?? null;
  }

  get lastChild(): SyntaxNode | null {
    const children = this.children;
    return children[children.length - 1] ?? null;
  }

  child(index: number): SyntaxNode | null {
    return this.children[index] ?? null;
  }

  namedChild(index: number): SyntaxNode | null {
    return this.namedChildren[index] ?? null;
  }

  /** The first child in field `name`, or null. */
  childForFieldName(name: string): SyntaxNode | null {
    const index = this.snapshot.inField(this.id, name, undefined);
    return index === NONE ? null : this.snapshot.node(index);
  }

  /** Every child in field `name`, in order. */
  childrenForFieldName(name: string): SyntaxNode[] {
    const all: number[] = [];
    this.snapshot.inField(this.id, name, all);
    return all.map((index) => this.snapshot.node(index));
  }

  /** The field name of child `index` (0-based, over all children), or null. */
  fieldNameForChild(index: number): string | null {
    const child = this.children[index];
    return child ? this.snapshot.fieldName(child.id) : null;
  }
}

const fieldIdMaps = new WeakMap<readonly (string | null)[], Map<string, number>>();

/** Field name → field id (≥ 1) of a language's `fields` list, built once per language. */
function fieldIdsOf(fields: readonly (string | null)[]): Map<string, number> {
  let map = fieldIdMaps.get(fields);
  if (!map) {
    map = new Map();
    fields.forEach((name, id) => {
      if (name && id > 0 && !map!.has(name)) map!.set(name, id);
    });
    fieldIdMaps.set(fields, map);
  }
  return map;
}

/** tree-sitter's type id of ERROR nodes (`ts_builtin_sym_error`). */
const ERROR_TYPE_ID = 65535;
/** Per language: named flag by type id (`NAMED` or 0; undefined until first seen). */
const namedTypes = new WeakMap<Language, number[]>();

/**
 * Copies every visible node of `tree` (parsed from `text`) into a snapshot in one TreeCursor walk;
 * the tree may be deleted afterwards. Cost: a few wasm calls per node (type, range, field; MISSING
 * only for zero-width nodes, the only ones that can be missing). Looks at the lint clock as it goes
 * (`spend(0)`; throws `BudgetExceeded`).
 */
export function snapshotOf(tree: Tree, text: string): SyntaxTreeSnapshot {
  const language = tree.language;
  let named = namedTypes.get(language);
  if (!named) namedTypes.set(language, (named = []));
  const snapshot = new SyntaxTreeSnapshot(text, tree.rootNode.descendantCount, language.types, language.fields);
  const cursor = tree.walk();
  try {
    const add = (parent: number, previousSibling: number): number => {
      const typeId = cursor.nodeTypeId;
      const start = cursor.startIndex;
      const end = cursor.endIndex;
      let flags = named[typeId];
      if (flags === undefined) flags = named[typeId] = typeId === ERROR_TYPE_ID || language.nodeTypeIsNamed(typeId) ? NAMED : 0;
      if (start === end && cursor.nodeIsMissing) flags |= MISSING;
      return snapshot.add(typeId, flags, start, end, parent, parent === NONE ? 0 : cursor.currentFieldId, previousSibling);
    };
    let current = add(NONE, NONE);
    for (;;) {
      spend(0);
      if (cursor.gotoFirstChild()) {
        current = add(current, NONE);
        continue;
      }
      for (;;) {
        const parent = snapshot.parentOf(current);
        if (parent === NONE) return snapshot;
        if (cursor.gotoNextSibling()) {
          current = add(parent, current);
          break;
        }
        cursor.gotoParent();
        current = parent;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** The core range of a syntax node. */
export function nodeRange(node: SyntaxNode): Range {
  return { start: node.startIndex, end: node.endIndex };
}
