import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workspace } from './helpers';

const CLI = join(__dirname, '..', '..', '..', 'server', 'dist', 'cli.js');

/** Runs the built launcher with `ROLLOUT_LINT_CACHE_DIR=cache` (plus `env`). */
function run(cwd: string, cache: string, args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  assert.ok(existsSync(CLI), `${CLI} is missing: run "npm run build" first`);
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ROLLOUT_LINT_CACHE_DIR: cache, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the CLI launcher (server/dist/cli.js): the bundle through a V8 code cache', function () {
  this.timeout(120_000);
  let cache: string;
  beforeEach(() => {
    cache = mkdtempSync(join(tmpdir(), 'rl-code-cache-'));
  });
  afterEach(() => rmSync(cache, { recursive: true, force: true }));

  const caches = () => (existsSync(join(cache, 'code-cache')) ? readdirSync(join(cache, 'code-cache')).sort() : []);

  it('writes one owner-only cache per kind of run and gives the same output with it', () => {
    const ws = workspace({ '.env': 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\n' });
    try {
      const first = run(ws.root, cache, ['--version']);
      assert.equal(first.status, 0);
      assert.match(first.stdout, /^\d+\.\d+\.\d+\n$/);
      assert.equal(caches().length, 1);
      const file = join(cache, 'code-cache', caches()[0]);
      assert.match(caches()[0], /^version-[0-9a-f]{8}-[0-9a-f]{32}\.bin$/);
      assert.equal(statSync(file).mode & 0o077, 0);
      assert.deepEqual(run(ws.root, cache, ['--version']), first);
      const lint = run(ws.root, cache, ['.', '--format', 'json', '--no-cache']);
      assert.equal(lint.status, 1);
      assert.match(lint.stdout, /base-url-duplicate-v1/);
      assert.equal(caches().length, 2);
      const lintCache = join(cache, 'code-cache', caches().find((n) => n.startsWith('lint-'))!);
      const written = statSync(lintCache, { bigint: true });
      assert.deepEqual(run(ws.root, cache, ['.', '--format', 'json', '--no-cache']), lint);
      // V8 accepted the cache (a rejected one is written again when the process exits): nothing the run
      // does, such as a V8 flag set after the bundle was compiled, may change what the cache was made under.
      const after = statSync(lintCache, { bigint: true });
      assert.deepEqual([after.ino, after.mtimeNs], [written.ino, written.mtimeNs], "the lint profile's code cache was rejected and rewritten");
      assert.deepEqual(run(ws.root, cache, ['.', '--format', 'json', '--no-cache'], { ROLLOUT_LINT_NO_CODE_CACHE: '1' }), lint);
    } finally {
      ws.cleanup();
    }
  });

  it('a garbage or writable-by-others cache is not used, and the run is the same', () => {
    const ws = workspace({ '.env': 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\n' });
    try {
      const plain = run(ws.root, cache, ['.', '--format', 'json', '--no-cache'], { ROLLOUT_LINT_NO_CODE_CACHE: '1' });
      assert.deepEqual(caches(), []);
      run(ws.root, cache, ['.', '--format', 'json', '--no-cache']);
      const [name] = caches();
      const file = join(cache, 'code-cache', name);
      // Garbage in the user's own file: V8 rejects it, the run compiles and rewrites it.
      writeFileSync(file, Buffer.alloc(4096, 0x5a));
      assert.deepEqual(run(ws.root, cache, ['.', '--format', 'json', '--no-cache']), plain);
      assert.notEqual(statSync(file).size, 4096);
      // A cache others may write is never read (and not rewritten in place: the run works without it).
      chmodSync(file, 0o666);
      writeFileSync(file, Buffer.alloc(4096, 0x5a));
      assert.deepEqual(run(ws.root, cache, ['.', '--format', 'json', '--no-cache']), plain);
    } finally {
      ws.cleanup();
    }
  });

  it('keeps at most 24 caches (MAX_CODE_CACHES in server/src/cli/launch.ts), letting the least recently written go', () => {
    const ws = workspace({ '.env': 'OPENAI_BASE_URL=https://api.openai.com/v1\n' });
    try {
      // Caches of 30 other copies of the CLI (checkouts, CI workspaces), written one a minute, the oldest first.
      mkdirSync(join(cache, 'code-cache'), { recursive: true });
      const others = Array.from({ length: 30 }, (_, i) => `lint-${String(i).padStart(8, '0')}-${'0'.repeat(32)}.bin`);
      others.forEach((name, i) => {
        const file = join(cache, 'code-cache', name);
        writeFileSync(file, 'x', { mode: 0o600 });
        const when = new Date(Date.now() - (60 - i) * 60_000);
        utimesSync(file, when, when);
      });
      assert.equal(run(ws.root, cache, ['.', '--format', 'json', '--no-cache']).status, 0);
      const left = caches();
      assert.equal(left.length, 24);
      // This run's own cache is kept, with the 23 newest of the others.
      assert.equal(left.filter((n) => !others.includes(n)).length, 1);
      assert.deepEqual(left.filter((n) => others.includes(n)), others.slice(7).sort());
    } finally {
      ws.cleanup();
    }
  });
});
