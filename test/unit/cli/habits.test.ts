import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invalidate } from '../../../server/src/node/config';
import { runPing } from '../../../server/src/cli/ping';
import { runCli, workspace, writeFiles } from './helpers';

const DUP = 'https://api.openai.com/v1/v1';
const ESC = '\x1b[';

describe('CLI habits (issue 17)', () => {
  afterEach(() => invalidate());

  describe('standard input', () => {
    it('lints "-" as the --stdin-filename file: its type, its folder\'s config', async () => {
      const ws = workspace({ 'sub/.rolloutlintrc.json': JSON.stringify({ rules: { 'base-url-query-string': 'off' } }) });
      try {
        const text = `OPENAI_BASE_URL=${DUP}?x=1\n`;
        const { code, out } = await runCli(ws.root, ['--stdin-filename', 'sub/.env', '-', '--format', 'json'], { stdin: text });
        assert.equal(code, 1);
        const [result] = JSON.parse(out);
        assert.equal(result.filePath, join(ws.root, 'sub', '.env'));
        assert.deepEqual(result.messages.map((m: { ruleId: string }) => m.ruleId), ['base-url-duplicate-v1'], 'the rc beside sub/.env turned the query-string rule off');
        const bare = await runCli(ws.root, ['--stdin-filename', 'sub/.env'], { stdin: text });
        assert.equal(bare.code, 1, '--stdin-filename alone reads standard input');
      } finally {
        ws.cleanup();
      }
    });

    it('with --fix prints the fixed text on stdout, the remaining report on stderr, and writes nothing', async () => {
      const ws = workspace({});
      try {
        const { code, out, err } = await runCli(ws.root, ['--stdin-filename', '.env', '--fix', '-'], { stdin: `OPENAI_BASE_URL=${DUP}\r\nX=1\r\n` });
        assert.equal(code, 0);
        assert.equal(out, 'OPENAI_BASE_URL=https://api.openai.com/v1\r\nX=1\r\n');
        assert.doesNotMatch(err, /error:/);
        assert.throws(() => readFileSync(join(ws.root, '.env')), /ENOENT/);
      } finally {
        ws.cleanup();
      }
    });

    it('with --fix gives an ignored or unreadable file\'s text back unchanged', async () => {
      const ws = workspace({ '.rolloutlintrc.json': JSON.stringify({ ignore: ['vendor/**'] }) });
      try {
        const text = `OPENAI_BASE_URL=${DUP}\n`;
        assert.deepEqual(await runCli(ws.root, ['--stdin-filename', 'vendor/.env', '--fix', '-'], { stdin: text }), { code: 0, out: text, err: '' });
        const md = await runCli(ws.root, ['--stdin-filename', 'notes.md', '--fix', '-'], { stdin: text });
        assert.equal(md.out, text);
      } finally {
        ws.cleanup();
      }
    });

    it('"-" without --stdin-filename, or beside other paths, is a usage error', async () => {
      const ws = workspace({ '.env': 'X=1\n' });
      try {
        const alone = await runCli(ws.root, ['-'], { stdin: 'X=1\n' });
        assert.equal(alone.code, 2);
        assert.match(alone.err, /needs --stdin-filename/);
        const mixed = await runCli(ws.root, ['-', '.env', '--stdin-filename', 'a.env'], { stdin: 'X=1\n' });
        assert.equal(mixed.code, 2);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('--diff prints a unified diff of the safe fixes, writes nothing and exits 1', async () => {
    const before = `# 配置\nOPENAI_BASE_URL=${DUP}\nOTHER=1\n`;
    const ws = workspace({ '.env': before, 'ok.env': 'OPENAI_BASE_URL=https://api.openai.com/v1\n' });
    try {
      const { code, out } = await runCli(ws.root, ['--diff']);
      assert.equal(code, 1);
      assert.equal(out, ['--- a/.env', '+++ b/.env', '@@ -1,3 +1,3 @@', ' # 配置', `-OPENAI_BASE_URL=${DUP}`, '+OPENAI_BASE_URL=https://api.openai.com/v1', ' OTHER=1', ''].join('\n'));
      assert.equal(readFileSync(join(ws.root, '.env'), 'utf8'), before);
      const clean = await runCli(ws.root, ['--diff', 'ok.env']);
      assert.deepEqual([clean.code, clean.out], [0, '']);
    } finally {
      ws.cleanup();
    }
  });

  it('--output-file writes the report there (no colour) and nothing on stdout', async () => {
    const ws = workspace({ '.env': `OPENAI_BASE_URL=${DUP}\n` });
    try {
      const { code, out } = await runCli(ws.root, ['--format', 'sarif', '-o', 'out/report.sarif'], { isTTY: true }).catch(() => ({ code: -1, out: '' }));
      assert.equal(code, 2, 'a missing folder is reported, exit 2');
      const ok = await runCli(ws.root, ['--output-file', 'report.txt'], { isTTY: true });
      assert.equal(ok.code, 1);
      assert.equal(ok.out, '');
      const written = readFileSync(join(ws.root, 'report.txt'), 'utf8');
      assert.match(written, /\[base-url-duplicate-v1\]/);
      assert.ok(!written.includes(ESC), 'files get no ANSI colour');
      assert.equal(out, '');
    } finally {
      ws.cleanup();
    }
  });

  it('--statistics counts problems per rule, marks the fixable ones, and has a JSON form', async () => {
    const ws = workspace({ '.env': `OPENAI_BASE_URL=${DUP}\nOTHER_BASE_URL=https://api.openai.com/v1?x=1\n`, 'b.env': `OPENAI_BASE_URL=${DUP}\n` });
    try {
      const text = await runCli(ws.root, ['--statistics']);
      assert.equal(text.code, 1);
      assert.equal(text.out, '2  base-url-duplicate-v1  [*]  error\n1  base-url-query-string       warning\n');
      const json = await runCli(ws.root, ['--statistics', '--format', 'json']);
      assert.deepEqual(JSON.parse(json.out), [
        { ruleId: 'base-url-duplicate-v1', count: 2, fixable: 2, severity: 'error' },
        { ruleId: 'base-url-query-string', count: 1, fixable: 0, severity: 'warning' },
      ]);
      assert.equal((await runCli(ws.root, ['--statistics', '--format', 'sarif'])).code, 2);
    } finally {
      ws.cleanup();
    }
  });

  it('explain RULE prints the rule page; an unknown id suggests near ones and exits 2', async () => {
    const ws = workspace({});
    try {
      const page = await runCli(ws.root, ['explain', 'base-url-duplicate-v1']);
      assert.equal(page.code, 0);
      assert.ok(page.out.startsWith(readFileSync(join(__dirname, '..', '..', '..', 'docs', 'rules', 'base-url-duplicate-v1.md'), 'utf8').trimEnd()));
      assert.match(page.out, /docs\/rules\/base-url-duplicate-v1\.md\n$/);
      const typo = await runCli(ws.root, ['explain', 'base-url-duplicate-v2']);
      assert.equal(typo.code, 2);
      assert.match(typo.err, /did you mean base-url-duplicate-v1/);
    } finally {
      ws.cleanup();
    }
  });

  describe('colour', () => {
    const cases: [string, string[], { isTTY: boolean; env: NodeJS.ProcessEnv }, boolean][] = [
      ['a terminal', [], { isTTY: true, env: {} }, true],
      ['a pipe', [], { isTTY: false, env: {} }, false],
      ['FORCE_COLOR=1 on a pipe', [], { isTTY: false, env: { FORCE_COLOR: '1' } }, true],
      ['FORCE_COLOR=0 on a terminal', [], { isTTY: true, env: { FORCE_COLOR: '0' } }, false],
      ['NO_COLOR on a terminal', [], { isTTY: true, env: { NO_COLOR: '1' } }, false],
      ['--color on a pipe, over NO_COLOR', ['--color'], { isTTY: false, env: { NO_COLOR: '1' } }, true],
      ['--no-color over FORCE_COLOR', ['--no-color'], { isTTY: true, env: { FORCE_COLOR: '3' } }, false],
    ];
    for (const [name, argv, io, coloured] of cases) {
      it(`${name}: ${coloured ? 'colour' : 'no colour'}`, async () => {
        const ws = workspace({ '.env': `OPENAI_BASE_URL=${DUP}\n` });
        try {
          const { out } = await runCli(ws.root, argv, io);
          assert.equal(out.includes(ESC), coloured, out);
        } finally {
          ws.cleanup();
        }
      });
    }
  });

  it('draws progress on a terminal stderr for long runs, erases it, and never on a pipe', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) files[`f${String(i).padStart(2, '0')}.env`] = 'X=1\n';
    const ws = workspace(files);
    try {
      let t = 0;
      const tty = await runCli(ws.root, [], { stderrIsTTY: true, now: () => (t += 150) });
      // From the start: the walk, then the env index, then the lint, each phase counted.
      assert.match(tty.err, /^\r\x1b\[KFinding files…\r\x1b\[KIndexing 1\/60 files… f00\.env/);
      assert.match(tty.err, /Indexing 60\/60 files… f59\.env\r\x1b\[KLinting 1\/60 files… f00\.env/);
      assert.match(tty.err, /Linting 60\/60 files… f59\.env\r\x1b\[K$/);
      assert.equal(tty.out, '');
      const dumb = await runCli(ws.root, [], { stderrIsTTY: true, env: { TERM: 'dumb' } });
      assert.equal(dumb.err, '', 'TERM=dumb: no cursor sequences');
      const pipe = await runCli(ws.root, [], { stderrIsTTY: false });
      assert.equal(pipe.err, '');
      const ci = await runCli(ws.root, [], { stderrIsTTY: true, env: { CI: 'true' } });
      assert.equal(ci.err, '');
    } finally {
      ws.cleanup();
    }
  });

  it('--fix says how many problems it fixed, in how many files', async () => {
    const ws = workspace({ '.env': `OPENAI_BASE_URL=${DUP}\nB_BASE_URL=${DUP}\n`, 'b.env': `OPENAI_BASE_URL=${DUP}\n`, 'c.env': 'X=1\n' });
    try {
      const { code, out } = await runCli(ws.root, ['--fix']);
      assert.equal(code, 0);
      assert.equal(out, '✔ 3 problems fixed in 2 files\n');
      const zh = await runCli(ws.root, ['--fix', '--lang', 'zh']);
      assert.equal(zh.out, '', 'nothing left to fix: no line');
      writeFiles(ws.root, { 'b.env': `OPENAI_BASE_URL=${DUP}\n` });
      assert.equal((await runCli(ws.root, ['--fix', '--lang', 'zh'])).out, '✔ 已修复 1 个问题（1 个文件）\n');
    } finally {
      ws.cleanup();
    }
  });

  it('--help shows examples and the exit codes, and no "(default: [])"', async () => {
    const { code, out } = await runCli(tmpdir(), ['--help']);
    assert.equal(code, 0);
    assert.match(out, /Examples:\n {2}rollout-lint /);
    assert.match(out, /Exit codes:\n {2}0 {2}no errors/);
    assert.match(out, /--stdin-filename <path>/);
    assert.doesNotMatch(out, /default: \[\]/);
  });

  it('ping takes --lang zh like lint does, and its --from help names the file types it reads', async () => {
    let out = '';
    const code = await runPing(['--help'], { stdout: (t) => void (out += t), stderr: () => undefined, env: {}, cwd: tmpdir() });
    assert.equal(code, 0);
    assert.match(out, /--from <file>\s+probe what a file configures/);
    assert.match(out, /"zh"/);
    let err = '';
    const zh = await runPing(['--base-url', 'not a url', '--lang', 'zh'], { stdout: () => undefined, stderr: (t) => void (err += t), env: {}, cwd: tmpdir() });
    assert.equal(zh, 2);
    assert.doesNotMatch(err, /Allowed choices|'zh' is invalid/i);
    assert.match(err, /不是完整的 http\(s\) URL/, 'the input error in Chinese');
  });

  describe('file lists from pre-commit and editors', () => {
    it('named files of other types are skipped quietly beside readable ones', async () => {
      const ws = workspace({ 'README.md': '# x\n', 'logo.png': Buffer.from([0x89, 0x50]), '.env': 'OPENAI_BASE_URL=https://api.openai.com/v1\n' });
      try {
        assert.deepEqual(await runCli(ws.root, ['README.md', 'logo.png', '.env']), { code: 0, out: '', err: '' });
        const none = await runCli(ws.root, ['README.md']);
        assert.equal(none.code, 0);
        assert.match(none.err, /nothing to lint \(README\.md is not a file type Rollout Lint reads/);
        assert.match((await runCli(ws.root, ['README.md', '--lang', 'zh'])).err, /没有可检查的文件（README\.md不是 Rollout Lint 读取的文件类型/);
      } finally {
        ws.cleanup();
      }
    });

    it('--candidates-only lints a named JSON file only when a folder walk would', async () => {
      const ws = workspace({ 'tsconfig.json': '{"compilerOptions": {"baseUrl": "."}}\n', 'openclaw.json': `{"models": {"providers": {"x": {"baseUrl": "${DUP}", "api": "openai-completions"}}}}\n` });
      try {
        const { code, out } = await runCli(ws.root, ['--candidates-only', '--format', 'json', 'tsconfig.json', 'openclaw.json']);
        assert.equal(code, 1);
        const results = JSON.parse(out) as { filePath: string; messages: unknown[] }[];
        assert.deepEqual(results.map((r) => r.filePath), [join(ws.root, 'openclaw.json')]);
      } finally {
        ws.cleanup();
      }
    });
  });

  describe('results do not depend on the working directory', () => {
    let repo: string;
    beforeEach(() => {
      repo = mkdtempSync(join(tmpdir(), 'rollout-lint-repo-'));
      execFileSync('git', ['init', '-q', repo]);
      writeFiles(repo, {
        '.rolloutlintrc.json': JSON.stringify({ rules: { 'base-url-query-string': 'off' }, rolloutGlobs: ['trainer/**'], ignore: ['vendor/**'] }),
        'sub/.env': `OPENAI_BASE_URL=${DUP}?utm_source=x\n`,
        'vendor/.env': `OPENAI_BASE_URL=${DUP}\n`,
        'sub/vendor/.env': `OPENAI_BASE_URL=${DUP}\n`,
        'trainer/collect.py': [
          'import requests',
          '',
          '',
          'def collect(prompt):',
          "    body = {'model': 'policy', 'messages': [{'role': 'user', 'content': prompt}], 'max_tokens': 512}",
          '    return requests.post("http://127.0.0.1:30000/v1/chat/completions", json=body).json()',
          '',
        ].join('\n'),
      });
    });
    afterEach(() => rmSync(repo, { recursive: true, force: true }));

    const findings = (out: string) =>
      (JSON.parse(out) as { filePath: string; messages: { ruleId: string }[] }[])
        .flatMap((r) => r.messages.map((m) => `${r.filePath.slice(repo.length + 1)} ${m.ruleId}`))
        .sort();

    it('the root .rolloutlintrc.json and its rolloutGlobs apply from the root, a subfolder and another folder alike', async () => {
      const fromRoot = findings((await runCli(repo, ['--format', 'json'])).out);
      assert.deepEqual(fromRoot, ['sub/.env base-url-duplicate-v1', 'sub/vendor/.env base-url-duplicate-v1', 'trainer/collect.py logprobs-missing']);
      assert.deepEqual(findings((await runCli(join(repo, 'sub'), ['--format', 'json'])).out), ['sub/.env base-url-duplicate-v1', 'sub/vendor/.env base-url-duplicate-v1'], '"vendor/**" is relative to the config file, not to sub/');
      assert.deepEqual(findings((await runCli(join(repo, 'trainer'), ['--format', 'json'])).out), ['trainer/collect.py logprobs-missing']);
      const elsewhere = mkdtempSync(join(tmpdir(), 'rollout-lint-elsewhere-'));
      try {
        assert.deepEqual(findings((await runCli(elsewhere, ['--format', 'json', repo])).out), fromRoot);
        assert.deepEqual(findings((await runCli(elsewhere, ['--format', 'json', join(repo, 'vendor', '.env')])).out), [], 'ignore globs are relative to the config file');
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
    });
  });
});
