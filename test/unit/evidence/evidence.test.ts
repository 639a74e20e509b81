import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_CONFIG, mergeConfig, type LintConfig } from '../../../server/src/core/config/config';
import { fileEvidence } from '../../../server/src/core/evidence/file';
import { llmKeyEvidence } from '../../../server/src/core/evidence/key';
import { lowerSeverity, severityCap } from '../../../server/src/core/evidence/evidence';
import { EVIDENCE_MESSAGES } from '../../../server/src/core/evidence/messages';
import { lintDocument } from '../../../server/src/core/lint';
import { loadGrammars } from '../../../server/src/node/grammars';
import { extract } from '../../../server/src/core/formats/index';
import { resolve } from '../../../server/src/core/resolve/resolve';
import { formatJson } from '../../../server/src/cli/format/json';
import { lintInWorkspace } from '../../support/lint';

async function lint(path: string, text: string, config: LintConfig = DEFAULT_CONFIG, locale: 'en' | 'zh-CN' = 'en') {
  return lintDocument({ path, text }, { grammars: await loadGrammars(), config, locale }).findings;
}

async function keyEvidence(path: string, text: string, key: string) {
  const extraction = extract(path.endsWith('.py') ? 'python' : path.endsWith('.sh') ? 'shell' : path.endsWith('.yaml') ? 'yaml' : 'dotenv', text, path, await loadGrammars());
  const resolution = resolve(extraction, DEFAULT_CONFIG);
  const setting = resolution.byRole('apiKey').find((s) => s.key === key);
  assert.ok(setting, `no key setting ${key}`);
  return llmKeyEvidence(setting, resolution);
}

describe('evidence model', () => {
  describe('file kinds', () => {
    const cases: [string, string][] = [
      ['tests/test_agent/test_adapters.py', 'test'],
      ['pkg/tests/data/config.yaml', 'test'],
      ['src/test_client.py', 'test'],
      ['src/client_test.py', 'test'],
      ['conftest.py', 'test'],
      ['recordings/cassettes/chat.yaml', 'test'],
      ['app/fixtures/openai.json', 'test'],
      ['web/src/api.test.ts.json', 'test'],
      ['.env.example', 'template'],
      ['config.sample.yaml', 'template'],
      ['rollout/policy_serving.py', 'source'],
      ['examples/gspo_trainer/test_gspo_3b_math.sh', 'tutorial'],
      ['cookbook/guardrails/chatbot.ipynb', 'tutorial'],
      ['examples/app/.env', 'source'],
      ['examples/app/.env.example', 'template'],
      ['notebooks_util/run.ipynb', 'source'],
      ['contest/run.py', 'source'],
    ];
    for (const [path, kind] of cases) it(`${path} → ${kind}`, () => assert.equal(fileEvidence(path, DEFAULT_CONFIG).kind, kind));

    it('test globs are configurable; [] treats no file as a test', () => {
      assert.equal(fileEvidence('qa/run.py', mergeConfig({ testGlobs: ['qa/**'] })).kind, 'test');
      assert.equal(fileEvidence('tests/run.py', mergeConfig({ testGlobs: [] })).kind, 'source');
    });
  });

  describe('which keys are LLM endpoint keys', () => {
    it('a vendor name is proven; WANDB, search and GitHub keys are not LLM keys', async () => {
      const text = 'OPENAI_API_KEY=x\nWANDB_API_KEY=x\nGOOGLE_SEARCH_API_KEY=x\nGITHUB_AUTH_TOKEN=x\nJUDGE_API_KEY=x\n';
      assert.equal((await keyEvidence('.env', text, 'OPENAI_API_KEY'))?.strength, 'proven');
      assert.equal((await keyEvidence('.env', text, 'JUDGE_API_KEY'))?.strength, 'proven');
      assert.equal(await keyEvidence('.env', text, 'WANDB_API_KEY'), undefined);
      assert.equal(await keyEvidence('.env', text, 'GOOGLE_SEARCH_API_KEY'), undefined);
      assert.equal(await keyEvidence('.env', text, 'GITHUB_AUTH_TOKEN'), undefined);
    });

    it('beside a base URL or passed to an LLM client: proven; a generic name alone: plausible', async () => {
      assert.equal((await keyEvidence('a.yaml', 'svc:\n  base_url: http://h/v1\n  api_key: k\n', 'api_key'))?.id, 'key.sameBlock');
      assert.equal((await keyEvidence('a.py', 'from openai import OpenAI\nc = OpenAI(api_key="k")\n', 'api_key'))?.id, 'key.client');
      assert.equal((await keyEvidence('a.sh', 'python eval.py --api-key k\n', '--api-key'))?.strength, 'plausible');
      assert.equal((await keyEvidence('a.yaml', 'rollout:\n  api_key: k\n', 'api_key'))?.strength, 'known');
    });

    it('a dict entry of another service (search backend) is not an LLM key', async () => {
      assert.equal(await keyEvidence('a.py', 'CONFIG = {"google": {"api_key": "your_api_key_here"}}\n', 'api_key'), undefined);
    });
  });

  describe('severity follows evidence', () => {
    it('caps: proven → error, known → warning, plausible → hint', () => {
      assert.equal(severityCap('proven'), 'error');
      assert.equal(severityCap('known'), 'warning');
      assert.equal(severityCap('plausible'), 'hint');
      assert.equal(lowerSeverity('error', 'hint'), 'hint');
      assert.equal(lowerSeverity('warning', 'error'), 'warning');
    });

    it('a placeholder key with a vendor name is an error; with a generic flag only, a hint', async () => {
      const [vendor] = await lint('run.sh', 'export OPENAI_API_KEY=your-api-key-here\n');
      assert.equal(vendor.severity, 'error');
      const [generic] = await lint('run.sh', 'python eval.py --api-key your-api-key-here\n');
      assert.equal(generic.severity, 'hint');
    });

    it('test code: values there are fake on purpose, nothing is reported; testGlobs [] turns that off', async () => {
      const text = 'export OPENAI_API_KEY=your-api-key-here\nexport OPENAI_BASE_URL=api.openai.com/v1\n';
      assert.deepEqual(await lint('tests/run.sh', text), []);
      const off = await lint('tests/run.sh', text, mergeConfig({ testGlobs: [] }));
      assert.deepEqual(off.map((f) => `${f.ruleId} ${f.severity}`), ['api-key-placeholder error', 'base-url-missing-scheme error']);
    });

    it('an explicit rule level does not lift a finding above its evidence', async () => {
      const [f] = await lint('run.sh', 'python eval.py --api-key your-api-key-here\n', mergeConfig({ rules: { 'api-key-placeholder': 'error' } }));
      assert.equal(f.severity, 'hint');
    });
  });

  describe('every finding carries one line of evidence', () => {
    it('in both locales, for every message id', () => {
      assert.deepEqual(Object.keys(EVIDENCE_MESSAGES['zh-CN']).sort(), Object.keys(EVIDENCE_MESSAGES.en).sort());
    });

    it('derived and rule-given lines are one line, in the run\'s language', async () => {
      const text = 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\nOPENAI_API_KEY=YOUR_API_KEY\n';
      for (const locale of ['en', 'zh-CN'] as const) {
        const findings = await lint('.env', text, DEFAULT_CONFIG, locale);
        assert.ok(findings.length >= 2);
        for (const f of findings) {
          assert.ok(f.evidence && !f.evidence.includes('\n'), `${f.ruleId} has no one-line evidence`);
          if (locale === 'zh-CN') assert.match(f.evidence, /[\u4e00-\u9fff]/);
        }
      }
    });

    it('--format json puts it on every message', async () => {
      const root = mkdtempSync(join(tmpdir(), 'rollout-lint-evidence-'));
      try {
        const rel = 'cfg/.env';
        mkdirSync(dirname(join(root, rel)), { recursive: true });
        writeFileSync(join(root, rel), 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\nOPENAI_API_KEY=YOUR_API_KEY\n');
        const result = await lintInWorkspace(root, rel);
        const json = JSON.parse(formatJson({ results: [result], includeHints: true, quiet: false, color: false, root, locale: 'en' }));
        const messages = json[0].messages as { ruleId: string; evidence?: string }[];
        assert.ok(messages.length >= 2);
        for (const m of messages) assert.ok(m.evidence, `${m.ruleId} message has no evidence`);
        assert.match(messages.find((m) => m.ruleId === 'api-key-placeholder')!.evidence!, /OPENAI_API_KEY is an LLM endpoint key: its name names openai/);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });
});
