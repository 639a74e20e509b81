import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli/main';
import type { EndpointRow } from '../../../server/src/core/workspace/endpoints';

const WORKSPACE = join(__dirname, '..', '..', 'workspaces', 'openclaw-rl-cross');

async function cli(args: string[], cwd = WORKSPACE): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: { LANG: 'en_US.UTF-8' }, cwd, isTTY: false });
  return { code, stdout, stderr };
}

describe('rollout-lint endpoints', () => {
  it('names the clients on each text row, so rows of one setting that differ only in the URL can be told apart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rl-endpoints-'));
    try {
      writeFileSync(join(dir, '.env'), 'OPENAI_BASE_URL=https://taotoken.net/api/v1?utm_source=x\n');
      const { code, stdout } = await cli(['endpoints', '.env'], dir);
      assert.equal(code, 0);
      const lines = stdout.trimEnd().split('\n');
      assert.ok(lines.length > 1, stdout);
      const clients = lines.map((l) => /  clients: (.+?)  key: /.exec(l)?.[1]);
      assert.ok(clients.every(Boolean), stdout);
      assert.equal(new Set(clients).size, lines.length, 'each row names different clients');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });


  it('speaks Chinese with --lang zh-CN', async () => {
    const { stdout } = await cli(['endpoints', 'policy_serving.py', '.openclaw/openclaw.json', '--lang', 'zh-CN']);
    assert.match(stdout, /\(来自 scripts\/run_rollout\.sh:3\)  客户端: requests, httpx  密钥: -  模型: qwen3-4b  对数概率: 已请求/);
    assert.match(stdout, /对数概率: 未知/);
    assert.doesNotMatch(stdout, /: (requested|missing|unknown)\b/, 'log-prob states in Chinese too');
    assert.match(stdout, /密钥: SGLANG_API_KEY \(工作区中未定义\)/);
  });

  it('--json lists each base URL per consumer with the effective URL, masked key source, model, log probs and findings', async () => {
    const { code, stdout, stderr } = await cli(['endpoints', '--json']);
    assert.equal(stderr, '');
    assert.equal(code, 0);
    const rows = JSON.parse(stdout) as EndpointRow[];
    const policy = rows.find((r) => r.file === 'policy_serving.py')!;
    assert.deepEqual(
      { consumer: policy.consumer, effectiveUrl: policy.effectiveUrl, definedAt: policy.definedAt, model: policy.model, logprobs: policy.logprobs, rules: policy.findings.map((f) => f.ruleId) },
      { consumer: 'v1-appending', effectiveUrl: 'http://127.0.0.1:30000/v1/v1/chat/completions', definedAt: { file: 'scripts/run_rollout.sh', line: 3 }, model: 'qwen3-4b', logprobs: 'requested', rules: ['base-url-duplicate-v1'] },
    );
    assert.deepEqual([policy.line, policy.column], [5, 8]);
    const sdk = rows.find((r) => r.file === 'agent/chat.py' && r.key === 'OPENAI_BASE_URL')!;
    assert.equal(sdk.effectiveUrl, 'https://taotoken.net/api/v1/chat/completions');
    assert.equal(sdk.keySource, 'OPENAI_API_KEY (.env:3) sk-…abcd, 40 chars');
    const openclaw = rows.find((r) => r.file === '.openclaw/openclaw.json')!;
    assert.equal(openclaw.keySource, 'SGLANG_API_KEY (not defined in the workspace)');
    const fullKey = /OPENAI_API_KEY=(\S+)/.exec(readFileSync(join(WORKSPACE, '.env'), 'utf8'))![1];
    assert.equal(stdout.includes(fullKey), false, 'no full key in the output');
  });

  it("a value read from another file lists the reading file's clients only (a Python reader: no openai-node)", async () => {
    const { code, stdout } = await cli(['endpoints', '--json', 'agent/chat.py']);
    assert.equal(code, 0);
    const rows = (JSON.parse(stdout) as { file: string; definedAt?: unknown; clients?: string[] }[]).filter((r) => r.file === 'agent/chat.py' && r.definedAt);
    assert.ok(rows.length > 0, stdout);
    for (const row of rows) {
      assert.ok(row.clients?.length, stdout);
      assert.deepEqual(row.clients.filter((c) => !/^openai-python/.test(c)), [], `only Python clients: ${row.clients.join(', ')}`);
    }
    const env = await cli(['endpoints', '--json', '.env']);
    const envClients = (JSON.parse(env.stdout) as { clients?: string[] }[]).flatMap((r) => r.clients ?? []);
    assert.ok(envClients.some((c) => c.startsWith('openai-node')), 'the .env row itself still names every client that may load it');
  });

  it('prints one text line per endpoint and takes paths', async () => {
    const { code, stdout } = await cli(['endpoints', 'policy_serving.py']);
    assert.equal(code, 0);
    assert.equal(
      stdout,
      'policy_serving.py:5:8  v1-appending  POST http://127.0.0.1:30000/v1/v1/chat/completions (from scripts/run_rollout.sh:3)  clients: requests, httpx  key: -  model: qwen3-4b  logprobs: requested  error:base-url-duplicate-v1\n',
    );
  });

  it('text rows carry what JSON has: the method, the call that decides the path, an assumed default, and why nothing is sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rl-endpoints-call-'));
    try {
      writeFileSync(join(dir, 'a.py'), 'from openai import OpenAI\nc = OpenAI(base_url="https://api.example.com/v1")\nc.models.list()\n');
      writeFileSync(join(dir, '.env'), 'OPENAI_BASE_URL=https://api.example.com/v1\n');
      writeFileSync(join(dir, 'b.py'), 'from openai import OpenAI\nd = OpenAI(base_url="api.example.com/v1")\n');
      const text = (await cli(['endpoints', 'a.py', '.env', 'b.py'], dir)).stdout;
      assert.match(text, /^b\.py:2:\d+  openai-sdk  no request: the value has no http:\/\/ or https:\/\/.* \(api\.example\.com\/v1\)  /m);
      assert.match(text, /^a\.py:2:\d+  openai-sdk  GET https:\/\/api\.example\.com\/v1\/models \[c\.models\.list\]  /m);
      assert.match(text, /^\.env:1:17  openai-sdk  POST https:\/\/api\.example\.com\/v1\/chat\/completions \[no call in sight: the client default\]  /m);
      const rows = JSON.parse((await cli(['endpoints', '--json'], dir)).stdout) as EndpointRow[];
      const noRequest = rows.filter((r) => r.noRequest);
      assert.ok(noRequest.length > 0);
      for (const row of noRequest) assert.ok(text.includes(`no request: ${row.noRequest}`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
