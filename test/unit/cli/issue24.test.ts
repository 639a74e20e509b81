import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { useColor } from '../../../server/src/cli/io';
import { FINGERPRINT_KEY } from '../../../server/src/cli/fingerprint';
import { runCli, workspace, writeFiles } from './helpers';

const DUP = 'https://api.openai.com/v1/v1';
/** A tracked YAML file whose only finding is a hint with an unsafe fix (base-url-trailing-slash). */
const HINT_YAML = 'rollout:\n  base_url: http://10.0.0.5:30000/v1/\n';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });
}

/** A git repository: a tracked YAML with a fixable hint and a git-ignored `.env` with a fixable error. */
function repoWithHintAndIgnoredEnv(): { root: string; cleanup: () => void } {
  const ws = workspace({ 'rollout.yaml': HINT_YAML, '.env': `OPENAI_BASE_URL=${DUP}\n`, '.gitignore': '.env\n' });
  git(ws.root, 'init', '-q');
  git(ws.root, 'add', '-A');
  git(ws.root, 'commit', '-qm', 'init');
  return ws;
}

describe('CLI conventions (issue 24)', () => {
  describe('fix selection = what is reported', () => {
    it('--fix and --diff leave a hint that the report does not print alone; --include-hints or --rule fix it', async () => {
      const ws = repoWithHintAndIgnoredEnv();
      try {
        const report = await runCli(ws.root, []);
        assert.doesNotMatch(report.out, /trailing-slash/);
        const diff = await runCli(ws.root, ['--diff', '--fix-unsafe']);
        assert.equal(diff.out, '', 'no diff for a hidden hint');
        const fixed = await runCli(ws.root, ['--fix-unsafe']);
        assert.equal(readFileSync(join(ws.root, 'rollout.yaml'), 'utf8'), HINT_YAML, fixed.out + fixed.err);
        const hintDiff = await runCli(ws.root, ['--diff', '--fix-unsafe', '--include-hints']);
        assert.match(hintDiff.out, /^-  base_url: http:\/\/10\.0\.0\.5:30000\/v1\/$/m);
        const ruled = await runCli(ws.root, ['--rule', 'base-url-trailing-slash']);
        assert.match(ruled.out, /\[base-url-trailing-slash\]/, 'a rule named with --rule prints its hints');
        const safeOnly = await runCli(ws.root, ['--fix', '--rule', 'base-url-trailing-slash']);
        assert.match(safeOnly.out, /1 fixable not fixed: 1 only with --fix-unsafe/);
        await runCli(ws.root, ['--fix-unsafe', '--rule', 'base-url-trailing-slash']);
        assert.equal(readFileSync(join(ws.root, 'rollout.yaml'), 'utf8'), 'rollout:\n  base_url: http://10.0.0.5:30000/v1\n');
      } finally {
        ws.cleanup();
      }
    });

    it('--fix says in the summary how many fixable findings were left and why; a named git-ignored file is fixed', async () => {
      const ws = repoWithHintAndIgnoredEnv();
      try {
        const run = await runCli(ws.root, ['--fix']);
        assert.equal(run.code, 1);
        assert.match(run.out, /\[\*\] 1 fixable not fixed: 1 in git-ignored files \(name them to fix them\)/);
        assert.equal(readFileSync(join(ws.root, '.env'), 'utf8'), `OPENAI_BASE_URL=${DUP}\n`);
        const zh = await runCli(ws.root, ['--fix', '--lang', 'zh-CN']);
        assert.match(zh.out, /1 个可修复的问题未修复：1 个在 git 忽略的文件中/);
        const named = await runCli(ws.root, ['--fix', '.env']);
        assert.equal(named.code, 0, named.out + named.err);
        assert.equal(readFileSync(join(ws.root, '.env'), 'utf8'), 'OPENAI_BASE_URL=https://api.openai.com/v1\n');
      } finally {
        ws.cleanup();
      }
    });

    it('--quiet fixes errors only (the warnings it hides stay as they are)', async () => {
      const ws = workspace({ 'a.env': `OPENAI_BASE_URL=${DUP}\n`, 'b.env': 'OPENAI_BASE_URL=https://api.openai.com/v1/\n' });
      try {
        const before = readFileSync(join(ws.root, 'b.env'), 'utf8');
        const plain = await runCli(ws.root, ['--diff']);
        const quiet = await runCli(ws.root, ['--diff', '--quiet']);
        assert.match(quiet.out, /a\.env/);
        if (/b\.env/.test(plain.out)) assert.doesNotMatch(quiet.out, /b\.env/);
        await runCli(ws.root, ['--fix', '--quiet']);
        assert.equal(readFileSync(join(ws.root, 'b.env'), 'utf8'), before);
      } finally {
        ws.cleanup();
      }
    });
  });

  describe('results do not depend on the working folder', () => {
    const FILES = {
      '.env': 'OPENAI_BASE_URL=https://api.example.com/v1\n',
      'app/serve.py': 'import os\nimport requests\n\nbase = os.getenv("OPENAI_BASE_URL")\nrequests.post(f"{base}/v1/chat/completions", json={"model": "m", "logprobs": True, "top_logprobs": 1})\n',
    };
    const crossFile = (out: string) => (JSON.parse(out) as { filePath: string; messages: { ruleId: string }[] }[]).filter((r) => r.messages.some((m) => m.ruleId === 'base-url-duplicate-v1')).map((r) => r.filePath);

    for (const kind of ['git', 'config'] as const) {
      it(`a ${kind === 'git' ? 'git work tree' : 'folder with a .rolloutlintrc.json'}: the same cross-file error from the root, a subfolder, "..", and outside`, async () => {
        const ws = workspace(FILES);
        const outside = mkdtempSync(join(tmpdir(), 'rollout-lint-outside-'));
        try {
          if (kind === 'git') git(ws.root, 'init', '-q');
          else writeFileSync(join(ws.root, '.rolloutlintrc.json'), '{}\n');
          const runs = {
            root: await runCli(ws.root, ['--format', 'json']),
            subfolder: await runCli(join(ws.root, 'app'), ['--format', 'json']),
            dotdot: await runCli(join(ws.root, 'app'), ['..', '--format', 'json']),
            outsideRepo: await runCli(outside, [ws.root, '--format', 'json']),
            outsideFile: await runCli(outside, [join(ws.root, 'app', 'serve.py'), '--format', 'json']),
          };
          for (const [where, run] of Object.entries(runs)) {
            assert.equal(run.code, 1, `${where}: ${run.err}`);
            const files = crossFile(run.out).map((f) => relative(ws.root, f));
            assert.ok(files.includes(join('app', 'serve.py')), `${where}: ${run.out}`);
          }
        } finally {
          ws.cleanup();
          rmSync(outside, { recursive: true, force: true });
        }
      });
    }
  });

  it('--index-scope named (pre-commit) reads only the named files for cross-file findings', async () => {
    const ws = workspace({ '.env': 'OPENAI_BASE_URL=https://api.example.com/v1\n', 'serve.py': 'import os\nimport requests\n\nbase = os.getenv("OPENAI_BASE_URL")\nrequests.post(f"{base}/v1/chat/completions", json={"model": "m", "logprobs": True, "top_logprobs": 1})\n' });
    try {
      git(ws.root, 'init', '-q');
      const rules = (out: string) => (JSON.parse(out) as { messages: { ruleId: string }[] }[]).flatMap((r) => r.messages.map((m) => m.ruleId));
      assert.ok(rules((await runCli(ws.root, ['serve.py', '--format', 'json'])).out).includes('base-url-duplicate-v1'));
      assert.ok(!rules((await runCli(ws.root, ['serve.py', '--format', 'json', '--index-scope', 'named'])).out).includes('base-url-duplicate-v1'));
      assert.ok(rules((await runCli(ws.root, ['serve.py', '.env', '--format', 'json', '--index-scope', 'named'])).out).includes('base-url-duplicate-v1'));
    } finally {
      ws.cleanup();
    }
  });

  describe('rule selection and configuration flags', () => {
    const FILES = { '.env': `OPENAI_BASE_URL=${DUP}\nOPENAI_API_KEY=\n` };
    const ids = (out: string) => [...new Set((JSON.parse(out) as { messages: { ruleId: string }[] }[]).flatMap((r) => r.messages.map((m) => m.ruleId)))].sort();

    it('--select, --ignore (beside --no-ignore), --rule "id: off" and its JSON form, --output-format', async () => {
      const ws = workspace(FILES);
      try {
        const all = ids((await runCli(ws.root, ['--format', 'json'])).out);
        assert.ok(all.includes('base-url-duplicate-v1') && all.length > 1, all.join());
        assert.deepEqual(ids((await runCli(ws.root, ['--output-format', 'json', '--select', 'base-url-duplicate-v1'])).out), ['base-url-duplicate-v1']);
        for (const argv of [['--ignore', 'base-url-duplicate-v1'], ['--ignore', 'base-url-duplicate-v1', '--no-ignore'], ['--rule', 'base-url-duplicate-v1: off'], ['--rule', '{"base-url-duplicate-v1": "off"}']]) {
          const got = ids((await runCli(ws.root, ['--format', 'json', ...argv])).out);
          assert.deepEqual(got, all.filter((id) => id !== 'base-url-duplicate-v1'), argv.join(' '));
        }
        const warn = await runCli(ws.root, ['--format', 'json', '--select', 'base-url-duplicate-v1', '--rule', 'base-url-duplicate-v1: warn']);
        assert.equal((JSON.parse(warn.out) as { messages: { severity: number }[] }[])[0].messages[0].severity, 1);
        assert.equal(warn.code, 0);
        const bad = await runCli(ws.root, ['--ignore', 'no-such-rule']);
        assert.equal(bad.code, 2);
        assert.match(bad.err, /unknown rule id no-such-rule/);
        assert.equal((await runCli(ws.root, ['--rule', 'base-url-duplicate-v1: loud'])).code, 2);
      } finally {
        ws.cleanup();
      }
    });

    it('--config FILE replaces the lookup, --no-config-lookup ignores every config, --print-config shows the result', async () => {
      const ws = workspace({ ...FILES, '.rolloutlintrc.json': JSON.stringify({ rules: { 'base-url-duplicate-v1': 'off' } }), 'other.json': JSON.stringify({ rules: { 'base-url-duplicate-v1': 'warning' } }) });
      try {
        assert.ok(!ids((await runCli(ws.root, ['--format', 'json'])).out).includes('base-url-duplicate-v1'));
        assert.ok(ids((await runCli(ws.root, ['--format', 'json', '--no-config-lookup'])).out).includes('base-url-duplicate-v1'));
        const printed = await runCli(ws.root, ['--print-config', '.env', '--config', 'other.json']);
        assert.equal(printed.code, 0);
        const config = JSON.parse(printed.out) as { configFile: string; rules: Record<string, string> };
        assert.equal(config.configFile, join(ws.root, 'other.json'));
        assert.equal(config.rules['base-url-duplicate-v1'], 'warning');
        const plain = JSON.parse((await runCli(ws.root, ['--print-config', '.env'])).out) as { rules: Record<string, string> };
        assert.equal(plain.rules['base-url-duplicate-v1'], 'off');
        assert.equal((await runCli(ws.root, ['--config', 'missing.json'])).code, 2);
      } finally {
        ws.cleanup();
      }
    });

    it('colour: NODE_DISABLE_COLORS and TERM=dumb turn it off on a terminal; FORCE_COLOR and --color still win', () => {
      assert.equal(useColor(undefined, {}, true), true);
      assert.equal(useColor(undefined, { NODE_DISABLE_COLORS: '1' }, true), false);
      assert.equal(useColor(undefined, { TERM: 'dumb' }, true), false);
      assert.equal(useColor(undefined, { TERM: 'dumb', FORCE_COLOR: '1' }, true), true);
      assert.equal(useColor(true, { NODE_DISABLE_COLORS: '1' }, false), true);
    });
  });

  describe('--baseline', () => {
    it('--update-baseline writes the findings; later runs report only new ones, survive moved lines, and --prune-baseline drops fixed ones', async () => {
      const ws = workspace({ 'a.env': `OPENAI_BASE_URL=${DUP}\nOPENAI_API_KEY=\n`, 'b.env': 'X=1\n' });
      try {
        const missing = await runCli(ws.root, ['--baseline', 'bl.json']);
        assert.equal(missing.code, 2);
        assert.match(missing.err, /--update-baseline/);
        const write = await runCli(ws.root, ['--baseline', 'bl.json', '--update-baseline']);
        assert.equal(write.code, 0, write.err);
        assert.equal(write.out, '');
        const file = JSON.parse(readFileSync(join(ws.root, 'bl.json'), 'utf8')) as { version: number; findings: { file: string; rule: string; fingerprint: string }[] };
        assert.equal(file.version, 1);
        assert.ok(file.findings.some((e) => e.file === 'a.env' && e.rule === 'base-url-duplicate-v1'));
        assert.equal((await runCli(ws.root, ['--baseline', 'bl.json'])).code, 0);
        // Lines moved down: still baselined. A new finding elsewhere: reported.
        writeFiles(ws.root, { 'a.env': `# moved\n\nOPENAI_BASE_URL=${DUP}\nOPENAI_API_KEY=\n`, 'b.env': `OPENAI_BASE_URL=${DUP}\n` });
        const after = await runCli(ws.root, ['--baseline', 'bl.json', '--format', 'json']);
        assert.equal(after.code, 1);
        const reported = (JSON.parse(after.out) as { filePath: string; messages: unknown[] }[]).filter((r) => r.messages.length).map((r) => relative(ws.root, r.filePath));
        assert.deepEqual(reported, ['b.env']);
        // The SARIF fingerprint is the baseline's.
        const sarif = JSON.parse((await runCli(ws.root, ['--format', 'sarif', 'a.env'])).out) as { runs: { results: { ruleId: string; partialFingerprints: Record<string, string> }[] }[] };
        const dup = sarif.runs[0].results.find((r) => r.ruleId === 'base-url-duplicate-v1')!;
        assert.equal(dup.partialFingerprints[FINGERPRINT_KEY], file.findings.find((e) => e.file === 'a.env' && e.rule === 'base-url-duplicate-v1')!.fingerprint);
        // Fixed in a.env: the entry is stale, pruning drops it (and keeps b.env's none).
        writeFiles(ws.root, { 'a.env': 'OPENAI_BASE_URL=https://api.openai.com/v1\nOPENAI_API_KEY=\n' });
        const stale = await runCli(ws.root, ['--baseline', 'bl.json', 'a.env']);
        assert.match(stale.err, /1 baseline entry matches no finding any more/);
        const pruned = await runCli(ws.root, ['--baseline', 'bl.json', '--prune-baseline', 'a.env']);
        assert.match(pruned.err, /removed 1 entry/);
        const left = JSON.parse(readFileSync(join(ws.root, 'bl.json'), 'utf8')) as { findings: { rule: string }[] };
        assert.equal(left.findings.length, file.findings.length - 1);
        assert.ok(!left.findings.some((e) => e.rule === 'base-url-duplicate-v1'));
      } finally {
        ws.cleanup();
      }
    });

    it('--fix leaves baselined findings alone', async () => {
      const ws = workspace({ 'a.env': `OPENAI_BASE_URL=${DUP}\n` });
      try {
        await runCli(ws.root, ['--baseline', 'bl.json', '--update-baseline']);
        const diff = await runCli(ws.root, ['--baseline', 'bl.json', '--diff']);
        assert.equal(diff.out, '');
        assert.equal(diff.code, 0);
      } finally {
        ws.cleanup();
      }
    });
  });

  describe('machine formats', () => {
    it('SARIF: partialFingerprints on results, tags and precision on rules, valid against the OASIS schema', async function () {
      const schemaPath = join(__dirname, '..', '..', '..', '..', 'shared', 'schemas', 'sarif-schema-2.1.0.json');
      if (!existsSync(schemaPath)) this.skip();
      const { $schema: _draft, id, ...rest } = JSON.parse(readFileSync(schemaPath, 'utf8'));
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      const validate = ajv.compile({ ...rest, $id: id });
      const ws = workspace({ '.env': `OPENAI_BASE_URL=${DUP}\nB_BASE_URL=${DUP}\n` });
      try {
        const text = (await runCli(ws.root, ['--format', 'sarif'])).out;
        assert.ok(validate(JSON.parse(text)), JSON.stringify(validate.errors));
        const log = JSON.parse(text) as { runs: { results: { ruleId: string; ruleIndex: number; partialFingerprints: Record<string, string> }[]; tool: { driver: { rules: { id: string; properties: { tags: string[]; precision: string } }[] } } }[] };
        const run = log.runs[0];
        // only the rules the results name (each with its whole docs page as help), and ruleIndex points at them
        assert.deepEqual(run.tool.driver.rules.map((r) => r.id), [...new Set(run.results.map((r) => r.ruleId))]);
        for (const r of run.results) assert.equal(run.tool.driver.rules[r.ruleIndex].id, r.ruleId);
        assert.ok(text.length < 60_000, `a two-finding log is ${text.length} bytes`);
        const prints = run.results.map((r) => r.partialFingerprints[FINGERPRINT_KEY]);
        assert.equal(prints.length, 2);
        assert.match(prints[0], /^[0-9a-f]{32}$/);
        assert.notEqual(prints[0], prints[1], 'different lines, different fingerprints');
        const rule = run.tool.driver.rules.find((r) => r.id === 'base-url-duplicate-v1')!;
        assert.deepEqual(rule.properties.tags, ['rollout-config', 'base-url']);
        assert.equal(rule.properties.precision, 'very-high');
        assert.ok(run.tool.driver.rules.every((r) => ['very-high', 'high', 'medium'].includes(r.properties.precision)));
      } finally {
        ws.cleanup();
      }
    });

    it('GitLab Code Quality: the description names the rule id', async () => {
      const ws = workspace({ '.env': `OPENAI_BASE_URL=${DUP}\n` });
      try {
        const issues = JSON.parse((await runCli(ws.root, ['--format', 'gitlab'])).out) as { description: string; check_name: string }[];
        assert.ok(issues.length > 0);
        for (const issue of issues) assert.ok(issue.description.endsWith(` [${issue.check_name}]`), issue.description);
      } finally {
        ws.cleanup();
      }
    });
  });

  describe('rollout-lint-server command line (bundle)', () => {
    const SERVER = join(__dirname, '..', '..', '..', 'server', 'dist', 'server.js');
    it('--help and --version print without a stack trace; no transport is a usage error', function () {
      if (!existsSync(SERVER)) this.skip();
      const help = spawnSync(process.execPath, [SERVER, '--help'], { encoding: 'utf8' });
      assert.equal(help.status, 0);
      assert.match(help.stdout, /--stdio/);
      const version = spawnSync(process.execPath, [SERVER, '--version'], { encoding: 'utf8' });
      assert.equal(version.status, 0);
      assert.match(version.stdout, /^\d+\.\d+\.\d+/);
      const none = spawnSync(process.execPath, [SERVER], { encoding: 'utf8', input: '' });
      assert.equal(none.status, 2);
      assert.doesNotMatch(none.stderr, /\n\s+at /, 'no stack trace');
    });
  });
});
