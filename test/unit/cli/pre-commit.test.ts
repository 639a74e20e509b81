import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';

const ROOT = join(__dirname, '..', '..', '..');
const DUP = 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\n';
const GIT_ID = ['-c', 'user.email=test@example.invalid', '-c', 'user.name=test', '-c', 'commit.gpgsign=false'];

function hasPreCommit(): boolean {
  return spawnSync('pre-commit', ['--version'], { encoding: 'utf8' }).status === 0;
}

/** A git repository holding the project's working tree as it is now (tracked and new files), committed once. */
function snapshotProject(into: string): string {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\0').filter(Boolean);
  for (const f of files) {
    if (!existsSync(join(ROOT, f))) continue;
    mkdirSync(dirname(join(into, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(into, f));
  }
  execFileSync('git', ['init', '-q', into]);
  execFileSync('git', ['add', '-A'], { cwd: into });
  execFileSync('git', [...GIT_ID, 'commit', '-q', '-m', 'snapshot'], { cwd: into });
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: into, encoding: 'utf8' }).trim();
}

describe('.pre-commit-hooks.yaml', () => {
  const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as { id: string; entry: string; language: string; files: string }[];

  it('declares node hooks whose files pattern matches what Rollout Lint reads, and nothing else', () => {
    assert.deepEqual(hooks.map((h) => h.id), ['rollout-lint', 'rollout-lint-fix']);
    for (const hook of hooks) {
      assert.equal(hook.language, 'node');
      assert.match(hook.entry, /^rollout-lint --candidates-only/);
      // pre-commit matches `files` with Python's re.search; this pattern uses nothing JavaScript reads differently.
      const files = new RegExp(hook.files);
      for (const f of ['.env', 'deploy/.env.local', 'prod.env', 'a/b.yaml', 'c.yml', 'openclaw.json', '.claude/settings.json', 'x.jsonc', 'train.py', 'run.sh', 'launch.bash', 'config.toml', 'nb.ipynb']) assert.ok(files.test(f), f);
      for (const f of ['README.md', 'logo.png', 'env.txt', 'src/index.ts', '.envrc', 'Makefile']) assert.ok(!files.test(f), f);
    }
  });

  describe('end to end with pre-commit on a temporary repository', function () {
    this.timeout(600_000);
    let work: string;
    let user: string;
    let env: NodeJS.ProcessEnv;

    before(function () {
      if (!hasPreCommit()) {
        console.log('      skipped: pre-commit is not installed (Debian: apt-get install pre-commit)');
        this.skip();
      }
      work = mkdtempSync(join(tmpdir(), 'rollout-lint-pre-commit-'));
      const hookRepo = join(work, 'hook-repo');
      const rev = snapshotProject(hookRepo);
      user = join(work, 'user');
      execFileSync('git', ['init', '-q', user]);
      writeFileSync(join(user, '.pre-commit-config.yaml'), `repos:\n  - repo: ${hookRepo}\n    rev: ${rev}\n    hooks:\n      - id: rollout-lint\n      - id: rollout-lint-fix\n        stages: [manual]\n`);
      writeFileSync(join(user, '.env'), DUP);
      writeFileSync(join(user, 'README.md'), '# notes\nOPENAI_BASE_URL=https://api.openai.com/v1/v1\n');
      writeFileSync(join(user, 'tsconfig.json'), '{ "compilerOptions": { "baseUrl": "." } }\n');
      writeFileSync(join(user, 'ok.yaml'), 'rollout:\n  base_url: http://127.0.0.1:30000/v1\n');
      execFileSync('git', ['add', '-A'], { cwd: user });
      env = { ...process.env, PRE_COMMIT_HOME: join(work, 'cache'), npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
      delete env.FORCE_COLOR;
    });
    after(() => {
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it('fails on the .env mistake only (README.md, tsconfig.json quietly ignored), then passes once it is fixed', () => {
      const run = spawnSync('pre-commit', ['run', '--all-files', '--color', 'never'], { cwd: user, env, encoding: 'utf8' });
      assert.equal(run.status, 1, run.stdout + run.stderr);
      assert.match(run.stdout, /Rollout Lint\.+Failed/);
      assert.match(run.stdout, /^\.env:1:17: error: .*\[base-url-duplicate-v1\]/m);
      assert.doesNotMatch(run.stdout, /README|tsconfig|ok\.yaml:/);

      const fix = spawnSync('pre-commit', ['run', 'rollout-lint-fix', '--hook-stage', 'manual', '--all-files', '--color', 'never'], { cwd: user, env, encoding: 'utf8' });
      assert.equal(fix.status, 1, 'pre-commit fails a hook that modified files');
      assert.match(fix.stdout, /files were modified by this hook/);
      assert.equal(readFileSync(join(user, '.env'), 'utf8'), 'OPENAI_BASE_URL=https://api.openai.com/v1\n');

      execFileSync('git', ['add', '-A'], { cwd: user });
      const again = spawnSync('pre-commit', ['run', '--all-files', '--color', 'never'], { cwd: user, env, encoding: 'utf8' });
      assert.equal(again.status, 0, again.stdout + again.stderr);
      assert.match(again.stdout, /Rollout Lint\.+Passed/);
    });
  });
});
