import type { LintConfig } from '../core/config/config';
import type { Grammars } from '../core/formats/treesitter';
import { EnvIndex } from '../core/workspace/env-index';
import { indexDocument, isIndexCandidate } from '../core/workspace/index-document';
import { readForLint } from './read';
import type { WalkedFile } from './walk';

/**
 * Indexes walked files into `index` (a new one by default): each file is read (skipped when over
 * its `maxFileBytes`, binary or unreadable), kept when `isIndexCandidate`, and its env definitions
 * and reads set under its `relPath`. Files no longer indexable are dropped. Returns the index.
 */
export function indexFiles(files: readonly WalkedFile[], grammars: Grammars, configFor: (absPath: string) => LintConfig, index = new EnvIndex()): EnvIndex {
  for (const file of files) indexFile(index, file, grammars, configFor(file.absPath));
  return index;
}

/** (Re-)indexes one file from disk; drops it from the index when it is gone or not indexable. */
export function indexFile(index: EnvIndex, file: WalkedFile, grammars: Grammars, config: LintConfig): void {
  const read = readForLint(file.absPath, config.maxFileBytes);
  if (read.kind !== 'text' || !isIndexCandidate(file.relPath, read.text, config)) {
    index.delete(file.relPath);
    return;
  }
  index.set(indexDocument({ path: file.relPath, text: read.text }, grammars, config));
}
