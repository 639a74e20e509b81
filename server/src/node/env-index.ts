import type { LintConfig } from '../core/config/config';
import type { Grammars } from '../core/formats/treesitter';
import { EnvIndex } from '../core/workspace/env-index';
import type { FileEnv } from '../core/workspace/env-facts';
import type { Extraction } from '../core/model/types';
import { indexAndExtract, isIndexCandidate } from '../core/workspace/index-document';
import { readForLint } from './read';
import { isExcludedByName } from '../core/files';
import type { WalkedFile } from './walk';
import type { OffloadedLinter } from './lint-offload';

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

/** Below this many files the second thread costs more (its start: ~0.2 s) than it saves. */
export const PARALLEL_INDEX_MIN_FILES = 400;

/**
 * `indexFiles` on two threads (issue 16 item 3): this thread and `offload`'s worker claim files
 * from one shared counter, then every result is put into the index in file order, so the index is
 * the same as the sequential one. Sequential for fewer than `PARALLEL_INDEX_MIN_FILES` files or
 * without `offload`; when the worker fails, this thread indexes what it had claimed. `counts.worker`
 * is set to the number of files the worker indexed.
 */
export async function indexFilesParallel(files: readonly WalkedFile[], grammars: Grammars, configFor: (absPath: string) => LintConfig, offload: OffloadedLinter | undefined, keep?: Map<string, { text: string; extraction: Extraction }>, counts?: { worker: number }): Promise<EnvIndex> {
  const index = new EnvIndex();
  if (!offload || files.length < PARALLEL_INDEX_MIN_FILES) return indexFiles(files, grammars, configFor, index, keep);
  const claim = new SharedArrayBuffer(4);
  const counter = new Int32Array(claim);
  const found: (IndexedFile | undefined)[] = new Array(files.length);
  const theirs = offload.index(files, configFor, claim).catch(() => [] as { at: number; found: IndexedFile }[]);
  // One turn of the event loop lets the job reach the worker (it is posted from a promise callback);
  // then this thread claims files at once while the worker starts.
  await new Promise((resolve) => setImmediate(resolve));
  for (let at = Atomics.add(counter, 0, 1); at < files.length; at = Atomics.add(counter, 0, 1)) found[at] = indexOne(files[at], grammars, configFor(files[at].absPath), 'lint');
  const indexed = await theirs;
  if (counts) counts.worker = indexed.length;
  for (const { at, found: f } of indexed) found[at] = f;
  for (let at = 0; at < files.length; at++) applyIndexed(index, found[at] ?? indexOne(files[at], grammars, configFor(files[at].absPath), 'lint'), keep);
  return index;
}
