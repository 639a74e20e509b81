import type { Language, Node as SyntaxNode } from 'web-tree-sitter';
import { Parser } from 'web-tree-sitter';
import type { Range } from '../model/types';

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
 * Parses `text` with `language`, reusing one parser per language.
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
  const tree = parser.parse(text);
  if (!tree) throw new Error('tree-sitter returned no tree');
  return tree;
}

/** The core range of a syntax node. */
export function nodeRange(node: SyntaxNode): Range {
  return { start: node.startIndex, end: node.endIndex };
}

export type { SyntaxNode };
