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
 * The extractions an index pass keeps for the lint that follows it (`LintOptions.reuse`), up to a
 * memory budget: a whole-tree run indexes every candidate before it lints the first, so an unbounded
 * map held every candidate's text and extraction at once (issue 27: about 150 MB of heap at 10,000
 * generated files; 1.2 GB of RSS at 50,000). Over the budget a file is simply not kept and its lint
 * parses it again: the result is the same, only slower (at 50,000 generated files 0.5 GB of RSS for
 * about 1.5× the processor time; trees the size of OpenClaw-RL never reach the budget). Letting go of
 * the entries that save the least parse time per byte, instead of refusing new ones, measured no better there. `limitBytes` is an estimate of retained heap (bytes):
 * the text (2 bytes per UTF-16 unit) plus measured average costs of 500 bytes per setting and
 * 1,000 per request site (a `Setting` carries four ranges, its key, path, raw text and value).
 */
export class KeptExtractions extends Map<string, IndexedFile> {
  private bytes = 0;
  private readonly sizes = new Map<string, number>();

  constructor(private readonly limitBytes: number) {
    super();
  }

  /** Keeps `file` unless that would pass the budget (then the map is unchanged). */
  override set(path: string, file: IndexedFile): this {
    this.delete(path);
    const size = keptBytes(file);
    if (this.bytes + size > this.limitBytes) return this;
    this.bytes += size;
    this.sizes.set(path, size);
    return super.set(path, file);
  }

  override delete(path: string): boolean {
    this.bytes -= this.sizes.get(path) ?? 0;
    this.sizes.delete(path);
    return super.delete(path);
  }
}

/** The budget of `KeptExtractions` in a CLI run: about 64 MB (OpenClaw-RL keeps about 25 MB by this estimate, so it is never reached there). */
export const KEPT_EXTRACTIONS_BYTES = 64 * 1024 * 1024;

/** `KeptExtractions`'s estimate of the heap one kept file holds (bytes). */
function keptBytes(file: IndexedFile): number {
  const x = file.extraction;
  return file.text.length * 2 + (x ? x.settings.length * 500 + x.requestSites.length * 1000 : 0);
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
