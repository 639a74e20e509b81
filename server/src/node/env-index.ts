import type { LintConfig } from '../core/config/config';
import type { Grammars } from '../core/formats/treesitter';
import { EnvIndex } from '../core/workspace/env-index';
import type { FileEnv } from '../core/workspace/env-facts';
import type { Extraction } from '../core/model/types';
import { indexAndExtract, isIndexCandidate } from '../core/workspace/index-document';
import { readForLint } from './read';
import { isExcludedByName } from '../core/files';
import type { WalkedFile } from './walk';

/**
 * Indexes walked files for a lint run into `index` (a new one by default): each file is read (skipped when over
 * its `maxFileBytes`, binary or unreadable), kept when `isIndexCandidate`, and its env definitions
 * and reads set under its `relPath`. Files no longer indexable are dropped. Returns the index.
 */
export function indexFiles(files: readonly WalkedFile[], grammars: Grammars, configFor: (absPath: string) => LintConfig, index = new EnvIndex(), keep?: Map<string, { text: string; extraction: Extraction }>): EnvIndex {
  for (const file of files) indexFile(index, file, grammars, configFor(file.absPath), keep, 'lint');
  return index;
}

/**
 * (Re-)indexes one file from disk (`purpose`: see `isIndexCandidate`); drops it from the index when it is gone or not indexable. With
 * `keep`, the extraction is kept under the file's `relPath` for the lint that follows (`LintOptions.reuse`).
 */
export function indexFile(index: EnvIndex, file: WalkedFile, grammars: Grammars, config: LintConfig, keep?: Map<string, { text: string; extraction: Extraction }>, purpose: 'lint' | 'navigation' = 'navigation'): void {
  applyIndexed(index, indexOne(file, grammars, config, purpose), keep);
}

/** What indexing one file found: its env facts and the extraction made (absent: not indexable, to be dropped). */
export interface IndexedFile {
  relPath: string;
  env?: FileEnv;
  text?: string;
  extraction?: Extraction;
}

/** Reads and indexes one file (`purpose`: see `isIndexCandidate`) without touching an index; plain data, so a worker thread can do it. */
export function indexOne(file: WalkedFile, grammars: Grammars, config: LintConfig, purpose: 'lint' | 'navigation'): IndexedFile {
  // Build output, bundles and node_modules (JS/TS): never read.
  if (isExcludedByName(file.relPath, config)) return { relPath: file.relPath };
  const read = readForLint(file.absPath, config.maxFileBytes);
  if (read.kind !== 'text' || !isIndexCandidate(file.relPath, read.text, config, purpose)) return { relPath: file.relPath };
  return { relPath: file.relPath, ...indexAndExtract({ path: file.relPath, text: read.text }, grammars, config) };
}

/** Puts what `indexOne` found into `index` (and the extraction into `keep`). */
export function applyIndexed(index: EnvIndex, found: IndexedFile, keep?: Map<string, { text: string; extraction: Extraction }>): void {
  if (!found.env) {
    index.delete(found.relPath);
    return;
  }
  index.set(found.env);
  if (keep && found.text !== undefined && found.extraction) keep.set(found.relPath, { text: found.text, extraction: found.extraction });
}
