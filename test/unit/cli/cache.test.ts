import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHmac } from 'node:crypto';
import { runCli, workspace, writeFiles } from './helpers';
import { CACHE_DIR_NAME, contentHash, LintCacheStore, STAT_SAFE_MARGIN_NS, statKey, statOf, userCacheKey } from '../../../server/src/node/lint-cache';
import { decodeCached, encodeWithoutSecrets } from '../../../server/src/node/lint-cache-secrets';

const PROJECT = join(__dirname, '..', '..', '..');
const FIXTURES = join(PROJECT, 'test', 'fixtures');
const SHARED = join(PROJECT, '..', 'shared', 'real-repos');

/** A `.env` base URL that the Python module's `+ "/v1/chat/completions"` doubles: a finding in each file (cross-file). */
const FILES = {
  '.rolloutlintrc.json': '{}\n',
  '.env': 'ROLLOUT_BASE_URL=https://taotoken.net/api/v1\nOPENAI_API_KEY=sk-proj-Zq81mXv0Lr4TbW9yKc2NdJ7hPfA5sGu3\n',
  'app/rollout.py': 'import os\nimport requests\n\nROLLOUT = os.environ.get("ROLLOUT_BASE_URL")\n\n\ndef rollout(messages):\n    return requests.post(ROLLOUT + "/v1/chat/completions", json={"model": "m", "messages": messages, "logprobs": True})\n',
  'conf/rollout.yaml': 'rollout:\n  base_url: https://api.openai.com/v1/chat/completions\n  api_key: "YOUR_API_KEY"\n',
  'scripts/launch.sh': 'export OPENAI_BASE_URL=http://0.0.0.0:30000/v1\npython -m train --logprobs\n',
};

/** The full key of FILES' `.env`: the cache must never hold it. */
const KEY = 'sk-proj-Zq81mXv0Lr4TbW9yKc2NdJ7hPfA5sGu3';

describe('CLI cache (--no-cache, --cache-location): a cached run prints what an uncached one does', function () {
  this.timeout(10 * 60 * 1000);
  let home: string;
  let env: NodeJS.ProcessEnv;
  before(() => {
    home = mkdtempSync(join(tmpdir(), 'rl-cache-home-'));
    env = { HOME: home };
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  /** JSON report (hints included) and exit code of one run in `root`. */
  const run = async (root: string, extra: string[] = [], runEnv = env) => {
    const r = await runCli(root, ['.', '--format', 'json', '--include-hints', ...extra], { env: runEnv });
    return `${r.code}\n${r.out}\n${r.err}`;
  };
  /** The uncached report, then a cached run (filling or using the cache) must print the same; returns the report. */
  const same = async (root: string, note: string) => {
    const plain = await run(root, ['--no-cache']);
    assert.equal(await run(root), plain, `${note}: first cached run differs from --no-cache`);
    assert.equal(await run(root), plain, `${note}: second cached run differs from --no-cache`);
    return plain;
  };
  const storeFile = (root: string) => {
    const dir = join(root, CACHE_DIR_NAME);
    const name = readdirSync(dir).find((n) => n.endsWith('.store'));
    assert.ok(name, `no store in ${dir}`);
    return join(dir, name);
  };

  it('keeps results in <root>/.rollout-lint-cache (git-ignored inside) and reuses them', async () => {
    const ws = workspace(FILES);
    try {
      const before = await same(ws.root, 'first');
      assert.match(before, /base-url-duplicate-v1/);
      assert.equal(readFileSync(join(ws.root, CACHE_DIR_NAME, '.gitignore'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).join(), '*');
      const store = readFileSync(storeFile(ws.root), 'utf8');
      // both the index facts and the lint results of the Python file are kept
      assert.match(store, /"app\/rollout\.py":\{"hash":"[0-9a-f]{64}","index":\{.*"lint":\{/);
      assert.ok(!store.includes(KEY), 'the store holds the full key');
      assert.ok(!store.includes(KEY.slice(8)), 'the store holds most of the key');
      // A warm run writes nothing: the store is unchanged.
      const mtime = statSync(storeFile(ws.root)).mtimeMs;
      await run(ws.root);
      assert.equal(statSync(storeFile(ws.root)).mtimeMs, mtime);
    } finally {
      ws.cleanup();
    }
  });

  it('--no-cache reads and writes nothing (no folder, no key)', async () => {
    const ws = workspace(FILES);
    const bare = mkdtempSync(join(tmpdir(), 'rl-cache-home-'));
    try {
      await run(ws.root, ['--no-cache'], { HOME: bare });
      assert.ok(!existsSync(join(ws.root, CACHE_DIR_NAME)));
      assert.deepEqual(readdirSync(bare), []);
    } finally {
      ws.cleanup();
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('--cache-location puts the cache elsewhere', async () => {
    const ws = workspace(FILES);
    const elsewhere = mkdtempSync(join(tmpdir(), 'rl-cache-loc-'));
    try {
      const plain = await run(ws.root, ['--no-cache']);
      assert.equal(await run(ws.root, ['--cache-location', elsewhere]), plain);
      assert.equal(await run(ws.root, ['--cache-location', elsewhere]), plain);
      assert.ok(!existsSync(join(ws.root, CACHE_DIR_NAME)));
      assert.ok(readdirSync(elsewhere).some((n) => n.endsWith('.store')));
    } finally {
      ws.cleanup();
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('a changed file, config, cross-file .env, deleted file each give the uncached result', async () => {
    const ws = workspace(FILES);
    try {
      const first = await same(ws.root, 'first');
      // The .env value changes: the Python file (unchanged bytes) loses its cross-file finding.
      writeFileSync(join(ws.root, '.env'), 'ROLLOUT_BASE_URL=https://taotoken.net/api\n');
      const second = await same(ws.root, 'cross-file .env change');
      assert.notEqual(second, first);
      assert.doesNotMatch(second, /rollout\.py[^\]]*base-url-duplicate-v1/);
      // The Python file changes: the .env's finding about its reader follows.
      writeFileSync(join(ws.root, '.env'), FILES['.env']);
      await same(ws.root, 'back');
      writeFileSync(join(ws.root, 'app/rollout.py'), FILES['app/rollout.py'].replace('ROLLOUT + "/v1/chat/completions"', 'ROLLOUT + "/chat/completions"'));
      const third = await same(ws.root, 'reader changed');
      assert.notEqual(third, first);
      // The config turns a rule off, then changes the rollout globs (index and lint keys).
      writeFileSync(join(ws.root, '.rolloutlintrc.json'), '{"rules": {"api-key-placeholder": "off"}}\n');
      const fourth = await same(ws.root, 'config change');
      assert.doesNotMatch(fourth, /api-key-placeholder/);
      writeFileSync(join(ws.root, '.rolloutlintrc.json'), '{"rolloutGlobs": []}\n');
      await same(ws.root, 'globs change');
      // A file cut short (as by an interrupted write).
      writeFileSync(join(ws.root, 'conf/rollout.yaml'), FILES['conf/rollout.yaml'].slice(0, 40));
      await same(ws.root, 'truncated yaml');
      // A deleted file, and a defining file deleted under a reader.
      unlinkSync(join(ws.root, 'conf/rollout.yaml'));
      await same(ws.root, 'deleted yaml');
      unlinkSync(join(ws.root, '.env'));
      const fifth = await same(ws.root, 'deleted .env');
      assert.doesNotMatch(fifth, /\.env"/);
      // A new file that defines what the reader reads.
      writeFiles(ws.root, { 'app/.env': 'ROLLOUT_BASE_URL=https://taotoken.net/api/v1\n' });
      await same(ws.root, 'new .env');
      // Command-line options are part of the key.
      const plain = await run(ws.root, ['--no-cache', '--lang', 'zh-CN']);
      assert.equal(await run(ws.root, ['--lang', 'zh-CN']), plain);
      assert.equal(await run(ws.root, ['--lang', 'zh-CN']), plain);
    } finally {
      ws.cleanup();
    }
  });

  it('a changed manifest (client pins) re-lints the unchanged .env beside it', async () => {
    // base-url-fragment: openai-node reads the fragment into its path (error); a project pinning only Python clients gives a hint
    const ws = workspace({ '.env': 'OPENAI_BASE_URL="http://127.0.0.1:30000/v1#local"\n', 'package.json': '{"name": "app", "private": true, "dependencies": {"openai": "^7.59.0"}}\n' });
    try {
      const node = await same(ws.root, 'package.json');
      assert.match(node, /"ruleId": "base-url-fragment",\s+"severity": 2/);
      unlinkSync(join(ws.root, 'package.json'));
      writeFileSync(join(ws.root, 'requirements.txt'), 'openai==2.54.0\npython-dotenv==1.2.4\n');
      const python = await same(ws.root, 'requirements.txt');
      assert.match(python, /"ruleId": "base-url-fragment",\s+"severity": 1/);
    } finally {
      ws.cleanup();
    }
  });

  it('a corrupt, truncated, foreign-version, unauthenticated or badly shaped store only costs time', async () => {
    const ws = workspace(FILES);
    try {
      const plain = await same(ws.root, 'first');
      const file = storeFile(ws.root);
      const good = readFileSync(file, 'utf8');
      const key = userCacheKey(env)!;
      const signed = (body: string) => `${createHmac('sha256', key).update(body).digest('hex')}\n${body}`;
      const body = good.slice(good.indexOf('\n') + 1);
      // What a planted store would try: clean results for every file (and, signed, a shape no run writes).
      const parsed = JSON.parse(body) as { entries: Record<string, { lint?: { result: { findings: unknown[] } } }> };
      for (const e of Object.values(parsed.entries)) if (e.lint) e.lint.result.findings = [];
      const clean = JSON.stringify(parsed);
      assert.notEqual(clean, body);
      const variants: [string, string][] = [
        ['truncated', good.slice(0, Math.floor(good.length / 2))],
        ['flipped byte', good.replace('"hash":"', '"hash":"0').replace(/"hash":"0([0-9a-f])/, '"hash":"$1')],
        ['corrupt JSON, signed', signed(body.slice(0, -10))],
        ['unsigned planted results', `${'0'.repeat(64)}\n${clean}`],
        ['foreign engine, signed', signed(body.replace(/"engine":"[^"]*"/, '"engine":"9.9.9/1/x"'))],
        ['foreign schema, signed', signed(body.replace('"schema":1', '"schema":2'))],
        ['bad entry shape, signed', signed(body.replace(/"deps":\[/g, '"deps":[7,'))],
        ['bad reference, signed', signed(body.replace(/\[(\d+),(\d+)\]/, '[$1,99999999]'))],
        ['empty', ''],
      ];
      // Signed with this user's key, the same results are served from the cache (what the MAC keeps out of it).
      writeFileSync(file, signed(clean));
      assert.notEqual(await run(ws.root), plain);
      for (const [name, text] of variants) {
        writeFileSync(file, text);
        assert.equal(await run(ws.root), plain, name);
        assert.equal(await run(ws.root), plain, `${name}, rewritten`);
      }
    } finally {
      ws.cleanup();
    }
  });

  it('two runs at once leave a store that gives the uncached result', async function () {
    const cli = join(PROJECT, 'server', 'dist', 'cli.js');
    if (!existsSync(cli)) this.skip();
    const ws = workspace(FILES);
    try {
      const plain = await run(ws.root, ['--no-cache']);
      const { spawn } = await import('node:child_process');
      const once = () => new Promise<void>((done) => spawn(process.execPath, [cli, '.', '--format', 'json'], { cwd: ws.root, env: { ...process.env, ...env }, stdio: 'ignore' }).on('exit', () => done()));
      await Promise.all([once(), once(), once()]);
      assert.equal(await run(ws.root), plain);
      storeFile(ws.root);
      assert.deepEqual(readdirSync(join(ws.root, CACHE_DIR_NAME)).filter((n) => n.endsWith('.tmp')), []);
    } finally {
      ws.cleanup();
    }
  });

  it('a planted symlink: neither a linked store nor a linked cache folder is written through', async () => {
    const ws = workspace(FILES);
    const outside = mkdtempSync(join(tmpdir(), 'rl-cache-outside-'));
    try {
      const plain = await run(ws.root, ['--no-cache']);
      // The cache folder is a link out of the tree: nothing is written there.
      symlinkSync(outside, join(ws.root, CACHE_DIR_NAME));
      assert.equal(await run(ws.root), plain);
      assert.equal(await run(ws.root), plain);
      assert.deepEqual(readdirSync(outside), []);
      unlinkSync(join(ws.root, CACHE_DIR_NAME));
      // The store file is a link to a file outside: not read, and replaced (not written through) on save.
      await run(ws.root);
      const file = storeFile(ws.root);
      const target = join(outside, 'victim');
      writeFileSync(target, 'keep me\n');
      unlinkSync(file);
      symlinkSync(target, file);
      // a change, so that the run saves
      writeFileSync(join(ws.root, 'conf/rollout.yaml'), FILES['conf/rollout.yaml'].replace('v1/chat/completions', 'v1'));
      const changed = await run(ws.root, ['--no-cache']);
      assert.equal(await run(ws.root), changed);
      assert.equal(readFileSync(target, 'utf8'), 'keep me\n');
      assert.ok(!statSync(file, { throwIfNoEntry: false })?.isSymbolicLink?.());
      assert.equal(await run(ws.root), changed);
    } finally {
      ws.cleanup();
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a read-only tree: no cache written, same results', async function () {
    if (process.getuid?.() === 0) this.skip(); // root writes anyway
    const ws = workspace(FILES);
    try {
      const plain = await run(ws.root, ['--no-cache']);
      chmodSync(ws.root, 0o555);
      assert.equal(await run(ws.root), plain);
      assert.ok(!existsSync(join(ws.root, CACHE_DIR_NAME)));
    } finally {
      chmodSync(ws.root, 0o755);
      ws.cleanup();
    }
  });

  it('stat shortcut: an unchanged stat vouches for the bytes only when the file was older than the read by the margin', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rl-cache-stat-'));
    try {
      const key = Buffer.alloc(32, 7);
      const file = join(dir, 'a.env');
      writeFileSync(file, 'A=1\n');
      const past = new Date(Date.now() - 60_000);
      utimesSync(file, past, past);
      const st = statOf(file)!;
      const hash = contentHash(readFileSync(file));
      const store = new LintCacheStore(dir, '/project', 'e', key);
      // Racy: read in the same instant as the last change (mtime or ctime within the margin): no record.
      store.noteStat('a.env', hash, st, st.ctimeNs);
      assert.equal(store.hashByStat('a.env', statKey(statOf(file))), undefined);
      store.noteStat('a.env', hash, st, st.ctimeNs + STAT_SAFE_MARGIN_NS);
      assert.equal(store.hashByStat('a.env', statKey(statOf(file))), undefined);
      // Read well after the last change: the record vouches, and survives the signed store.
      store.noteStat('a.env', hash, st, st.ctimeNs + STAT_SAFE_MARGIN_NS + 1n);
      assert.equal(store.hashByStat('a.env', statKey(statOf(file))), hash);
      store.save();
      assert.equal(new LintCacheStore(dir, '/project', 'e', key).hashByStat('a.env', statKey(statOf(file))), hash);
      assert.equal(new LintCacheStore(dir, '/project', 'e', Buffer.alloc(32, 8)).hashByStat('a.env', statKey(statOf(file))), undefined);
      // Same size, modification time put back: the change time moved (a clock tick later), so the file is read.
      await new Promise((r) => setTimeout(r, 30));
      writeFileSync(file, 'A=2\n');
      utimesSync(file, past, past);
      const after = statOf(file)!;
      assert.equal(after.size, st.size);
      assert.equal(after.mtimeNs, st.mtimeNs);
      assert.equal(new LintCacheStore(dir, '/project', 'e', key).hashByStat('a.env', statKey(after)), undefined);
      // A folder is never vouched for.
      assert.equal(statKey(statOf(dir)), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stat shortcut end to end: same-size edits with the old modification time, and fresh files, give the uncached result', async () => {
    const ws = workspace(FILES);
    try {
      const past = new Date(Date.now() - 3_600_000);
      for (const name of Object.keys(FILES)) utimesSync(join(ws.root, name), past, past);
      // The change times (set now by utimes) must be older than a read by the margin for a record to be kept.
      await new Promise((r) => setTimeout(r, Number(STAT_SAFE_MARGIN_NS / 1_000_000n) + 300));
      writeFileSync(join(ws.root, 'fresh.env'), 'FRESH=1\n');
      const first = await same(ws.root, 'first');
      const body = (): Record<string, { stat?: string }> => {
        const text = readFileSync(storeFile(ws.root), 'utf8');
        return JSON.parse(text.slice(text.indexOf('\n') + 1)).entries;
      };
      assert.match(body()['conf/rollout.yaml']?.stat ?? '', /^\d+:/, 'an old file has a stat record');
      assert.equal(body()['fresh.env']?.stat, undefined, 'a file changed within the margin has none');
      // Same size, same modification time as recorded: only the change time tells, and the result follows the new bytes.
      const env = FILES['.env'].replace('taotoken.net/api/v1', 'taotoken.net/api/vX');
      assert.equal(env.length, FILES['.env'].length);
      writeFileSync(join(ws.root, '.env'), env);
      utimesSync(join(ws.root, '.env'), past, past);
      const second = await same(ws.root, 'same-size edit, mtime put back');
      assert.notEqual(second, first);
      // The fresh file edited in place, same size, same modification time.
      const mtime = statSync(join(ws.root, 'fresh.env')).mtime;
      writeFileSync(join(ws.root, 'fresh.env'), 'FRESH=2\n');
      utimesSync(join(ws.root, 'fresh.env'), mtime, mtime);
      await same(ws.root, 'fresh file edited');
    } finally {
      ws.cleanup();
    }
  });

  it('a store of another engine version is ignored', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rl-cache-store-'));
    try {
      const key = Buffer.alloc(32, 7);
      const a = new LintCacheStore(dir, '/project', '0.1.0/1/a', key);
      a.set('x.env', 'a'.repeat(64), { index: { key: 'k', env: null } });
      a.save();
      assert.ok(new LintCacheStore(dir, '/project', '0.1.0/1/a', key).get('x.env', 'a'.repeat(64)));
      assert.equal(new LintCacheStore(dir, '/project', '0.2.0/1/a', key).get('x.env', 'a'.repeat(64)), undefined);
      assert.equal(new LintCacheStore(dir, '/project', '0.1.0/1/a', Buffer.alloc(32, 8)).get('x.env', 'a'.repeat(64)), undefined);
      assert.equal(new LintCacheStore(dir, '/project', '0.1.0/1/a', key).get('x.env', 'b'.repeat(64)), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('secrets are stored as places in the file, and a key not written verbatim is not stored at all', () => {
    const text = 'A=1\nOPENAI_API_KEY="sk-proj-Zq81mXv0Lr4TbW9yKc2NdJ7hPfA5sGu3"\n';
    const start = text.indexOf('sk-');
    const source = { text, spans: [{ start: start - 1, end: start + KEY.length + 1 }], values: [KEY] };
    const value = { message: `key ${KEY} and again ${KEY}.`, list: [KEY, 'plain'], n: 3 };
    const encoded = encodeWithoutSecrets(value, source);
    assert.ok(encoded?.refs && !JSON.stringify(encoded).includes(KEY.slice(4)));
    assert.deepEqual(decodeCached(encoded.value, text)?.value, value);
    assert.equal(decodeCached(encoded.value, text.slice(0, 20)), undefined);
    assert.deepEqual(encodeWithoutSecrets({ a: 'plain' }, source), { value: { a: 'plain' }, refs: false });
    // decoded differently (an escape) than the file holds it: refused
    assert.equal(encodeWithoutSecrets({ v: 'sk-proj-escaped\u0041value-xyz' }, { text: 'K="sk-proj-escaped\\x41value-xyz"', spans: [{ start: 3, end: 31 }], values: ['sk-proj-escaped\u0041value-xyz'] }), undefined);
  });

  it('every fixture folder: the cached run prints what the uncached one does', async () => {
    const root = mkdtempSync(join(tmpdir(), 'rl-cache-fixtures-'));
    try {
      cpSync(FIXTURES, root, { recursive: true });
      writeFileSync(join(root, '.rolloutlintrc.json'), '{}\n');
      const plain = await same(root, 'fixtures');
      assert.ok(plain.length > 10000);
      // text output (source lines with masked keys) too
      const text = await runCli(root, ['.', '--include-hints', '--no-cache'], { env });
      assert.equal((await runCli(root, ['.', '--include-hints'], { env })).out, text.out);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('../shared/real-repos: the cached run prints what the uncached one does', async function () {
    if (!existsSync(SHARED)) {
      console.log(`      skipped: ${SHARED} is absent (a user's clone has no ../shared)`);
      this.skip();
    }
    const root = mkdtempSync(join(tmpdir(), 'rl-cache-real-'));
    try {
      for (const repo of readdirSync(SHARED).filter((n) => statSync(join(SHARED, n)).isDirectory())) {
        cpSync(join(SHARED, repo), join(root, repo), { recursive: true });
        spawnSync('chmod', ['-R', 'u+w', join(root, repo)]);
        spawnSync('git', ['init', '-q'], { cwd: join(root, repo) });
      }
      const plain = await same(root, 'real repos');
      assert.ok(plain.length > 1000);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
