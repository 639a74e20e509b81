import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'server', 'dist', 'cli.js');

interface Step {
  id?: string;
  name: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

/** Reads `KEY=value` lines that a step appended to $GITHUB_OUTPUT. */
function outputs(file: string): Record<string, string> {
  return Object.fromEntries(readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

function sizeOf(path: string): number {
  const st = statSync(path);
  return st.isDirectory() ? readdirSync(path).reduce((n, name) => n + sizeOf(join(path, name)), 0) : st.size;
}

describe('the GitHub Action (action.yml)', () => {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { default: string }>; outputs: Record<string, unknown>; runs: { using: string; steps: Step[] } };

  it('is a composite action: install the packed CLI, lint once, upload SARIF where allowed, then fail the job', () => {
    assert.equal(action.runs.using, 'composite');
    const [install, lint, upload, fail] = action.runs.steps;
    assert.match(install.run!, /scripts\/action\/install\.sh/);
    assert.match(lint.run!, /scripts\/action\/run\.mjs/);
    assert.equal(lint.env!.INPUT_CLI, '${{ steps.install.outputs.cli }}');
    // The current major of the CodeQL Action (v3 is being retired).
    assert.equal(upload.uses, 'github/codeql-action/upload-sarif@v4');
    assert.match(upload.if!, /always\(\)/);
    assert.match(upload.if!, /steps\.lint\.outputs\.upload == 'true'/);
    assert.equal(upload.with!.sarif_file, '${{ steps.lint.outputs.sarif-file }}');
    assert.match(fail.run!, /exit "\$\{\{ steps\.lint\.outputs\.exit-code \}\}"/);
    for (const step of action.runs.steps) if (step.run) assert.equal(step.shell, 'bash', `${step.name}: composite run steps need a shell`);
    assert.equal(action.inputs['upload-sarif'].default, 'auto');
    const install_sh = readFileSync(join(ROOT, 'scripts', 'action', 'install.sh'), 'utf8');
    assert.doesNotMatch(install_sh.replace(/^#.*$/gm, ''), /npm ci/, 'never builds the repository');
    assert.match(install_sh, /--ignore-scripts/);
  });

  describe('its scripts, run as the runner would (GITHUB_* environment, the workspace as cwd)', function () {
    this.timeout(180_000);
    let work: string;
    let repo: string;
    let tarball: string;
    before(function () {
      if (!existsSync(CLI)) this.skip();
      work = mkdtempSync(join(tmpdir(), 'rollout-lint-action-'));
      repo = join(work, 'repo');
      execFileSync('git', ['init', '-q', repo]);
      // 12 errors: two more than GitHub shows; one warning.
      const lines = Array.from({ length: 12 }, (_, i) => `E${i}_BASE_URL=https://api.openai.com/v1/v1`);
      writeFileSync(join(repo, '.env'), `${lines.join('\n')}\nOTHER_BASE_URL=https://api.openai.com/v1?x=1\n`);
      writeFileSync(join(repo, 'ok.yaml'), 'rollout:\n  base_url: http://127.0.0.1:30000/v1\n');
      const packed = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'scripts', 'pack-cli.mjs'), '--out', join(work, 'pack')], { encoding: 'utf8' }));
      tarball = packed.tarball;
    });
    after(() => work && rmSync(work, { recursive: true, force: true }));

    const events = {
      push: { name: 'push', payload: { ref: 'refs/heads/main', repository: { full_name: 'acme/app' } } },
      pr: { name: 'pull_request', payload: { pull_request: { head: { repo: { full_name: 'acme/app' } }, base: { repo: { full_name: 'acme/app' } } }, repository: { full_name: 'acme/app' } } },
      fork: { name: 'pull_request', payload: { pull_request: { head: { repo: { full_name: 'someone/app' } }, base: { repo: { full_name: 'acme/app' } } }, repository: { full_name: 'acme/app' } } },
    };

    const runStep = (cmd: string[], event: keyof typeof events, env: Record<string, string>) => {
      const dir = mkdtempSync(join(work, 'step-'));
      const eventPath = join(dir, 'event.json');
      writeFileSync(eventPath, JSON.stringify(events[event].payload));
      const [out, summary] = [join(dir, 'output'), join(dir, 'summary.md')];
      writeFileSync(out, '');
      const r = spawnSync(cmd[0], cmd.slice(1), {
        cwd: repo,
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH,
          HOME: work,
          npm_config_cache: join(work, 'npm-cache'),
          npm_config_offline: 'true',
          CI: 'true',
          GITHUB_ACTIONS: 'true',
          GITHUB_ACTION_PATH: ROOT,
          GITHUB_WORKSPACE: repo,
          GITHUB_OUTPUT: out,
          GITHUB_STEP_SUMMARY: summary,
          GITHUB_EVENT_NAME: events[event].name,
          GITHUB_EVENT_PATH: eventPath,
          GITHUB_REPOSITORY: 'acme/app',
          RUNNER_TEMP: dir,
          ...env,
        },
      });
      return { ...r, outputs: outputs(out), summary: existsSync(summary) ? readFileSync(summary, 'utf8') : '', dir };
    };

    it('install.sh installs the packed tarball (one package, no install scripts, no npm ci) and says its version', () => {
      const started = process.hrtime.bigint();
      const r = runStep(['bash', join(ROOT, 'scripts', 'action', 'install.sh')], 'push', { INPUT_TARBALL: tarball });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.outputs.cli, join(r.dir, 'rollout-lint-cli', 'lib', 'node_modules', 'rollout-lint', 'dist', 'cli.js'));
      assert.match(r.stdout, /^\d+\.\d+\.\d+\n$/);
      assert.match(r.stderr, /added 1 package/);
      const size = sizeOf(join(r.dir, 'rollout-lint-cli'));
      console.log(`      action install: ${seconds.toFixed(1)} s, ${(size / 1024 / 1024).toFixed(1)} MB`);
    });

    it('run.mjs on push: one lint, text report, 10 annotations per type and a notice for the rest, job summary, SARIF to upload', () => {
      const r = runStep([process.execPath, join(ROOT, 'scripts', 'action', 'run.mjs')], 'push', { INPUT_CLI: CLI, INPUT_PATHS: '.', INPUT_ARGS: '--max-warnings 0 --format json', INPUT_ANNOTATE: 'true', INPUT_UPLOAD_SARIF: 'auto', INPUT_SARIF_FILE: 'rollout-lint.sarif' });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^::warning title=rollout-lint::--format in args is ignored/m);
      assert.deepEqual(r.outputs, { 'exit-code': '1', 'sarif-file': 'rollout-lint.sarif', upload: 'true' });
      assert.match(r.stdout, /^\.env:1:1[0-9]: error: .*\[base-url-duplicate-v1\] \[\*\]$/m);
      assert.match(r.stdout, /^✖ 13 problems \(12 errors, 1 warnings\)$/m);
      assert.equal((r.stdout.match(/^::error /gm) ?? []).length, 10);
      assert.equal((r.stdout.match(/^::warning file=/gm) ?? []).length, 1);
      assert.match(r.stdout, /^::notice title=rollout-lint::2 more errors not annotated \(GitHub shows 10 per type per step\)/m);
      assert.match(r.summary, /^## Rollout Lint$/m);
      assert.match(r.summary, /^\| \[base-url-duplicate-v1\]\(https:[^)]+\) \| error \| 12 \|$/m);
      assert.match(r.summary, /First 13 of 13:/);
      assert.match(r.summary, /uploaded to code scanning/);
      const sarif = JSON.parse(readFileSync(join(repo, 'rollout-lint.sarif'), 'utf8'));
      assert.equal(sarif.runs[0].results.length, 13);
      assert.ok(!readFileSync(join(repo, 'rollout-lint.sarif'), 'utf8').includes(repo), 'no absolute runner path in the log');
    });

    it('run.mjs on a pull request from the same repository uploads; from a fork it skips the upload with a notice', () => {
      const base = { INPUT_CLI: CLI, INPUT_PATHS: '.', INPUT_ARGS: '', INPUT_ANNOTATE: 'false', INPUT_UPLOAD_SARIF: 'auto', INPUT_SARIF_FILE: 'x.sarif' };
      const pr = runStep([process.execPath, join(ROOT, 'scripts', 'action', 'run.mjs')], 'pr', base);
      assert.equal(pr.outputs.upload, 'true');
      assert.doesNotMatch(pr.stdout, /^::(error|warning|notice)/m, 'annotate: false writes no annotation');
      const fork = runStep([process.execPath, join(ROOT, 'scripts', 'action', 'run.mjs')], 'fork', base);
      assert.equal(fork.outputs.upload, 'false');
      assert.equal(fork.outputs['exit-code'], '1');
      assert.match(fork.stdout, /^::notice title=rollout-lint::SARIF not uploaded to code scanning: the pull request comes from the fork someone\/app/m);
      assert.match(fork.summary, /not uploaded: the pull request comes from the fork/);
      const forced = runStep([process.execPath, join(ROOT, 'scripts', 'action', 'run.mjs')], 'fork', { ...base, INPUT_UPLOAD_SARIF: 'true' });
      assert.equal(forced.outputs.upload, 'true');
    });

    it('run.mjs on a clean path: exit code 0; a bad option: 2, no SARIF, no upload', () => {
      const clean = runStep([process.execPath, join(ROOT, 'scripts', 'action', 'run.mjs')], 'push', { INPUT_CLI: CLI, INPUT_PATHS: 'ok.yaml', INPUT_ARGS: '', INPUT_SARIF_FILE: 'clean.sarif' });
      assert.equal(clean.outputs['exit-code'], '0');
      assert.match(clean.summary, /No problems found\./);
      const bad = runStep([process.execPath, join(ROOT, 'scripts', 'action', 'run.mjs')], 'push', { INPUT_CLI: CLI, INPUT_PATHS: '.', INPUT_ARGS: '--rule no-such-rule', INPUT_SARIF_FILE: 'bad.sarif' });
      assert.deepEqual(bad.outputs, { 'exit-code': '2', 'sarif-file': '', upload: 'false' });
      assert.match(bad.stderr, /unknown rule id no-such-rule/);
    });
  });
});
