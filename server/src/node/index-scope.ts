import type { LintConfig } from '../core/config/config';
import type { Grammars } from '../core/formats/treesitter';
import { formatOf } from '../core/files';
import { EnvIndex } from '../core/workspace/env-index';
import { indexAndExtract, isIndexCandidate } from '../core/workspace/index-document';
import { IndexScope } from '../core/workspace/index-scope';
import { isExcludedByName } from '../core/files';
import { indexRead, readIndexable, type IndexedFile } from './env-index';
import { decodeForLint, readBounded } from './read';
import type { WalkedFile } from './walk';
import type { PreRead } from './lint-file';

/** What `indexForLint` did: files whose text it read (the cheap pass included) and files it extracted into the index. */
export interface IndexForLintStats {
  read: number;
  indexed: number;
}

/** `indexForLint`'s optional parts (see there). */
export interface IndexForLintHooks {
  tick?: (file: WalkedFile) => void;
  indexWhole?: (index: EnvIndex, file: WalkedFile, config: LintConfig, keep: Map<string, IndexedFile> | undefined) => void;
  reads?: Map<string, PreRead>;
}

/**
 * The env index a lint of the `named` files needs, over the project's walked `files` (both with
 * workspace-relative `relPath`s; a named file the project walk left out, such as a git-ignored script
 * named on the command line, is not indexed, as before, but what its lint asks is still answered). With
 * `named` undefined or covering every file, each file is indexed, as `indexFiles` does. Otherwise the
 * named files are indexed first, then every other file is read once and extracted only when
 * `IndexScope.needs` it (it spells a variable the named files define or read, launches a server, or
 * links an `env_file:`): the named files' findings equal those under the whole project's index, at the
 * cost of a read and a byte search per other file (`IndexScope.mayNeed`; only files it admits are
 * decoded and tested with `needs`). Extractions of the named files go to
 * `keep` for their lint (`LintOptions.reuse`); `tick` is called once per file considered. `indexWhole`,
 * when given, indexes one file instead of `indexRead` (the persistent cache, `indexFileCached`: every
 * file of a whole index, and each file the scope needs; it reads the file itself). With `reads`
 * (whole-project indexing without `indexWhole` only), each file's read is noted for its lint
 * (`LintFileOptions.preRead`): a file is read once per run. Returns the
 * index, counts, and the scope it used (none for a whole index).
 */
export function indexForLint(
  files: readonly WalkedFile[],
  named: readonly WalkedFile[] | undefined,
  grammars: Grammars,
  configFor: (file: WalkedFile) => LintConfig,
  keep: Map<string, IndexedFile>,
  { tick, indexWhole, reads }: IndexForLintHooks = {},
): { index: EnvIndex; stats: IndexForLintStats; scope?: IndexScope } {
  const index = new EnvIndex();
  const stats: IndexForLintStats = { read: 0, indexed: 0 };
  const namedPaths = new Set((named ?? []).map((f) => f.relPath));
  if (named === undefined || files.every((f) => namedPaths.has(f.relPath))) {
    for (const file of files) {
      tick?.(file);
      const config = configFor(file);
      // the persistent cache (node/lint-cache-run.ts) indexes a whole tree from its entries where the bytes are unchanged
      if (indexWhole) indexWhole(index, file, config, keep);
      else {
        const read = readIndexable(file, config);
        indexRead(index, file, read, grammars, config, keep, 'lint');
        // A text that is no index candidate (`indexRead` left it out of the index): its lint needs to know only that.
        // A candidate's text goes on only while `keep` holds it too (the same string); one over keep's budget is read again by its lint.
        if (read?.kind !== 'text') {
          if (read) reads?.set(file.relPath, read);
        } else if (!index.has(file.relPath)) reads?.set(file.relPath, { kind: 'notIndexed' });
        else if (keep.has(file.relPath)) reads?.set(file.relPath, read);
      }
    }
    stats.read = files.length;
    stats.indexed = index.size;
    return { index, stats };
  }
  const walked = new Set(files.map((f) => f.relPath));
  const scope = new IndexScope();
  const probes = new Map<string, Buffer>();
  const probe = (s: string) => {
    let bytes = probes.get(s);
    if (!bytes) probes.set(s, (bytes = Buffer.from(s, 'utf8')));
    return bytes;
  };
  for (const file of named) {
    tick?.(file);
    const config = configFor(file);
    const read = readIndexable(file, config);
    stats.read++;
    if (walked.has(file.relPath)) indexRead(index, file, read, grammars, config, keep, 'lint');
    const env = walked.has(file.relPath) ? index.fileEnv(file.relPath) : undefined;
    if (env) {
      stats.indexed++;
      scope.addDocument(env, keep.get(file.relPath)?.extraction);
    } else if (read?.kind === 'text' && formatOf(file.relPath)) {
      // Not in the index (not a candidate, or outside the project walk) but linted all the same: its own reads ask the index too.
      const own = indexAndExtract({ path: file.relPath, text: read.text }, grammars, config);
      scope.addDocument(own.env, own.extraction);
    }
  }
  for (const file of files) {
    if (namedPaths.has(file.relPath)) continue;
    tick?.(file);
    const config = configFor(file);
    if (!formatOf(file.relPath) || isExcludedByName(file.relPath, config)) continue;
    // as `readIndexable`, but the bytes are searched before they are decoded (UTF-8 keeps every ASCII byte and each name's bytes as they are)
    const bytes = readBounded(file.absPath, config.maxFileBytes);
    stats.read++;
    if (bytes.kind !== 'bytes' || !scope.mayNeed(file.relPath, (s) => bytes.bytes.indexOf(probe(s)) >= 0)) continue;
    const read = decodeForLint(bytes.bytes);
    if (read.kind !== 'text' || !scope.needs(file.relPath, read.text)) continue;
    // through the persistent cache when there is one: facts kept for the same bytes are not parsed again, new ones are kept
    if (indexWhole) indexWhole(index, file, config, undefined);
    else if (isIndexCandidate(file.relPath, read.text, config, 'lint')) indexRead(index, file, read, grammars, config, undefined, 'lint');
    if (index.has(file.relPath)) stats.indexed++;
  }
  return { index, stats, scope };
}
