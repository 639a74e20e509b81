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

/** What all nodes of one snapshot share: the parsed text and the language's field names by id. */
interface SnapshotSource {
  text: string;
  fields: readonly (string | null)[];
}

/**
 * A plain-JS copy of one visible node of a tree-sitter tree, with the read-only part of
 * web-tree-sitter's `Node` API the extractors use and the same answers. Reading it never calls into
 * wasm: each web-tree-sitter `Node` property read marshals the node into wasm memory and back (tens
 * of thousands of calls per file), which was most of the extraction time (issue 16).
 * `id` is the node's pre-order index in its snapshot (0 for the root), unique within one snapshot only.
 * `startIndex`/`endIndex` are UTF-16 offsets into the parsed text, as in `Node`.
 */
export class SyntaxNode {
  readonly children: SyntaxNode[] = [];
  /** Field id of each child (0: none); undefined while no child has a field. */
  private fieldIds: number[] | undefined;
  private named: SyntaxNode[] | undefined;

  constructor(
    private readonly source: SnapshotSource,
    readonly id: number,
    readonly type: string,
    readonly isNamed: boolean,
    readonly isMissing: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly parent: SyntaxNode | null,
  ) {}

  /** The node's source text (a slice of the parsed text). */
  get text(): string {
    return this.source.text.slice(this.startIndex, this.endIndex);
  }

  get childCount(): number {
    return this.children.length;
  }

  get namedChildren(): SyntaxNode[] {
    this.named ??= this.children.filter((child) => child.isNamed);
    return this.named;
  }

  get namedChildCount(): number {
    return this.namedChildren.length;
  }

  get firstChild(): SyntaxNode | null {
    return this.children[0] ?? null;
  }

  get lastChild(): SyntaxNode | null {
    return this.children[this.children.length - 1] ?? null;
  }

  child(index: number): SyntaxNode | null {
    return this.children[index] ?? null;
  }

  namedChild(index: number): SyntaxNode | null {
    return this.namedChildren[index] ?? null;
  }

  /** The first child in field `name`, or null. */
  childForFieldName(name: string): SyntaxNode | null {
    const ids = this.fieldIds;
    if (!ids) return null;
    const field = this.source.fields.indexOf(name);
    if (field <= 0) return null;
    for (let i = 0; i < ids.length; i++) if (ids[i] === field) return this.children[i];
    return null;
  }

  /** Every child in field `name`, in order. */
  childrenForFieldName(name: string): SyntaxNode[] {
    const ids = this.fieldIds;
    const field = this.source.fields.indexOf(name);
    if (!ids || field <= 0) return [];
    return this.children.filter((_, i) => ids[i] === field);
  }

  /** The field name of child `index` (0-based, over all children), or null. */
  fieldNameForChild(index: number): string | null {
    const field = this.fieldIds?.[index] ?? 0;
    return field > 0 ? (this.source.fields[field] ?? null) : null;
  }

  /** @internal Appends a child while the snapshot is built. */
  addChild(child: SyntaxNode, field: number): void {
    if (field > 0) {
      this.fieldIds ??= new Array<number>(this.children.length).fill(0);
      this.fieldIds[this.children.length] = field;
    } else if (this.fieldIds) {
      this.fieldIds[this.children.length] = 0;
    }
    this.children.push(child);
  }
}

/** tree-sitter's type id of ERROR nodes (`ts_builtin_sym_error`). */
const ERROR_TYPE_ID = 65535;
const namedTypes = new WeakMap<Language, Map<number, boolean>>();

/**
 * Copies every visible node of `tree` (parsed from `text`) into a `SyntaxNode` snapshot in one
 * TreeCursor walk and returns its root; the tree may be deleted afterwards. Cost: a few wasm calls
 * per node (type, range, field; MISSING only for zero-width nodes, the only ones that can be missing).
 * Looks at the lint clock as it goes (`spend(0)`; throws `BudgetExceeded`).
 */
export function snapshotOf(tree: Tree, text: string): SyntaxNode {
  const language = tree.language;
  let named = namedTypes.get(language);
  if (!named) namedTypes.set(language, (named = new Map()));
  const source: SnapshotSource = { text, fields: language.fields };
  const types = language.types;
  const cursor = tree.walk();
  try {
    let next = 0;
    const make = (parent: SyntaxNode | null): SyntaxNode => {
      const typeId = cursor.nodeTypeId;
      const start = cursor.startIndex;
      const end = cursor.endIndex;
      let isNamed = named.get(typeId);
      if (isNamed === undefined) named.set(typeId, (isNamed = typeId === ERROR_TYPE_ID || language.nodeTypeIsNamed(typeId)));
      const node = new SyntaxNode(source, next++, types[typeId] || 'ERROR', isNamed, start === end && cursor.nodeIsMissing, start, end, parent);
      if (parent) parent.addChild(node, cursor.currentFieldId);
      return node;
    };
    const root = make(null);
    let current = root;
    for (;;) {
      spend(0);
      if (cursor.gotoFirstChild()) {
        current = make(current);
        continue;
      }
      for (;;) {
        const parent = current.parent;
        if (!parent) return root;
        if (cursor.gotoNextSibling()) {
          current = make(parent);
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
