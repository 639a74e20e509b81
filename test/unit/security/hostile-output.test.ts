import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { escapeForLine } from '../../../server/src/cli/sanitize';
import { unifiedDiff } from '../../../server/src/cli/diff';
import { runCli, workspace } from '../cli/helpers';

const ROOT = join(__dirname, '..', '..', '..');
const NEWLINE_NAME = 'x\n::stop-commands::pwned\n.env';
const ESCAPE_NAME = '\x1b]0;pwned\x07\x1b[2Jz.env';

/** Issue 29 item 3: one sanitiser for every line printed to a terminal or a CI log. */
describe('hostile file names never start a line or drive the terminal', function () {
  this.timeout(20_000);
  if (process.platform === 'win32') return;

  it('escapeForLine shows control characters, line separators and bidi overrides escaped', () => {
    assert.equal(escapeForLine('a\nb\r\tc\x1b[2J\x07\u2028\u202ez\x9b'), 'a\\nb\\r\\tc\\x1b[2J\\x07\\u2028\\u202ez\\x9b');
    assert.equal(escapeForLine('普通 path/ok.env'), '普通 path/ok.env');
  });

  it('the text report, endpoints and --diff print a newline or escape file name on one line', async () => {
    const ws = workspace({ [NEWLINE_NAME]: 'OPENAI_BASE_URL=https://api.example.com/v1/v1\n', [ESCAPE_NAME]: 'OPENAI_BASE_URL=https://x.example/v1/v1\n' });
    try {
      for (const args of [['--format', 'text', '.'], ['endpoints', '.'], ['--diff', '.'], ['--statistics', '.']]) {
        const r = await runCli(ws.root, args);
        for (const line of `${r.out}\n${r.err}`.split('\n')) {
          assert.doesNotMatch(line, /^::/, `${args.join(' ')}: a line starts a workflow command`);
          assert.doesNotMatch(line, /\x1b|\x07/, `${args.join(' ')}: a control character reached the output`);
        }
      }
      const text = await runCli(ws.root, ['--format', 'text', '.']);
      assert.match(text.out, /^x\\n::stop-commands::pwned\\n\.env:1:17: error/m);
      const endpoints = await runCli(ws.root, ['endpoints', '.']);
      assert.match(endpoints.out, /\\x1b\]0;pwned\\x07\\x1b\[2Jz\.env:1:17/);
      const diff = await runCli(ws.root, ['--diff', '.']);
      assert.match(diff.out, /^--- "a\/x\\n::stop-commands::pwned\\n\.env"$/m);
    } finally {
      ws.cleanup();
    }
  });

  it('diff headers quote paths as git does (jsdiff)', () => {
    assert.match(unifiedDiff('plain.env', 'a\n', 'b\n'), /^--- a\/plain\.env\n\+\+\+ b\/plain\.env\n/);
    const header = unifiedDiff('x\n\x1b.env', 'a\n', 'b\n').split('\n').slice(0, 2);
    assert.deepEqual(header, ['--- "a/x\\n\\033.env"', '+++ "b/x\\n\\033.env"']);
  });

  it('the Action wraps the text report in ::stop-commands:: with a random end token, then annotates', () => {
    const work = mkdtempSync(join(tmpdir(), 'rollout-lint-action-'));
    const repo = join(work, 'repo');
    try {
      spawnSync('mkdir', ['-p', repo]);
      writeFileSync(join(repo, NEWLINE_NAME), 'OPENAI_BASE_URL=https://api.example.com/v1/v1\n');
      const out = join(work, 'out');
      writeFileSync(out, '');
      const run = () =>
        spawnSync(process.execPath, [join(ROOT, 'scripts', 'action', 'run.mjs')], {
          cwd: repo,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, GITHUB_ACTION_PATH: ROOT, GITHUB_OUTPUT: out, RUNNER_TEMP: work, INPUT_CLI: join(ROOT, 'server', 'dist', 'cli.js'), INPUT_PATHS: '.', INPUT_ARGS: '', INPUT_ANNOTATE: 'true', INPUT_UPLOAD_SARIF: 'false', INPUT_SARIF_FILE: join(work, 'out.sarif') },
        }).stdout;
      const first = run();
      const lines = first.split('\n');
      const stop = lines.findIndex((l) => l.startsWith('::stop-commands::'));
      const token = lines[stop].slice('::stop-commands::'.length);
      assert.match(token, /^rollout-lint-[0-9a-f]{32}$/);
      const resume = lines.indexOf(`::${token}::`);
      assert.ok(resume > stop, 'commands resume after the report');
      assert.ok(lines.slice(stop + 1, resume).some((l) => /base-url-duplicate-v1/.test(l)), 'the text report is inside the wrapped part');
      assert.ok(lines.slice(resume + 1).some((l) => l.startsWith('::error file=')), 'annotations come after, outside it');
      assert.ok(lines.every((l, i) => i === stop || !l.startsWith('::stop-commands::')));
      const second = run().split('\n').find((l) => l.startsWith('::stop-commands::'));
      assert.notEqual(second, lines[stop], 'the token is random per run');
      assert.match(readFileSync(out, 'utf8'), /exit-code=1/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
