import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { runCli } from './helpers';
import { mergeConfig } from '../../../server/src/core/config/config';
import type { FileEnv } from '../../../server/src/core/workspace/env-facts';
import { NodeWorkspaceFacts } from '../../../server/src/node/facts';
import { loadGrammars } from '../../../server/src/node/grammars';
import { indexForLint } from '../../../server/src/node/index-scope';
import { walk } from '../../../server/src/node/walk';

/**
 * Issue 27: a named-file run indexes the files its scope needs through the persistent cache
 * (`indexFileCached`: facts kept for the same bytes by an earlier run, whole-tree or named, are not
 * parsed again) and prints exactly what `--no-cache` prints.
 */
const WORKSPACES = join(__dirname, '..', '..', 'workspaces');

/** Every file below `root` but the cache folder, workspace-relative. */
function filesOf(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === '.rollout-lint-cache') return [];
    const p = join(dir, e.name);
    return e.isDirectory() ? filesOf(root, p) : [relative(root, p)];
  });
}

describe('named files with a warm cache print what --no-cache prints', function () {
  this.timeout(10 * 60 * 1000);
  let home: string;
  before(() => {
    home = mkdtempSync(join(tmpdir(), 'rl-named-cache-home-'));
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('every file of every workspace (test/workspaces), named alone: cold, again, and after a whole-tree run', async () => {
    let checked = 0;
    for (const name of readdirSync(WORKSPACES).sort()) {
      const copy = mkdtempSync(join(tmpdir(), 'rl-named-cache-'));
      try {
        const root = join(copy, 'ws');
        cpSync(join(WORKSPACES, name), root, { recursive: true });
        // a config file makes the folder a project: named files are linted against its index
        if (!existsSync(join(root, '.rolloutlintrc.json'))) writeFileSync(join(root, '.rolloutlintrc.json'), '{}\n');
        const run = async (args: string[]) => {
          const r = await runCli(root, [...args, '--format', 'json', '--include-hints'], { env: { HOME: home } });
          return `${r.code}\n${r.out}\n${r.err}`;
        };
        // a named run before any whole-tree run keeps the facts it extracted: the second prints the same
        const first = filesOf(root).sort()[0];
        assert.equal(await run([first]), await run([first, '--no-cache']), `${name}: ${first}, cold`);
        assert.equal(await run([first]), await run([first, '--no-cache']), `${name}: ${first}, after a named run`);
        // a whole-tree run over facts the named runs kept prints what --no-cache prints
        assert.equal(await run(['.']), await run(['.', '--no-cache']), `${name}: whole tree after named runs`);
        assert.ok(readdirSync(join(root, '.rollout-lint-cache')).some((n) => n.endsWith('.store')), `${name}: the whole-tree run kept no store`);
        for (const file of filesOf(root)) {
          assert.equal(await run([file]), await run([file, '--no-cache']), `${name}: ${file}`);
          checked++;
        }
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    }
    assert.ok(checked > 20, `${checked} files`);
  });

  it('indexForLint indexes each file its scope needs through the cache (indexWhole) and no other', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'rl-named-cache-'));
    try {
      writeFileSync(join(copy, '.env'), 'OPENAI_BASE_URL=https://taotoken.net/api/v1\n');
      writeFileSync(join(copy, 'a.py'), 'import os\nbase = os.getenv("OPENAI_BASE_URL")\n');
      writeFileSync(join(copy, 'b.py'), 'import os\nbase = os.getenv("OPENAI_BASE_URL")\n');
      const files = walk(['.'], copy, new NodeWorkspaceFacts(copy), { noIgnore: false, config: mergeConfig() }).files;
      const grammars = await loadGrammars();
      const planted: FileEnv = { path: 'a.py', definitions: [], reads: [] };
      const asked: string[] = [];
      const { index } = indexForLint(files, files.filter((f) => f.relPath === '.env'), grammars, () => mergeConfig(), new Map(), {
        indexWhole: (idx, file) => {
          asked.push(file.relPath);
          if (file.relPath === 'a.py') idx.set(planted);
        },
      });
      assert.deepEqual(asked.sort(), ['a.py', 'b.py'], 'only the files the scope needs go through the cache');
      assert.equal(index.fileEnv('a.py'), planted);
      assert.equal(index.has('b.py'), false);
      assert.ok(index.has('.env'));
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
