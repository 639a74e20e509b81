import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

const ROOT = join(__dirname, '..', '..', '..');

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

describe('the GitHub Action (action.yml)', () => {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { default: string }>; outputs: Record<string, unknown>; runs: { using: string; steps: Step[] } };

  it('is a composite action: install, lint, upload SARIF even on findings, then fail the job', () => {
    assert.equal(action.runs.using, 'composite');
    const [install, lint, upload, fail] = action.runs.steps;
    assert.match(install.run!, /scripts\/action\/install\.sh/);
    assert.match(lint.run!, /scripts\/action\/run\.sh/);
    assert.equal(lint.env!.INPUT_CLI, '${{ steps.install.outputs.cli }}');
    assert.equal(upload.uses, 'github/codeql-action/upload-sarif@v3');
    assert.match(upload.if!, /always\(\)/);
    assert.equal(upload.with!.sarif_file, '${{ steps.lint.outputs.sarif-file }}');
    assert.match(fail.run!, /exit "\$\{\{ steps\.lint\.outputs\.exit-code \}\}"/);
    for (const step of action.runs.steps) if (step.run) assert.equal(step.shell, 'bash', `${step.name}: composite run steps need a shell`);
    for (const script of ['install.sh', 'run.sh']) assert.ok(existsSync(join(ROOT, 'scripts', 'action', script)));
    assert.deepEqual(Object.keys(action.inputs).sort(), ['annotate', 'args', 'paths', 'sarif-file', 'upload-sarif', 'version']);
  });

  describe('its shell steps, run as the runner would (GITHUB_ACTION_PATH, GITHUB_OUTPUT, the workspace as cwd)', function () {
    this.timeout(120_000);
    let work: string;
    let repo: string;
    before(() => {
      work = mkdtempSync(join(tmpdir(), 'rollout-lint-action-'));
      repo = join(work, 'repo');
      execFileSync('git', ['init', '-q', repo]);
      writeFileSync(join(repo, '.env'), 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\nOTHER_BASE_URL=https://api.openai.com/v1?x=1\n');
      writeFileSync(join(repo, 'ok.yaml'), 'rollout:\n  base_url: http://127.0.0.1:30000/v1\n');
    });
    after(() => rmSync(work, { recursive: true, force: true }));

    const runStep = (script: string, env: Record<string, string>) => {
      const out = join(work, `${script}.out`);
      writeFileSync(out, '');
      const r = spawnSync('bash', [join(ROOT, 'scripts', 'action', script)], { cwd: repo, encoding: 'utf8', env: { PATH: process.env.PATH, GITHUB_ACTION_PATH: ROOT, GITHUB_OUTPUT: out, RUNNER_TEMP: work, ...env } });
      return { ...r, outputs: outputs(out) };
    };

    it('install.sh uses the CLI built from the action source and says its version', () => {
      const r = runStep('install.sh', { INPUT_VERSION: '' });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.outputs.cli, join(ROOT, 'server', 'dist', 'cli.js'));
      assert.match(r.stdout, /^\d+\.\d+\.\d+\n$/);
    });

    it('run.sh logs the text report, annotates, writes SARIF with repository-relative URIs and passes the exit code on', () => {
      const r = runStep('run.sh', { INPUT_CLI: join(ROOT, 'server', 'dist', 'cli.js'), INPUT_PATHS: '.', INPUT_ARGS: '--max-warnings 0', INPUT_ANNOTATE: 'true', INPUT_SARIF_FILE: 'rollout-lint.sarif' });
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(r.outputs, { 'exit-code': '1', 'sarif-file': 'rollout-lint.sarif' });
      assert.match(r.stdout, /\x1b\[31merror/, 'the log is coloured (GitHub renders ANSI colours)');
      assert.match(r.stdout.replace(/\x1b\[[0-9;]*m/g, ''), /^\.env:1:17: error: .*\[base-url-duplicate-v1\] \[\*\]$/m);
      assert.match(r.stdout, /^::error file=\.env,line=1,col=17,.*title=base-url-duplicate-v1::/m);
      assert.match(r.stdout, /^::warning file=\.env,line=2,/m);
      const sarif = JSON.parse(readFileSync(join(repo, 'rollout-lint.sarif'), 'utf8'));
      const uris = sarif.runs[0].results.map((x: { locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string } } }[] }) => x.locations[0].physicalLocation.artifactLocation);
      assert.deepEqual(uris[0], { uri: '.env', uriBaseId: '%SRCROOT%' });
      assert.ok(!readFileSync(join(repo, 'rollout-lint.sarif'), 'utf8').includes(repo), 'no absolute runner path in the log');
    });

    it('run.sh on a clean path: exit code 0; a bad option: 2 and no SARIF', () => {
      const clean = runStep('run.sh', { INPUT_CLI: join(ROOT, 'server', 'dist', 'cli.js'), INPUT_PATHS: 'ok.yaml', INPUT_ARGS: '', INPUT_ANNOTATE: 'true', INPUT_SARIF_FILE: '' });
      assert.deepEqual(clean.outputs, { 'exit-code': '0', 'sarif-file': '' });
      const bad = runStep('run.sh', { INPUT_CLI: join(ROOT, 'server', 'dist', 'cli.js'), INPUT_PATHS: '.', INPUT_ARGS: '--rule no-such-rule', INPUT_ANNOTATE: 'true', INPUT_SARIF_FILE: 'x.sarif' });
      assert.deepEqual(bad.outputs, { 'exit-code': '2', 'sarif-file': '' });
      assert.match(bad.stderr, /unknown rule id no-such-rule/);
    });
  });
});
