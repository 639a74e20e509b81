import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

const ROOT = join(__dirname, '..', '..', '..');
const GIT_ID = ['-c', 'user.email=test@example.invalid', '-c', 'user.name=test', '-c', 'commit.gpgsign=false'];
const DUP = 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\n';

function sizeOf(path: string): number {
  const st = statSync(path);
  return st.isDirectory() ? readdirSync(path).reduce((n, name) => n + sizeOf(join(path, name)), 0) : st.size;
}

/** Every folder named `name` below `dir` (symlinks not followed). */
function findDirs(dir: string, name: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const p = join(dir, e.name);
    if (e.name === name) out.push(p);
    findDirs(p, name, out);
  }
  return out;
}

describe('the pre-commit hook repository (scripts/pre-commit-mirror.mjs)', function () {
  this.timeout(600_000);
  let work: string;
  let mirror: string;
  let user: string;
  let env: NodeJS.ProcessEnv;

  before(function () {
    if (spawnSync('pre-commit', ['--version']).status !== 0 || !existsSync(join(ROOT, 'server', 'dist', 'cli.js'))) {
      console.log('      skipped: needs pre-commit (apt-get install pre-commit) and npm run build');
      this.skip();
    }
    work = mkdtempSync(join(tmpdir(), 'rollout-lint-mirror-'));
    const packed = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'scripts', 'pack-cli.mjs'), '--out', join(work, 'pack')], { encoding: 'utf8' }));
    mirror = join(work, 'mirror');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'pre-commit-mirror.mjs'), '--out', mirror, '--cli', `file:${packed.tarball}`]);
    execFileSync('git', ['init', '-q'], { cwd: mirror });
    execFileSync('git', ['add', '-A'], { cwd: mirror });
    execFileSync('git', [...GIT_ID, 'commit', '-qm', 'mirror'], { cwd: mirror });
    const rev = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: mirror, encoding: 'utf8' }).trim();
    user = join(work, 'user');
    mkdirSync(user);
    execFileSync('git', ['init', '-q'], { cwd: user });
    writeFileSync(join(user, '.pre-commit-config.yaml'), `repos:\n  - repo: ${mirror}\n    rev: ${rev}\n    hooks:\n      - id: rollout-lint\n`);
    // Committed before the hook: a mistake pre-commit must not re-lint on the next commit.
    writeFileSync(join(user, 'old.env'), DUP);
    execFileSync('git', ['add', '-A'], { cwd: user });
    execFileSync('git', [...GIT_ID, 'commit', '-qm', 'old'], { cwd: user });
    env = { ...process.env, PRE_COMMIT_HOME: join(work, 'cache'), npm_config_cache: join(work, 'npm-cache'), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
    delete env.FORCE_COLOR;
  });
  after(() => work && rmSync(work, { recursive: true, force: true }));

  it('the manifest runs the CLI on the passed files only (--index-scope named), as node hooks', () => {
    const hooks = parse(readFileSync(join(mirror, '.pre-commit-hooks.yaml'), 'utf8')) as { id: string; entry: string; language: string }[];
    assert.deepEqual(hooks.map((h) => h.id), ['rollout-lint', 'rollout-lint-fix']);
    for (const h of hooks) {
      assert.equal(h.language, 'node');
      assert.match(h.entry, /^rollout-lint --candidates-only --index-scope named/);
    }
    const manifest = JSON.parse(readFileSync(join(mirror, 'package.json'), 'utf8'));
    assert.deepEqual(Object.keys(manifest.dependencies), ['rollout-lint']);
    assert.equal(manifest.devDependencies, undefined);
  });

  it('installs only the CLI package, lints only the staged files, and reinstalls offline from a warm npm cache', () => {
    const started = Date.now();
    const install = spawnSync('pre-commit', ['install-hooks'], { cwd: user, env, encoding: 'utf8' });
    const seconds = (Date.now() - started) / 1000;
    assert.equal(install.status, 0, install.stdout + install.stderr);
    const size = sizeOf(join(work, 'cache'));
    const modules = findDirs(join(work, 'cache'), 'node_modules').flatMap((d) => readdirSync(d).filter((n) => !n.startsWith('.')));
    console.log(`      pre-commit install: ${seconds.toFixed(1)} s, ${(size / 1024 / 1024).toFixed(1)} MB (node env included), packages: ${[...new Set(modules)].sort().join(', ')}`);
    assert.deepEqual([...new Set(modules)].filter((n) => !['rollout-lint', 'rollout-lint-pre-commit', 'npm', 'corepack'].includes(n)), [], 'no package but the CLI (and the hook wrapper)');

    writeFileSync(join(user, 'new.env'), DUP);
    writeFileSync(join(user, 'ok.yaml'), 'rollout:\n  base_url: http://127.0.0.1:30000/v1\n');
    execFileSync('git', ['add', 'new.env', 'ok.yaml'], { cwd: user });
    const run = spawnSync('pre-commit', ['run', '--color', 'never'], { cwd: user, env, encoding: 'utf8' });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /^new\.env:1:17: error: .*\[base-url-duplicate-v1\]/m);
    assert.doesNotMatch(run.stdout, /old\.env/, 'the committed file is not linted again');

    // A fresh hook environment with no registry reachable: the npm cache is enough.
    rmSync(join(work, 'cache'), { recursive: true, force: true });
    const offline = spawnSync('pre-commit', ['install-hooks'], { cwd: user, env: { ...env, npm_config_offline: 'true', npm_config_registry: 'http://127.0.0.1:9/' }, encoding: 'utf8' });
    assert.equal(offline.status, 0, offline.stdout + offline.stderr);
    const again = spawnSync('pre-commit', ['run', '--color', 'never'], { cwd: user, env: { ...env, npm_config_offline: 'true', npm_config_registry: 'http://127.0.0.1:9/' }, encoding: 'utf8' });
    assert.equal(again.status, 1);
    assert.match(again.stdout, /new\.env:1:17/);
  });
});
