import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { WorkspaceDiagnosticRequest, type WorkspaceDocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { parseGitIndex, readTrackedPaths } from '../../../server/src/node/git-index';
import { NodeWorkspaceFacts } from '../../../server/src/node/facts';
import { runCli, writeFiles } from '../cli/helpers';
import { fileUri, TestClient } from '../lsp/harness';

const CLI = join(__dirname, '..', '..', '..', 'server', 'dist', 'cli.js');
/** A fake key shaped like a real one (prefix, 48 chars of mixed characters). */
const KEY = 'sk-proj-Q7vT2mXk9LpR4sWn8ZcY1bHd6FjG3aEoUiKt5yNq0';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function hasGit(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Plants every repository setting through which git can be made to run a command, each one writing
 * a file named after itself into `marks`: the attack of issue 13 item 1, widened to its whole kind.
 */
function plantCommands(repo: string, marks: string): void {
  const run = (name: string) => `sh -c 'touch ${join(marks, name)}'; false`;
  const hooks = join(repo, '.git', 'evil-hooks');
  mkdirSync(hooks, { recursive: true });
  for (const hook of ['pre-commit', 'post-checkout', 'post-index-change', 'fsmonitor-watchman', 'reference-transaction', 'post-merge']) {
    writeFileSync(join(hooks, hook), `#!/bin/sh\ntouch ${join(marks, `hook-${hook}`)}\n`);
    chmodSync(join(hooks, hook), 0o755);
  }
  writeFileSync(join(repo, '.gitattributes'), '* filter=evil diff=evil\n');
  for (const [key, value] of [
    ['core.fsmonitor', run('fsmonitor')],
    ['core.hooksPath', hooks],
    ['core.pager', run('pager')],
    ['pager.ls-files', run('pager-ls-files')],
    ['diff.external', run('diff-external')],
    ['diff.evil.textconv', run('textconv')],
    ['filter.evil.clean', run('filter-clean')],
    ['filter.evil.smudge', run('filter-smudge')],
    ['filter.evil.process', run('filter-process')],
    ['core.sshCommand', run('ssh')],
    ['core.askPass', run('askpass')],
    ['credential.helper', `!${run('credential')}`],
    ['gpg.program', run('gpg')],
    ['core.editor', run('editor')],
  ]) git(repo, 'config', key, value);
}

describe('repository commands (issue 13 item 1): nothing a repository contains makes Rollout Lint run a command', function () {
  this.timeout(60_000);
  let base: string;
  let repo: string;
  let marks: string;
  before(function () {
    if (!hasGit()) this.skip();
    base = mkdtempSync(join(tmpdir(), 'rollout-lint-repo-cmds-'));
    repo = join(base, 'p');
    marks = join(base, 'marks');
    mkdirSync(marks);
    mkdirSync(repo);
    git(repo, 'init', '-q');
    writeFiles(repo, { '.env': `OPENAI_API_KEY=${KEY}\n`, 'conf/.env': `OPENAI_API_KEY=${KEY}\n`, '.gitignore': 'local.env\n', 'local.env': `OPENAI_API_KEY=${KEY}\n` });
    git(repo, 'add', '.env', '.gitignore');
    plantCommands(repo, marks);
  });
  after(() => base && rmSync(base, { recursive: true, force: true }));

  it('the CLI bundle lints a repository with planted core.fsmonitor, hooks, filters, pagers… and runs none of them', () => {
    assert.ok(existsSync(CLI), `${CLI} is missing: run "npm run build" first`);
    const r = spawnSync(process.execPath, [CLI, 'p', '--format', 'json'], { cwd: base, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    assert.deepEqual(readdirSync(marks), [], 'a command planted in the repository ran');
    const files = (JSON.parse(r.stdout) as { filePath: string; messages: { ruleId: string; message: string }[] }[])
      .filter((f) => f.messages.some((m) => m.ruleId === 'api-key-committed'))
      .map((f) => relative(repo, f.filePath))
      .sort();
    // .env is tracked (read from the index), conf/.env is exposed, local.env is ignored.
    assert.deepEqual(files, ['.env', 'conf/.env']);
    const tracked = (JSON.parse(r.stdout) as { filePath: string; messages: { ruleId: string; message: string }[] }[]).find((f) => f.filePath.endsWith('p/.env'));
    assert.match(tracked!.messages.find((m) => m.ruleId === 'api-key-committed')!.message, /track/i);
  });

  it('the language server in Restricted Mode answers workspace/diagnostic without running them', async () => {
    const client = await TestClient.start({ pull: true, root: repo, initializationOptions: { workspaceTrusted: false } });
    try {
      const report = await client.connection.sendRequest(WorkspaceDiagnosticRequest.type, { previousResultIds: [] });
      const env = report.items.find((i) => i.uri === fileUri(join(repo, '.env'))) as WorkspaceDocumentDiagnosticReport & { items?: { code?: unknown }[] };
      assert.ok(env?.items?.some((d) => d.code === 'api-key-committed'), JSON.stringify(report.items.map((i) => i.uri)));
      assert.deepEqual(readdirSync(marks), [], 'a command planted in the repository ran');
    } finally {
      await client.stop();
    }
  });

  it('no source file can start a process (no child_process import in server/ or client/)', () => {
    const offenders: string[] = [];
    const scan = (dir: string) => {
      for (const name of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, name.name);
        if (name.isDirectory()) scan(p);
        else if (/\.ts$/.test(name.name) && /['"](node:)?child_process['"]|process\.binding\(|['"](node:)?worker_threads['"][^;]*\bexec/.test(readFileSync(p, 'utf8'))) offenders.push(p);
      }
    };
    for (const dir of ['server/src', 'client/src']) scan(join(__dirname, '..', '..', '..', dir));
    assert.deepEqual(offenders, []);
  });
});

describe('the git index reader (no git process)', function () {
  this.timeout(60_000);
  let base: string;
  before(function () {
    if (!hasGit()) this.skip();
    base = mkdtempSync(join(tmpdir(), 'rollout-lint-index-'));
  });
  after(() => base && rmSync(base, { recursive: true, force: true }));

  const files = { 'a.env': 'A=1\n', 'dir/b.env': 'B=1\n', 'dir/deeper/c.py': 'x = 1\n', 'dir/deeper/longer-name-than-the-previous.sh': 'true\n', '中文/配置.env': 'C=1\n', 'z.yaml': 'a: 1\n' };
  const listed = (repo: string) => git(repo, 'ls-files', '-z').split('\0').filter(Boolean).sort();
  const make = (name: string, init: string[] = []) => {
    const repo = join(base, name);
    mkdirSync(repo);
    git(repo, 'init', '-q', ...init);
    writeFiles(repo, files);
    git(repo, 'add', '.');
    return repo;
  };

  for (const [name, setup] of [
    ['version 2', (r: string) => git(r, 'update-index', '--index-version', '2')],
    ['version 3 (intent-to-add sets extended flags)', (r: string) => (writeFiles(r, { 'new.env': 'N=1\n' }), git(r, 'add', '-N', 'new.env'))],
    ['version 4 (prefix-compressed paths)', (r: string) => git(r, 'update-index', '--index-version', '4')],
    ['a split index', (r: string) => (git(r, 'commit', '-qm', 'x'), git(r, 'update-index', '--split-index'), writeFiles(r, { 'later.env': 'L=1\n' }), git(r, 'add', 'later.env'))],
  ] as const) {
    it(`reads ${name} exactly as git ls-files lists it`, () => {
      const repo = make(name.replace(/\W+/g, '-'));
      setup(repo);
      const paths = readTrackedPaths(repo);
      assert.ok(paths);
      assert.deepEqual([...paths.files].sort(), listed(repo));
    });
  }

  it('reads a sha256 repository', function () {
    let repo: string;
    try {
      repo = make('sha256', ['--object-format=sha256']);
    } catch {
      this.skip();
    }
    assert.deepEqual([...readTrackedPaths(repo!)!.files].sort(), listed(repo!));
  });

  it('reads a linked worktree through its .git file', () => {
    const repo = make('main-tree');
    git(repo, 'commit', '-qm', 'x');
    const wt = join(base, 'linked-tree');
    git(repo, 'worktree', 'add', '-q', wt);
    writeFiles(wt, { 'only-here.env': 'O=1\n' });
    git(wt, 'add', 'only-here.env');
    assert.deepEqual([...readTrackedPaths(wt)!.files].sort(), listed(wt));
  });

  it('reads a sparse index: files under a sparse directory entry count as tracked', () => {
    const repo = make('sparse');
    git(repo, 'commit', '-qm', 'x');
    git(repo, 'sparse-checkout', 'init', '--cone', '--sparse-index');
    git(repo, 'sparse-checkout', 'set', 'dir');
    const paths = readTrackedPaths(repo)!;
    assert.ok(paths.sparseDirs.length > 0, 'git wrote no sparse directory entry');
    const facts = new NodeWorkspaceFacts(repo);
    assert.equal(facts.gitState(join(repo, '中文', '配置.env')), 'tracked');
    assert.equal(facts.gitState(join(repo, 'dir', 'b.env')), 'tracked');
  });

  it('never throws on malformed index bytes; readTrackedPaths then says "unknown" (undefined)', () => {
    const repo = make('broken');
    const good = readFileSync(join(repo, '.git', 'index'));
    for (const cut of [0, 4, 11, 12, 30, 70, good.length - 21]) {
      const bytes = good.subarray(0, cut);
      assert.throws(() => parseGitIndex(Buffer.from(bytes)));
    }
    writeFileSync(join(repo, '.git', 'index'), Buffer.concat([good.subarray(0, 12), Buffer.alloc(200, 0xff)]));
    assert.equal(readTrackedPaths(repo), undefined);
  });
});

describe('git facts per file, wherever the CLI runs (issue 11 item 2)', function () {
  this.timeout(60_000);
  let base: string;
  before(function () {
    if (!hasGit()) this.skip();
    base = mkdtempSync(join(tmpdir(), 'rollout-lint-perfile-'));
    const outer = join(base, 'outer');
    mkdirSync(outer);
    git(outer, 'init', '-q');
    writeFiles(outer, {
      '.gitignore': 'secret.env\nbuild/\n',
      '.env': `OPENAI_API_KEY=${KEY}\n`,
      'secret.env': `OPENAI_API_KEY=${KEY}\n`,
      'svc/.env': `OPENAI_API_KEY=${KEY}\n`,
      'svc/run.sh': `export OPENAI_API_KEY=${KEY}\n`,
      'build/run.sh': `export OPENAI_API_KEY=${KEY}\n`,
    });
    git(outer, 'add', '.gitignore', '.env');
    const inner = join(outer, 'vendor', 'inner');
    mkdirSync(inner, { recursive: true });
    git(inner, 'init', '-q');
    writeFiles(inner, { '.gitignore': '*.env\n', 'x.env': `OPENAI_API_KEY=${KEY}\n`, 'run.sh': `export OPENAI_API_KEY=${KEY}\n` });
    mkdirSync(join(base, 'elsewhere'));
  });
  after(() => base && rmSync(base, { recursive: true, force: true }));

  async function committed(cwd: string, arg: string): Promise<string[]> {
    const r = await runCli(cwd, [arg, '--format', 'json']);
    const results = JSON.parse(r.out) as { filePath: string; messages: { ruleId: string }[] }[];
    return results
      .map((f) => `${relative(join(base, 'outer'), f.filePath)}:${f.messages.filter((m) => m.ruleId === 'api-key-committed').length}`)
      .sort();
  }

  it('gives the same files and findings from the repository root, a subfolder and outside', async () => {
    const outer = join(base, 'outer');
    const fromRoot = await committed(outer, '.');
    assert.deepEqual(fromRoot, ['.env:1', 'secret.env:0', 'svc/.env:1', 'svc/run.sh:1', 'vendor/inner/run.sh:1', 'vendor/inner/x.env:0']);
    assert.deepEqual(await committed(join(outer, 'svc'), '..'), fromRoot);
    assert.deepEqual(await committed(join(base, 'elsewhere'), outer), fromRoot);
    assert.deepEqual(await committed(join(base, 'elsewhere'), '../outer'), fromRoot);
  });
});
