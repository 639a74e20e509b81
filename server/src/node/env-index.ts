import type { LintConfig } from '../core/config/config';
import type { Grammars } from '../core/formats/treesitter';
import { EnvIndex } from '../core/workspace/env-index';
import type { Extraction } from '../core/model/types';
import { indexAndExtract, isIndexCandidate } from '../core/workspace/index-document';
import { readForLint, type ReadResult } from './read';
import { isExcludedByName } from '../core/files';
import type { WalkedFile } from './walk';
import type { BudgetSpent, LintBudget } from '../core/budget';

/** What the index pass keeps of a file for its lint: the BOM-less text, its extraction (none when over budget) and the budget it spent. */
export interface IndexedFile {
  text: string;
  extraction?: Extraction;
  spent?: BudgetSpent;
}

/**
 * Indexes walked files for a lint run into `index` (a new one by default): each file is read (skipped when over
 * its `maxFileBytes`, binary or unreadable), kept when `isIndexCandidate`, and its env definitions
 * and reads set under its `relPath`. Files no longer indexable are dropped. Returns the index.
 */
export function indexFiles(files: readonly WalkedFile[], grammars: Grammars, configFor: (absPath: string) => LintConfig, index = new EnvIndex(), keep?: Map<string, IndexedFile>): EnvIndex {
  for (const file of files) indexFile(index, file, grammars, configFor(file.absPath), keep, 'lint');
  return index;
}

/**
 * (Re-)indexes one file from disk (`purpose`: see `isIndexCandidate`); drops it from the index when it is gone or not indexable. With
 * `keep`, the extraction is kept under the file's `relPath` for the lint that follows (`LintOptions.reuse`).
 * `budget` defaults to `DEFAULT_BUDGET`.
 */
export function indexFile(index: EnvIndex, file: WalkedFile, grammars: Grammars, config: LintConfig, keep?: Map<string, IndexedFile>, purpose: 'lint' | 'navigation' = 'navigation', budget?: LintBudget): void {
  indexRead(index, file, readIndexable(file, config), grammars, config, keep, purpose, budget);
}

/** The file read as `indexFile` reads it: `undefined` when its name rules it out (build output, bundles, `node_modules`, JSON that is not config). */
export function readIndexable(file: WalkedFile, config: LintConfig): ReadResult | undefined {
  return isExcludedByName(file.relPath, config) ? undefined : readForLint(file.absPath, config.maxFileBytes);
}

/** `indexFile` with the file already read (`readIndexable`), so a caller that looked at the text first reads it once. */
export function indexRead(index: EnvIndex, file: WalkedFile, read: ReadResult | undefined, grammars: Grammars, config: LintConfig, keep?: Map<string, IndexedFile>, purpose: 'lint' | 'navigation' = 'navigation', budget?: LintBudget): void {
  if (read?.kind !== 'text' || !isIndexCandidate(file.relPath, read.text, config, purpose)) {
    index.delete(file.relPath);
    return;
  }
  const { env, text, extraction, spent } = indexAndExtract({ path: file.relPath, text: read.text }, grammars, config, budget);
  index.set(env);
  if (keep && text !== undefined) keep.set(file.relPath, { text, extraction, spent });
}
