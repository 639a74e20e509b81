import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { docsUrl } from '../../../server/src/core/docs';
import { RULES } from '../../../server/src/core/rules/index';
import { escapeData, escapeProperty, formatGithub } from '../../../server/src/cli/format/github';
import type { FileResult } from '../../../server/src/node/lint-file';
import { runCli, workspace } from './helpers';

const DUP = 'https://api.openai.com/v1/v1';

/** The official OASIS SARIF 2.1.0 schema, from the steering repository's shared folder (absent in a user's clone). */
const SARIF_SCHEMA = join(__dirname, '..', '..', '..', '..', 'shared', 'schemas', 'sarif-schema-2.1.0.json');

/** The OASIS schema (draft-04) compiled with Ajv 8: `id` → `$id`, `$schema` dropped (no keyword it uses differs from draft-07). */
function sarifValidator() {
  const { $schema: _draft, id, ...rest } = JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8'));
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile({ ...rest, $id: id });
}

interface SarifRun {
  tool: { driver: { rules: { id: string; helpUri: string; fullDescription: { text: string; markdown: string }; help: { text: string; markdown: string } }[] } };
  columnKind: string;
  results: {
    ruleId: string;
    ruleIndex: number;
    level: string;
    locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn: number; endLine: number; endColumn: number } } }[];
    fixes?: { artifactChanges: { replacements: { deletedRegion: { startColumn: number }; insertedContent: { text: string } }[] }[]; properties: { safety: string } }[];
  }[];
}

describe('output formats', () => {
  describe('sarif', function () {
    let validate: ReturnType<typeof sarifValidator>;
    before(function () {
      if (!existsSync(SARIF_SCHEMA)) {
        console.log(`      skipped: ${SARIF_SCHEMA} is absent (it comes with ../shared)`);
        this.skip();
      }
      validate = sarifValidator();
    });

    it('the official schema rejects what SARIF 2.1.0 forbids', () => {
      assert.equal(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'fatal' }] }] }), false);
      assert.equal(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] }), false);
      assert.equal(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, columnKind: 'bytes' }] }), false);
      assert.equal(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [] }] }), true);
    });

    it('is valid SARIF 2.1.0 with rules, UTF-16 regions and fixes', async () => {
      const ws = workspace({
        '.env': `# 中文注释\r\nOPENAI_BASE_URL=${DUP}?utm_source=chat\r\n`,
        'dir with space/配置.yaml': `名称: 测试\nrollout: {模型: m, base_url: ${DUP}}\n`,
        'big/x.env': 'X=1\n',
        'big/.rolloutlintrc.json': JSON.stringify({ maxFileBytes: 3 }),
      });
      try {
        const { code, out } = await runCli(ws.root, ['--format', 'sarif']);
        assert.equal(code, 1);
        const log = JSON.parse(out) as { version: string; runs: SarifRun[] };
        const valid = validate(log);
        assert.ok(valid, JSON.stringify(validate.errors, null, 2));
        const [run] = log.runs;
        assert.equal(run.columnKind, 'utf16CodeUnits');
        // the rules the results name, in registry order (not all of them: each carries its whole docs page)
        const named = new Set(run.results.map((r) => r.ruleId));
        assert.deepEqual(run.tool.driver.rules.map((r) => r.id), RULES.map((r) => r.meta.id).filter((id) => named.has(id)));
        assert.ok(run.tool.driver.rules.length >= 2);
        for (const r of run.tool.driver.rules) {
          assert.equal(r.helpUri, docsUrl(r.id));
          const page = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'rules', `${r.id}.md`), 'utf8');
          assert.equal(r.help.markdown, page, `${r.id}: help is the docs page`);
          assert.ok(r.help.text.length > 0 && r.fullDescription.text.length > 0 && r.fullDescription.markdown.length > 0, r.id);
          assert.ok(page.includes(r.fullDescription.markdown), `${r.id}: fullDescription comes from "What it catches"`);
          assert.doesNotMatch(r.fullDescription.text, /\]\(|`/, `${r.id}: fullDescription.text is plain text`);
        }
        assert.doesNotMatch(out, new RegExp(ws.root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the log records no absolute local path');
        assert.deepEqual(Object.keys((log.runs[0] as unknown as { originalUriBaseIds: object }).originalUriBaseIds), ['%SRCROOT%']);
        for (const r of run.results) assert.equal(run.tool.driver.rules[r.ruleIndex].id, r.ruleId);

        const yaml = run.results.find((r) => r.locations[0].physicalLocation.artifactLocation.uri.endsWith('.yaml'))!;
        assert.equal(yaml.locations[0].physicalLocation.artifactLocation.uri, 'dir%20with%20space/%E9%85%8D%E7%BD%AE.yaml');
        assert.equal('rollout: {模型: m, base_url: '.length + 1, 28, 'UTF-16 columns: each CJK character counts one');
        assert.deepEqual(yaml.locations[0].physicalLocation.region, { startLine: 2, startColumn: 28, endLine: 2, endColumn: 28 + DUP.length });

        const env = run.results.filter((r) => r.locations[0].physicalLocation.artifactLocation.uri === '.env');
        assert.deepEqual(env.map((r) => r.ruleId).sort(), ['base-url-duplicate-v1', 'base-url-query-string']);
        const tracking = env.find((r) => r.ruleId === 'base-url-query-string')!;
        assert.equal(tracking.level, 'error');
        assert.equal(tracking.fixes![0].properties.safety, 'safe');
        assert.deepEqual(tracking.fixes![0].artifactChanges[0].replacements, [
          { deletedRegion: { startLine: 2, startColumn: 17 + DUP.length, endLine: 2, endColumn: 17 + DUP.length + '?utm_source=chat'.length }, insertedContent: { text: '' } },
        ]);

        const skipped = run.results.find((r) => r.ruleId === 'skipped-file')!;
        assert.equal(skipped.locations[0].physicalLocation.region, undefined);
      } finally {
        ws.cleanup();
      }
    });

    it('is valid with no results', async () => {
      const ws = workspace({ '.env': 'OPENAI_BASE_URL=https://api.openai.com/v1\n' });
      try {
        const { code, out } = await runCli(ws.root, ['--format', 'sarif']);
        assert.equal(code, 0);
        const log = JSON.parse(out) as { runs: SarifRun[] };
        const valid = validate(log);
        assert.ok(valid, JSON.stringify(validate.errors));
        assert.deepEqual(log.runs[0].results, []);
      } finally {
        ws.cleanup();
      }
    });
  });

  describe('github', () => {
    it('prints one workflow command per finding with 1-based positions and the rule id as title', async () => {
      const ws = workspace({ 'a,b:c.env': `X=1\nOPENAI_BASE_URL=${DUP}?q=%20\n` });
      try {
        const { code, out } = await runCli(ws.root, ['--format', 'github']);
        assert.equal(code, 1);
        const end = 17 + DUP.length + '?q=%20'.length;
        assert.deepEqual(out.split('\n'), [
          `::error file=a%2Cb%3Ac.env,line=2,col=17,endLine=2,endColumn=${end},title=base-url-duplicate-v1::base URL "${DUP}?q=%2520" repeats /v1/v1; requests will 404`,
          `::warning file=a%2Cb%3Ac.env,line=2,col=17,endLine=2,endColumn=${end},title=base-url-query-string::base URL "${DUP}?q=%2520" has a query string (q); clients append paths after it, so requests will likely 404`,
          '',
        ]);
      } finally {
        ws.cleanup();
      }
    });

    it('escapes data and properties as @actions/core does', () => {
      assert.equal(escapeData('100% done\r\nnext: a, b'), '100%25 done%0D%0Anext: a, b');
      assert.equal(escapeProperty('dir:a,b%\n.env'), 'dir%3Aa%2Cb%25%0A.env');
    });

    it('leaves out col and endColumn for ranges spanning lines, and maps hints to notices', () => {
      const result: FileResult = {
        absPath: '/w/x.yaml',
        relPath: 'x.yaml',
        format: 'yaml',
        text: 'a:\n  b: 1\n',
        failures: [],
        findings: [
          { ruleId: 'parse-error', severity: 'hint', messageId: 'parse', data: {}, message: 'line one\nline two', range: { start: 0, end: 8 }, fixes: [] },
        ],
      };
      const out = formatGithub({ results: [result], includeHints: true, quiet: false, color: false, root: '/w' });
      assert.equal(out, '::notice file=x.yaml,line=1,endLine=2,title=parse-error::line one%0Aline two\n');
      assert.equal(formatGithub({ results: [result], includeHints: false, quiet: false, color: false, root: '/w' }), '');
    });
  });

  describe('text', () => {
    const files = {
      '.env': `OPENAI_BASE_URL=${DUP}\nOTHER_BASE_URL=https://api.openai.com/v1?x=1\n`,
    };

    it('prints path:line:col, severity, message, rule id, the source line and a caret line', async () => {
      const ws = workspace(files);
      try {
        const { out } = await runCli(ws.root, []);
        assert.deepEqual(out.split('\n').slice(0, 3), [
          `.env:1:17: error: base URL "${DUP}" repeats /v1/v1; requests will 404 [base-url-duplicate-v1] [*]`,
          `  OPENAI_BASE_URL=${DUP}`,
          `  ${' '.repeat(16)}${'^'.repeat(DUP.length)}`,
        ]);
        assert.match(out, /\[base-url-query-string\]\n/, 'a finding with only an unsafe fix has no [*]');
        assert.match(out, /✖ 2 problems \(1 error, 1 warning\)\n\[\*\] 1 fixable with --fix \(1 more with --fix-unsafe, which may change meaning: review them\)\n$/);
      } finally {
        ws.cleanup();
      }
    });

    it('--quiet prints errors only', async () => {
      const ws = workspace(files);
      try {
        const { code, out } = await runCli(ws.root, ['--quiet']);
        assert.equal(code, 1);
        assert.doesNotMatch(out, /warning:|base-url-query-string/);
        assert.match(out, /\[base-url-duplicate-v1\]/);
        assert.match(out, /✖ 1 problem \(1 error, 0 warnings\)/);
      } finally {
        ws.cleanup();
      }
    });

    it('aligns carets under CJK text and CRLF lines', async () => {
      const py = `from openai import OpenAI\r\n客户端 = OpenAI(base_url="${DUP}")  # 中文\r\n`;
      const ws = workspace({ 'a.py': py });
      try {
        const { out } = await runCli(ws.root, ['a.py']);
        const lines = out.split('\n');
        assert.equal(lines[0].split(': error:')[0], `a.py:2:${'客户端 = OpenAI(base_url="'.length + 1}`);
        assert.equal(lines[1], `  客户端 = OpenAI(base_url="${DUP}")  # 中文`);
        assert.equal(lines[2], `  ${' '.repeat(6 + ' = OpenAI(base_url="'.length)}${'^'.repeat(DUP.length)}`);
        assert.ok(!out.includes('\r'));
      } finally {
        ws.cleanup();
      }
    });

    it('colours only on a TTY without NO_COLOR or --no-color', async () => {
      const ws = workspace(files);
      try {
        assert.match((await runCli(ws.root, [], { isTTY: true })).out, /\x1b\[31m/);
        assert.doesNotMatch((await runCli(ws.root, [], { isTTY: false })).out, /\x1b\[/);
        assert.doesNotMatch((await runCli(ws.root, [], { isTTY: true, env: { NO_COLOR: '1' } })).out, /\x1b\[/);
        assert.doesNotMatch((await runCli(ws.root, ['--no-color'], { isTTY: true })).out, /\x1b\[/);
      } finally {
        ws.cleanup();
      }
    });
  });

  describe('options', () => {
    it('--rule runs only the named rules and rejects unknown ids with exit 2', async () => {
      const ws = workspace({ '.env': `OPENAI_BASE_URL=${DUP}?utm_source=x\n` });
      try {
        const only = await runCli(ws.root, ['--rule', 'base-url-query-string', '--format', 'json']);
        assert.deepEqual(JSON.parse(only.out)[0].messages.map((m: { ruleId: string }) => m.ruleId), ['base-url-query-string']);
        const both = await runCli(ws.root, ['--rule', 'base-url-query-string', '--rule', 'base-url-duplicate-v1', '--format', 'json']);
        assert.deepEqual(JSON.parse(both.out)[0].messages.map((m: { ruleId: string }) => m.ruleId).sort(), ['base-url-duplicate-v1', 'base-url-query-string']);
        const bad = await runCli(ws.root, ['--rule', 'base-url-dupe']);
        assert.equal(bad.code, 2);
        assert.match(bad.err, /unknown rule id base-url-dupe/);
      } finally {
        ws.cleanup();
      }
    });

    it('--max-warnings decides the exit code when there are only warnings', async () => {
      const ws = workspace({ '.env': 'A_BASE_URL=https://api.openai.com/v1?x=1\nB_BASE_URL=https://api.openai.com/v1?y=2\n' });
      try {
        assert.equal((await runCli(ws.root, [])).code, 0);
        assert.equal((await runCli(ws.root, ['--max-warnings', '2'])).code, 0);
        assert.equal((await runCli(ws.root, ['--max-warnings', '1'])).code, 1);
        assert.equal((await runCli(ws.root, ['--max-warnings', 'x'])).code, 2);
      } finally {
        ws.cleanup();
      }
    });

    it('--report-unused-disable-directives reports directives that suppress nothing, and --fix removes them', async () => {
      const text = `# rollout-lint-disable-next-line base-url-duplicate-v1\nOPENAI_BASE_URL=https://api.openai.com/v1\n`;
      const ws = workspace({ '.env': text });
      try {
        assert.equal((await runCli(ws.root, [])).out, '');
        const reported = await runCli(ws.root, ['--report-unused-disable-directives']);
        assert.equal(reported.code, 0);
        assert.match(reported.out, /\.env:1:3: warning: unused rollout-lint-disable-next-line: no base-url-duplicate-v1 problem was reported where it applies \[disable-directive\]/);
        await runCli(ws.root, ['--report-unused-disable-directives', '--fix']);
        assert.equal(readFileSync(join(ws.root, '.env'), 'utf8'), 'OPENAI_BASE_URL=https://api.openai.com/v1\n');
      } finally {
        ws.cleanup();
      }
    });
  });

  describe('rollout-lint rules', () => {
    it('--json lists every registered rule with summary, default severity, fixability, formats and docs URL', async () => {
      const { code, out } = await runCli(process.cwd(), ['rules', '--json']);
      assert.equal(code, 0);
      assert.deepEqual(
        JSON.parse(out),
        RULES.map((r) => ({ id: r.meta.id, summary: r.meta.title, defaultSeverity: r.meta.defaultSeverity, fixable: r.meta.fixable, formats: [...r.meta.formats], docsUrl: docsUrl(r.meta.id) })),
      );
    });

    it('prints one line per rule without --json', async () => {
      const { code, out } = await runCli(process.cwd(), ['rules']);
      assert.equal(code, 0);
      const [table, footer] = out.trimEnd().split('\n\n');
      assert.deepEqual(table.split('\n').map((l) => l.split(/\s+/)[0]), RULES.map((r) => r.meta.id));
      assert.match(table, /^base-url-duplicate-v1 +error +safe +all +Base URL/m);
      assert.match(footer, /^Docs: https:\/\/.*\/docs\/rules\/<rule-id>\.md$/);
    });
  });
});

describe('output formats (issue 17)', () => {
  const HINTED = 'OPENAI_BASE_URL=https://taotoken.net/api\n';

  it('json: hints are marked and kept out of ESLint\'s counts', async () => {
    const ws = workspace({ '.env': `${HINTED}OTHER_BASE_URL=https://api.openai.com/v1?x=1\n` });
    try {
      const { out } = await runCli(ws.root, ['--format', 'json', '--include-hints']);
      const [result] = JSON.parse(out) as { messages: { ruleId: string; severity: number; hint?: boolean }[]; warningCount: number; errorCount: number; fixableWarningCount: number }[];
      const hints = result.messages.filter((m) => m.hint);
      const warnings = result.messages.filter((m) => !m.hint && m.severity === 1);
      assert.ok(hints.length >= 1, JSON.stringify(result.messages));
      for (const h of hints) assert.equal(h.severity, 1, 'ESLint knows severity 1 and 2 only');
      assert.equal(result.warningCount, warnings.length);
      assert.equal(result.errorCount, 0);
      const without = JSON.parse((await runCli(ws.root, ['--format', 'json'])).out)[0];
      assert.equal(without.warningCount, result.warningCount, '--include-hints changes no count');
      assert.ok(!without.messages.some((m: { hint?: boolean }) => m.hint));
    } finally {
      ws.cleanup();
    }
  });

  it('gitlab: Code Quality issues with rule, severity, repository-relative path, lines and stable fingerprints', async () => {
    const ws = workspace({ 'cfg/.env': `OPENAI_BASE_URL=${DUP}\n\nB_BASE_URL=${DUP}\n`, 'ok.env': 'OPENAI_BASE_URL=https://api.openai.com/v1\n' });
    execFileSync('git', ['init', '-q', ws.root]);
    try {
      const { code, out } = await runCli(join(ws.root, 'cfg'), ['--format', 'gitlab', '..']);
      assert.equal(code, 1);
      const issues = JSON.parse(out) as { description: string; check_name: string; fingerprint: string; severity: string; location: { path: string; lines: { begin: number; end: number } } }[];
      assert.deepEqual(issues.map((i) => [i.check_name, i.severity, i.location.path, i.location.lines.begin]), [
        ['base-url-duplicate-v1', 'critical', 'cfg/.env', 1],
        ['base-url-duplicate-v1', 'critical', 'cfg/.env', 3],
      ]);
      assert.match(issues[0].description, /repeats \/v1\/v1/);
      assert.match(issues[0].fingerprint, /^[0-9a-f]{64}$/);
      assert.notEqual(issues[0].fingerprint, issues[1].fingerprint);
      writeFileSync(join(ws.root, 'cfg', '.env'), `# moved down\nOPENAI_BASE_URL=${DUP}\n\nB_BASE_URL=${DUP}\n`);
      const moved = JSON.parse((await runCli(ws.root, ['--format', 'gitlab'])).out) as typeof issues;
      assert.deepEqual(moved.map((i) => i.fingerprint), issues.map((i) => i.fingerprint), 'fingerprints survive moved lines and another working directory');
      assert.deepEqual(JSON.parse((await runCli(ws.root, ['--format', 'gitlab', 'ok.env'])).out), []);
    } finally {
      ws.cleanup();
    }
  });
});
