import assert from 'node:assert/strict';
import { parse } from 'dotenv';
import { lintDocument } from '../../../server/src/core/lint';
import type { WorkspaceFacts } from '../../../server/src/core/model/facts';
import { NO_FACTS } from '../../../server/src/core/model/facts';
import { isRepeatedBlock } from '../../../server/src/core/rules/api-key-committed';
import { isPlaceholderUrl, schemelessHost } from '../../../server/src/core/rules/url-shape';
import { isLocalHost } from '../../../server/src/core/model/hosts';
import { loadGrammars } from '../../../server/src/node/grammars';

const REAL = 'sk-test-0000aaaa1111bbbb2222cccc3333dddd4444eeee5555';

function factsWith(state: ReturnType<WorkspaceFacts['gitState']>): WorkspaceFacts {
  return { ...NO_FACTS, gitState: () => state };
}

async function lint(path: string, text: string, facts: WorkspaceFacts = NO_FACTS, onlyRules?: string[]) {
  return lintDocument({ path, text }, { grammars: await loadGrammars(), facts, onlyRules }).findings;
}

describe('api-key-committed and git state', () => {
  for (const [state, expected] of [
    ['tracked', ['api-key-committed:tracked']],
    ['exposed', ['api-key-committed:exposed']],
    ['ignored', []],
    ['unknown', []],
  ] as const) {
    it(`${state} → ${expected.length ? 'reported' : 'quiet'}`, async () => {
      const findings = await lint('.env', `OPENAI_API_KEY=${REAL}\n`, factsWith(state), ['api-key-committed']);
      assert.deepEqual(findings.map((f) => `${f.ruleId}:${f.messageId}`), expected);
    });
  }

  it('never shows the key, only its mask', async () => {
    for (const locale of ['en', 'zh-CN'] as const) {
      const [finding] = lintDocument({ path: '.env', text: `OPENAI_API_KEY=${REAL}\n` }, { grammars: await loadGrammars(), facts: factsWith('tracked'), locale, onlyRules: ['api-key-committed'] }).findings;
      assert.ok(!finding.message.includes(REAL.slice(8)), finding.message);
      assert.ok(finding.message.includes(locale === 'en' ? '5555, 52 chars' : '5555，52 个字符'), finding.message);
      assert.ok(!JSON.stringify(finding.data).includes(REAL.slice(8)));
    }
  });

  it('ignores near misses even in a tracked file', async () => {
    const text = [
      'OPENAI_API_KEY=sk-test-00000000000000000000000000000000',
      'ANTHROPIC_API_KEY=sk-ant-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      'DEEPSEEK_API_KEY=sk-test-abcd1234abcd1234abcd1234abcd1234',
      'OPENROUTER_API_KEY=${OPENROUTER_API_KEY}',
      'LOCAL_API_KEY=EMPTY',
      '',
    ].join('\n');
    const findings = await lint('.env', text, factsWith('tracked'), ['api-key-committed']);
    assert.deepEqual(findings, []);
  });

  it('exempts template files', async () => {
    for (const path of ['.env.example', '.env.sample', 'config.template.yaml']) {
      const text = path.endsWith('.yaml') ? `api_key: ${REAL}\n` : `OPENAI_API_KEY=${REAL}\n`;
      assert.deepEqual(await lint(path, text, factsWith('tracked'), ['api-key-committed']), [], path);
    }
  });

  it('isRepeatedBlock: periodic bodies only', () => {
    assert.equal(isRepeatedBlock('sk-test-abcd1234abcd1234abcd1234abcd1234'), true);
    assert.equal(isRepeatedBlock('sk-0123456789abcdef0123456789abcdef'), true);
    assert.equal(isRepeatedBlock(REAL), false);
    assert.equal(isRepeatedBlock('sk-test-7Hq2Lm9Xv4Rb8Nc1Tw6Yz3Kd5Pf0Gj2'), false);
  });
});

describe('dotenv-duplicate-key and the installed dotenv', () => {
  it('npm dotenv parse() keeps the last definition (the premise of the rule)', () => {
    assert.deepEqual(parse('A=first\nB=x\nA=second\n'), { A: 'second', B: 'x' });
  });

  it('reports every dead line, with the line that wins', async () => {
    const findings = await lint('.env', 'A=1\nA=2\nB=0\nA=3\n', NO_FACTS, ['dotenv-duplicate-key']);
    assert.deepEqual(findings.map((f) => [f.range.start, f.data.line]), [[0, 4], [4, 4]]);
  });

  it('names the loaders when they disagree', async () => {
    const [finding] = await lint('.env', 'A=1\nexport A=2\n', NO_FACTS, ['dotenv-duplicate-key']);
    assert.equal(finding.messageId, 'split');
    assert.match(finding.message, /line 1 for docker --env-file; line 2 for Node dotenv/);
  });
});

describe('base URL shapes', () => {
  it('placeholders', () => {
    for (const v of ['<HOST_IP>', 'http://<HOST_IP>:30000/v1', 'YOUR_BASE_URL', 'https://your-resource.openai.azure.com', 'http://x.x.x.x:port/v1', 'http://HOST:PORT/v1', 'http://SERVER_IP:8000/v1', 'changeme']) {
      assert.equal(isPlaceholderUrl(v), true, v);
    }
    for (const v of ['http://127.0.0.1:30000/v1', 'https://api.example.com/v1', 'http://sglang-router:30000', 'http://{host}:{port}/v1', 'http://localhost:8000']) {
      assert.equal(isPlaceholderUrl(v), false, v);
    }
  });

  it('scheme-less hosts', () => {
    assert.equal(schemelessHost('api.example.com/v1'), 'api.example.com');
    assert.equal(schemelessHost('127.0.0.1:30000/v1'), '127.0.0.1');
    assert.equal(schemelessHost('vllm:8000/v1'), 'vllm');
    assert.equal(schemelessHost('localhost'), 'localhost');
    for (const v of ['/api', 'v1/chat', 'auto', 'gpt-4.1', 'https://api.example.com/v1', 'vllm']) assert.equal(schemelessHost(v), undefined, v);
  });

  it('local hosts get http, public ones https', () => {
    for (const h of ['localhost', '127.0.0.1', '10.1.2.3', '172.20.0.5', '192.168.1.10', 'vllm', 'host.docker.internal', 'gpu01.lan', '[::1]']) assert.equal(isLocalHost(h), true, h);
    for (const h of ['api.example.com', '8.8.8.8', '172.32.0.1', 'taotoken.net']) assert.equal(isLocalHost(h), false, h);
  });
});

describe('base-url-bind-address never flags a bind address', () => {
  it('server launches, HOST= and --host keep 0.0.0.0', async () => {
    const text = [
      '#!/bin/bash',
      'export HOST="0.0.0.0"',
      'python3 -m sglang.launch_server --model-path m --host 0.0.0.0 --port 30000 &',
      'vllm serve m --host 0.0.0.0 --port 8000 &',
      'uvicorn app:app --host :: --port 8080 &',
      'python -m sglang_router.launch_router --sglang-router-ip 0.0.0.0 --port 30000 &',
      '',
    ].join('\n');
    assert.deepEqual(await lint('run.sh', text, NO_FACTS, ['base-url-bind-address']), []);
  });

  it('flags the same address as a destination', async () => {
    const text = 'python3 train.py --sglang-router-ip 0.0.0.0 --sglang-router-port 30000\n';
    const findings = await lint('run.sh', text, NO_FACTS, ['base-url-bind-address']);
    assert.deepEqual(findings.map((f) => text.slice(f.range.start, f.range.end)), ['0.0.0.0']);
  });
});
