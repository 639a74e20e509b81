import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { treeFiles, writeCheckout } from '../../../bench/generate';
import { DEFAULT_CONFIG } from '../../../server/src/core/config/config';
import type { Extraction } from '../../../server/src/core/model/types';
import { loadGrammars } from '../../../server/src/node/grammars';
import { indexFiles, indexFilesParallel, PARALLEL_INDEX_MIN_FILES } from '../../../server/src/node/env-index';
import { OffloadedLinter } from '../../../server/src/node/lint-offload';
import type { EnvIndex } from '../../../server/src/core/workspace/env-index';

/** Everything an index answers, for comparison. */
function stateOf(index: EnvIndex): unknown {
  return { paths: index.paths(), files: index.paths().map((p) => index.fileEnv(p)), names: index.allNames().map((n) => [n, index.definitionsOf(n), index.readsOf(n)]), signatures: index.paths().map((p) => index.dependencySignature(p)) };
}

describe('indexFilesParallel: the env index built on two threads (issue 16 item 3)', function () {
  this.timeout(180_000);
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'rollout-lint-index-parallel-'));
    writeCheckout(root, treeFiles(1000));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('gives the same index and the same kept extractions as the sequential build', async () => {
    const grammars = await loadGrammars();
    const files = treeFiles(1000).map((f) => ({ absPath: join(root, f.path), relPath: f.path }));
    assert.ok(files.length >= PARALLEL_INDEX_MIN_FILES);
    const keepOne = new Map<string, { text: string; extraction: Extraction }>();
    const sequential = indexFiles(files, grammars, () => DEFAULT_CONFIG, undefined, keepOne);
    const offload = new OffloadedLinter();
    const keepTwo = new Map<string, { text: string; extraction: Extraction }>();
    try {
      // Started and warm first: from TypeScript sources (tsx) a cold worker needs seconds, more than this thread needs for the tree.
      await offload.lint({ path: '.env', text: 'OPENAI_BASE_URL=https://api.openai.com/v1\n' }, { grammars });
      const counts = { worker: 0 };
      const parallel = await indexFilesParallel(files, grammars, () => DEFAULT_CONFIG, offload, keepTwo, counts);
      assert.ok(counts.worker > 0 && counts.worker < files.length, `both threads indexed (worker: ${counts.worker} of ${files.length})`);
      assert.ok(sequential.size > 50, `a real index (${sequential.size} files)`);
      assert.deepEqual(stateOf(parallel), stateOf(sequential));
      assert.deepEqual([...keepTwo.keys()], [...keepOne.keys()]);
      assert.deepEqual([...keepTwo.values()], [...keepOne.values()]);
    } finally {
      offload.dispose();
    }
  });

  it('still builds the whole index when the worker cannot run (disposed)', async () => {
    const grammars = await loadGrammars();
    const files = treeFiles(1000).map((f) => ({ absPath: join(root, f.path), relPath: f.path }));
    const offload = new OffloadedLinter();
    offload.dispose();
    const parallel = await indexFilesParallel(files, grammars, () => DEFAULT_CONFIG, offload);
    assert.deepEqual(stateOf(parallel), stateOf(indexFiles(files, grammars, () => DEFAULT_CONFIG)));
  });
});
