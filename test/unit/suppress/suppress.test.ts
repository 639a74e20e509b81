import assert from 'node:assert/strict';
import { mergeConfig, type LintConfig } from '../../../server/src/core/config/config';
import { applyEdits } from '../../../server/src/core/fix';
import { lintDocument } from '../../../server/src/core/lint';
import type { Finding } from '../../../server/src/core/model/types';
import { LineIndex } from '../../../server/src/core/positions';
import type { Grammars } from '../../../server/src/core/formats/treesitter';
import { loadGrammars } from '../../../server/src/node/grammars';

const DUP = 'https://api.openai.com/v1/v1';
const RULE = 'base-url-duplicate-v1';

let grammars: Grammars;
before(async () => {
  grammars = await loadGrammars();
});

interface Options {
  reportUnused?: boolean;
  config?: Partial<LintConfig>;
  onlyRules?: string[];
}

function lint(path: string, text: string, options: Options = {}): Finding[] {
  return lintDocument(
    { path, text },
    { grammars, config: mergeConfig(options.config ?? {}), onlyRules: options.onlyRules, reportUnusedDisableDirectives: options.reportUnused },
  ).findings;
}

/** `line:rule-id` (1-based line) for each finding, in order. */
function summary(text: string, findings: Finding[]): string[] {
  const index = new LineIndex(text);
  return findings.map((f) => `${index.positionAt(f.range.start).line + 1}:${f.ruleId}`);
}

function messageIds(findings: Finding[]): string[] {
  return findings.filter((f) => f.ruleId === 'disable-directive').map((f) => f.messageId);
}

describe('suppression directives', () => {
  describe('rollout-lint-disable-next-line', () => {
    it('covers the named rule on the next line only (dotenv)', () => {
      const text = `# rollout-lint-disable-next-line ${RULE}\nOPENAI_BASE_URL=${DUP}\nOTHER_BASE_URL=${DUP}\n`;
      assert.deepEqual(summary(text, lint('.env', text)), [`3:${RULE}`]);
    });

    it('without ids covers every rule', () => {
      const text = `# rollout-lint-disable-next-line\nOPENAI_BASE_URL=${DUP}?utm_source=chat\n`;
      assert.deepEqual(lint('.env', text), []);
    });

    it('does not cover rules it does not name', () => {
      const text = `# rollout-lint-disable-next-line api-key-empty\nOPENAI_BASE_URL=${DUP}\n`;
      assert.deepEqual(summary(text, lint('.env', text)), [`2:${RULE}`]);
    });

    it('accepts comma and space separated ids and a -- reason', () => {
      const text = `# rollout-lint-disable-next-line api-key-empty,base-url-query-string ${RULE} -- staging proxy rewrites this\nOPENAI_BASE_URL=${DUP}?utm_source=x\n`;
      assert.deepEqual(lint('.env', text), []);
    });

    it('works in YAML, Python, shell and JSON comments', () => {
      const cases: [string, string][] = [
        ['c.yaml', `rollout:\n  # rollout-lint-disable-next-line ${RULE}\n  base_url: ${DUP}\n`],
        ['a.py', `from openai import OpenAI\n# rollout-lint-disable-next-line ${RULE}\nclient = OpenAI(base_url="${DUP}")\n`],
        ['run.sh', `# rollout-lint-disable-next-line ${RULE}\nexport OPENAI_BASE_URL=${DUP}\n`],
        ['openclaw.json', `{\n  "models": {"providers": {"x": {\n    // rollout-lint-disable-next-line ${RULE}\n    "baseUrl": "${DUP}", "api": "openai-completions"}}}\n}\n`],
      ];
      for (const [path, text] of cases) {
        assert.deepEqual(summary(text, lint(path, text)), [], path);
        const without = text.replace(/^.*rollout-lint-disable-next-line.*\n/m, '');
        assert.equal(lint(path, without).filter((f) => f.ruleId === RULE).length, 1, `${path} without the directive`);
      }
    });

    it('in shell, above the first line of a continued command covers the whole command', () => {
      const text = `#!/bin/bash\n# rollout-lint-disable-next-line ${RULE}\npython train.py \\\n  --model m \\\n  --base-url ${DUP} \\\n  --seed 1\nexport OPENAI_BASE_URL=${DUP}\n`;
      assert.deepEqual(summary(text, lint('run.sh', text)), [`7:${RULE}`]);
    });

    it('in shell, a line that does not continue covers only itself', () => {
      const text = `# rollout-lint-disable-next-line ${RULE}\nexport OPENAI_BASE_URL=${DUP}\nexport ANTHROPIC_BASE_URL=${DUP}\n`;
      assert.deepEqual(summary(text, lint('run.sh', text)), [`3:${RULE}`]);
    });

    it('must be on a line of its own', () => {
      const text = `rollout:\n  model: m  # rollout-lint-disable-next-line ${RULE}\n  base_url: ${DUP}\n`;
      const findings = lint('c.yaml', text);
      assert.deepEqual(summary(text, findings), [`2:disable-directive`, `3:${RULE}`]);
      assert.deepEqual(messageIds(findings), ['notOwnLine']);
    });

    it('a string that looks like a directive is not a comment', () => {
      const text = `from openai import OpenAI\nnote = "# rollout-lint-disable-next-line"\nclient = OpenAI(base_url="${DUP}")\n`;
      assert.deepEqual(summary(text, lint('a.py', text)), [`3:${RULE}`]);
    });
  });

  describe('rollout-lint-disable-line', () => {
    it('trails code in YAML and Python', () => {
      const yaml = `rollout:\n  base_url: ${DUP}  # rollout-lint-disable-line ${RULE}\n  other_base_url: ${DUP}\n`;
      assert.deepEqual(summary(yaml, lint('c.yaml', yaml)), [`3:${RULE}`]);
      const py = `from openai import OpenAI\nclient = OpenAI(base_url="${DUP}")  # rollout-lint-disable-line\n`;
      assert.deepEqual(lint('a.py', py), []);
    });

    it('is rejected in dotenv, shell and JSON, and suppresses nothing there', () => {
      const cases: [string, string][] = [
        ['.env', `# rollout-lint-disable-line ${RULE}\nOPENAI_BASE_URL=${DUP}\n`],
        ['run.sh', `export OPENAI_BASE_URL=${DUP} # rollout-lint-disable-line ${RULE}\n`],
        ['openclaw.json', `{"models": {"providers": {"x": {"baseUrl": "${DUP}", "api": "openai-completions"}}}} // rollout-lint-disable-line\n`],
      ];
      for (const [path, text] of cases) {
        const findings = lint(path, text);
        assert.deepEqual(messageIds(findings), ['lineFormat'], path);
        assert.equal(findings.filter((f) => f.ruleId === RULE).length, 1, path);
      }
    });

    it('on a line of its own is reported and suppresses nothing', () => {
      const text = `rollout:\n  # rollout-lint-disable-line ${RULE}\n  base_url: ${DUP}\n`;
      const findings = lint('c.yaml', text);
      assert.deepEqual(messageIds(findings), ['lineAlone']);
      assert.deepEqual(summary(text, findings.filter((f) => f.ruleId === RULE)), [`3:${RULE}`]);
    });
  });

  describe('rollout-lint-disable-file', () => {
    it('in the first five lines covers the whole file', () => {
      const text = `#!/bin/bash\n\n\n\n# rollout-lint-disable-file ${RULE}\nexport OPENAI_BASE_URL=${DUP}\n\n\npython t.py --base-url ${DUP}\n`;
      assert.deepEqual(lint('run.sh', text), []);
    });

    it('after line five is reported and suppresses nothing', () => {
      const text = `A=1\nB=2\nC=3\nD=4\nE=5\n# rollout-lint-disable-file\nOPENAI_BASE_URL=${DUP}\n`;
      const findings = lint('.env', text);
      assert.deepEqual(summary(text, findings), ['6:disable-directive', `7:${RULE}`]);
      assert.deepEqual(messageIds(findings), ['fileTooLate']);
    });
  });

  describe('directive problems', () => {
    it('reports unknown ids without --report-unused-disable-directives, pointing at the id', () => {
      const text = `# rollout-lint-disable-next-line ${RULE}, base-url-dupe\nOPENAI_BASE_URL=${DUP}\n`;
      const findings = lint('.env', text);
      assert.deepEqual(messageIds(findings), ['unknownRule']);
      const f = findings[0];
      assert.equal(f.severity, 'warning');
      assert.equal(text.slice(f.range.start, f.range.end), 'base-url-dupe');
    });

    it('reports a misspelt directive word but ignores other rollout-lint commands in comments', () => {
      const text = `# rollout-lint-disable ${RULE}\n# rollout-lint-server --stdio\nOPENAI_BASE_URL=${DUP}\n`;
      const findings = lint('run.sh', `${text}`);
      assert.deepEqual(messageIds(findings), ['unknownDirective']);
      assert.equal(findings.filter((f) => f.ruleId === RULE).length, 1);
    });

    it('reports unused directives only when asked, with a safe fix that removes the line', () => {
      const text = `A=1\r\n# rollout-lint-disable-next-line ${RULE}\r\nMODEL_NAME=m\r\n`;
      assert.deepEqual(lint('.env', text), []);
      const findings = lint('.env', text, { reportUnused: true });
      assert.deepEqual(messageIds(findings), ['unused']);
      const fix = findings[0].fixes[0];
      assert.equal(fix.safety, 'safe');
      assert.equal(applyEdits(text, fix.edits), 'A=1\r\nMODEL_NAME=m\r\n');
    });

    it('reports an unused id of a partly used directive and removes just that id', () => {
      const text = `# rollout-lint-disable-next-line ${RULE}, api-key-empty\nOPENAI_BASE_URL=${DUP}\n`;
      const findings = lint('.env', text, { reportUnused: true });
      assert.deepEqual(messageIds(findings), ['unused']);
      assert.equal(text.slice(findings[0].range.start, findings[0].range.end), 'api-key-empty');
      assert.equal(applyEdits(text, findings[0].fixes[0].edits), `# rollout-lint-disable-next-line ${RULE}\nOPENAI_BASE_URL=${DUP}\n`);
    });

    it('reports an unused trailing directive and removes only the comment', () => {
      const text = `rollout:\n  model: m  # rollout-lint-disable-line\n`;
      const findings = lint('c.yaml', text, { reportUnused: true });
      assert.deepEqual(messageIds(findings), ['unusedAll']);
      assert.equal(applyEdits(text, findings[0].fixes[0].edits), 'rollout:\n  model: m\n');
    });

    it('never calls a directive unused for rules that did not run (off, or outside --rule)', () => {
      const text = `# rollout-lint-disable-next-line api-key-empty\nA=1\n`;
      assert.deepEqual(lint('.env', text, { reportUnused: true, config: { rules: { 'api-key-empty': 'off' } } }), []);
      assert.deepEqual(lint('.env', text, { reportUnused: true, onlyRules: [RULE, 'disable-directive'] }), []);
      assert.deepEqual(messageIds(lint('.env', text, { reportUnused: true })), ['unused']);
    });

    it('follows the configured level of disable-directive, and off silences it', () => {
      const text = `# rollout-lint-disable-next-line nope\nA=1\n`;
      assert.equal(lint('.env', text, { config: { rules: { 'disable-directive': 'error' } } })[0].severity, 'error');
      assert.deepEqual(lint('.env', text, { config: { rules: { 'disable-directive': 'off' } } }), []);
      assert.deepEqual(lint('.env', text, { onlyRules: [RULE] }), []);
    });

    it('directive problems are suppressed only by directives naming disable-directive', () => {
      const named = `# rollout-lint-disable-file disable-directive\n# rollout-lint-disable-next-line nope\nA=1\n`;
      assert.deepEqual(lint('.env', named), []);
      const all = `# rollout-lint-disable-file\n# rollout-lint-disable-next-line nope\nA=1\n`;
      assert.deepEqual(messageIds(lint('.env', all)), ['unknownRule']);
    });

    it('keeps ranges right after Chinese text, CRLF line breaks and a BOM', () => {
      const text = `\ufeff# 中文注释：测试\r\n# rollout-lint-disable-next-line 不是规则\r\nOPENAI_BASE_URL=${DUP}\r\n`;
      const outcome = lintDocument({ path: '.env', text }, { grammars });
      const problem = outcome.findings.find((f) => f.ruleId === 'disable-directive')!;
      assert.equal(outcome.document.text.slice(problem.range.start, problem.range.end), '不是规则');
      assert.equal(outcome.findings.filter((f) => f.ruleId === RULE).length, 1);
      const suppressed = text.replace('不是规则', RULE);
      assert.deepEqual(lintDocument({ path: '.env', text: suppressed }, { grammars }).findings, []);
    });
  });
});
