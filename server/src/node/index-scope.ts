import type { LintConfig } from '../core/config/config';
import type { Grammars } from '../core/formats/treesitter';
import { formatOf } from '../core/files';
import { EnvIndex } from '../core/workspace/env-index';
import { indexAndExtract, isIndexCandidate } from '../core/workspace/index-document';
import { IndexScope } from '../core/workspace/index-scope';
import { indexRead, readIndexable, type IndexedFile } from './env-index';
import type { WalkedFile } from './walk';
import type { PreRead } from './lint-file';

/** What `indexForLint` did: files whose text it read (the cheap pass included) and files it extracted into the index. */
export interface IndexForLintStats {
  read: number;
  indexed: number;
}

/**
 * The env index a lint of the `named` files needs, over the project's walked `files` (both with
 * workspace-relative `relPath`s; a named file the project walk left out, such as a git-ignored script
 * named on the command line, is not indexed, as before, but what its lint asks is still answered). With
 * `named` undefined or covering every file, each file is indexed, as `indexFiles` does. Otherwise the
 * named files are indexed first, then every other file is read once and extracted only when
 * `IndexScope.needs` it (it spells a variable the named files define or read, launches a server, or
 * links an `env_file:`): the named files' findings equal those under the whole project's index, at the
 * cost of a read and a regular-expression test per other file. Extractions of the named files go to
 * `keep` for their lint (`LintOptions.reuse`); `tick` is called once per file considered. With `reads`
 * (whole-project indexing without `indexWhole` only), each file's read is noted for its lint
 * (`LintFileOptions.preRead`): a file is read once per run; the text noted is the one `keep` holds.
 */
export function indexForLint(
  files: readonly WalkedFile[],
  named: readonly WalkedFile[] | undefined,
  grammars: Grammars,
  configFor: (file: WalkedFile) => LintConfig,
  keep: Map<string, IndexedFile>,
  tick?: (file: WalkedFile) => void,
  indexWhole?: (index: EnvIndex, file: WalkedFile, config: LintConfig, keep: Map<string, IndexedFile>) => void,
  reads?: Map<string, PreRead>,
): { index: EnvIndex; stats: IndexForLintStats } {
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
    const read = readIndexable(file, config);
    if (read === undefined) continue;
    stats.read++;
    if (read.kind !== 'text' || !scope.needs(file.relPath, read.text) || !isIndexCandidate(file.relPath, read.text, config, 'lint')) continue;
    indexRead(index, file, read, grammars, config, undefined, 'lint');
    stats.indexed++;
  }
  return { index, stats };
}
