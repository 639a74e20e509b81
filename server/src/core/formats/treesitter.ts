import type { Language, Node as SyntaxNode } from 'web-tree-sitter';
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

/** The core range of a syntax node. */
export function nodeRange(node: SyntaxNode): Range {
  return { start: node.startIndex, end: node.endIndex };
}

export type { SyntaxNode };
