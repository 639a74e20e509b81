import assert from 'node:assert/strict';
import { DEFAULT_CONFIG, mergeConfig } from '../../../server/src/core/config/config';
import { applyEdits } from '../../../server/src/core/fix';
import { lintDocument } from '../../../server/src/core/lint';
import type { LintConfig } from '../../../server/src/core/config/config';
import { RULES } from '../../../server/src/core/rules/index';
import { inCidr, noProxyMatches, parseCidr } from '../../../server/src/core/rules/hosts';
import { isLoopbackHost, isPrivateHost } from '../../../server/src/core/model/hosts';
import { isModelPlaceholder } from '../../../server/src/core/rules/model-placeholder';
import { loadGrammars } from '../../../server/src/node/grammars';

const MINE = [
  'logprobs-missing', 'top-logprobs-without-logprobs', 'top-logprobs-out-of-range', 'logprobs-wrong-type', 'top-logprobs-null',
  'model-placeholder', 'config-string-boolean', 'proxy-no-proxy-missing', 'proxy-no-proxy-cidr', 'openclaw-missing-api-type',
  'base-url-loopback-in-container', 'base-url-scheme-mismatch', 'azure-api-version',
];

async function lint(path: string, text: string, config: LintConfig = DEFAULT_CONFIG, locale: 'en' | 'zh-CN' = 'en') {
  return lintDocument({ path, text }, { grammars: await loadGrammars(), config, locale, onlyRules: MINE }).findings;
}

const ids = (findings: { ruleId: string }[]) => findings.map((f) => f.ruleId);

describe('request rules', () => {
  it('every rule has the same message ids in en and zh-CN, and renders without leftover placeholders', () => {
    for (const rule of RULES.filter((r) => MINE.includes(r.meta.id))) {
      assert.deepEqual(Object.keys(rule.messages['zh-CN']).sort(), Object.keys(rule.messages.en).sort(), rule.meta.id);
    }
  });

  it('top-logprobs-without-logprobs replaces logprobs-missing on the same rollout request', async () => {
    const text = 'def collect_rollout(client):\n    return client.chat.completions.create(model="policy", messages=[], top_logprobs=1)\n';
    assert.deepEqual(ids(await lint('worker.py', text)), ['top-logprobs-without-logprobs']);
  });

  it('rolloutGlobs decide path-based rollouts; code context still counts without them', async () => {
    const text = 'r = client.chat.completions.create(model="policy", messages=[])\ndef policy_step(c):\n    return c.chat.completions.create(model="policy", messages=[])\n';
    assert.deepEqual(ids(await lint('rollout/a.py', text)), ['logprobs-missing', 'logprobs-missing']);
    assert.deepEqual(ids(await lint('rollout/a.py', text, mergeConfig({ rolloutGlobs: [] }))), ['logprobs-missing']);
    assert.deepEqual(ids(await lint('lib/a.py', text)), ['logprobs-missing']);
  });

  it('the inserted logprobs keeps CRLF line breaks and the neighbours\' indentation', async () => {
    const text = 'def rollout_step(c):\r\n    return c.chat.completions.create(\r\n        model="policy",\r\n        messages=[],\r\n    )\r\n';
    const [finding] = await lint('w.py', text);
    assert.equal(finding.ruleId, 'logprobs-missing');
    assert.equal(applyEdits(text, finding.fixes[0].edits), 'def rollout_step(c):\r\n    return c.chat.completions.create(\r\n        model="policy",\r\n        messages=[],\r\n        logprobs=True,\r\n    )\r\n');
  });

  it('a Python dict gets the neighbours\' quote style', async () => {
    const text = "def rollout(p):\n    body = {'model': 'policy', 'messages': p}\n    return post('http://127.0.0.1:30000/v1/chat/completions', json=body)\n";
    const [finding] = await lint('w.py', text);
    assert.match(applyEdits(text, finding.fixes[0].edits), /\{'model': 'policy', 'messages': p, 'logprobs': True\}/);
  });

  it('config-string-boolean owns a quoted boolean that logprobs-wrong-type would also see', async () => {
    const text = 'request:\n  model: m\n  messages: []\n  logprobs: "true"\n';
    assert.deepEqual(ids(await lint('c.yaml', text)), ['config-string-boolean']);
  });

  it('proxy-no-proxy-cidr covers hosts in its range; with it off, proxy-no-proxy-missing reports them', async () => {
    const text = 'export http_proxy=http://proxy.example.com:8080\nexport no_proxy=10.0.0.0/8\npython t.py --sglang-router-ip 10.1.2.3\n';
    assert.deepEqual(ids(await lint('run.sh', text)), ['proxy-no-proxy-cidr']);
    assert.deepEqual(ids(await lint('run.sh', text, mergeConfig({ rules: { 'proxy-no-proxy-cidr': 'off' } }))), ['proxy-no-proxy-missing']);
  });

  it('top-logprobs-out-of-range names a visible cap raise and keeps the finding', async () => {
    const text = 'vllm serve /m --max-logprobs 64 &\npython eval.py --top-logprobs 50\n';
    const [finding] = await lint('run.sh', text);
    assert.equal(finding.messageId, 'capRaised');
    assert.match(finding.message, /--max-logprobs 64 on line 1/);
    const [zh] = await lint('run.sh', text, DEFAULT_CONFIG, 'zh-CN');
    assert.match(zh.message, /第 1 行/);
  });

  it('top-logprobs-out-of-range judges against the cap of the request\'s provider when its profile documents one', async () => {
    const profile = {
      id: 'capped', name: 'Capped Cloud', hosts: ['api.capped.example'], docsUrl: 'https://docs.capped.example', openaiBases: ['https://api.capped.example/v1'],
      chatUrl: 'https://api.capped.example/v1/chat/completions', modelsUrl: 'https://api.capped.example/v1/models', logprobs: 'supported' as const,
      topLogprobsMax: 5, source: '.rolloutlintrc.json (test)',
    };
    const config = mergeConfig({ extraProviders: [profile] });
    const request = (base: string, n: number) => `from openai import OpenAI\nc = OpenAI(base_url="${base}", api_key="k")\nc.chat.completions.create(model="m", messages=[], logprobs=True, top_logprobs=${n})\n`;
    const [capped] = await lint('a.py', request('https://api.capped.example/v1', 8), config);
    assert.equal(capped.messageId, 'provider');
    assert.match(capped.message, /0–5, the top_logprobs range Capped Cloud documents/);
    assert.deepEqual(ids(await lint('a.py', request('https://api.capped.example/v1', 5), config)), []);
    const [zh] = await lint('a.py', request('https://api.capped.example/v1', 8), config, 'zh-CN');
    assert.match(zh.message, /Capped Cloud 文档给出的 chat completions top_logprobs 范围 0–5/);
    // A cap above OpenAI's: 30 passes for that provider, while an unknown host keeps the OpenAI range.
    const wide = mergeConfig({ extraProviders: [{ ...profile, topLogprobsMax: 50 }] });
    assert.deepEqual(ids(await lint('a.py', request('https://api.capped.example/v1', 30), wide)), []);
    const [unknown] = await lint('a.py', request('https://api.unknown.example/v1', 30), wide);
    assert.equal(unknown.messageId, 'chat');
    assert.match(unknown.message, /outside 0–20/);
  });

  it('ranges stay right after Chinese text', async () => {
    const text = '# 中文注释，包含全角字符：测试\nOPENAI_MODEL=your-model\n';
    const [finding] = await lint('.env', text);
    assert.equal(text.slice(finding.range.start, finding.range.end), 'your-model');
  });

  it('odd input never throws', async () => {
    for (const [path, text] of [['a.py', 'client.chat.completions.create(top_logprobs=None, logprobs='], ['c.yaml', 'sampling: {top_logprobs: [1'], ['x.json', '{"models": {"providers": {"a": {"baseUrl": '], ['r.sh', 'export no_proxy="10.0.0.0/8']] as const) {
      const outcome = lintDocument({ path, text }, { grammars: await loadGrammars(), onlyRules: MINE });
      assert.deepEqual(outcome.failures, [], path);
    }
  });
});

describe('host helpers', () => {
  it('loopback and private addresses', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', 'api.localhost', '[::1]']) assert.ok(isLoopbackHost(h), h);
    for (const h of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', 'fd00::1']) assert.ok(isPrivateHost(h), h);
    for (const h of ['172.32.0.1', '8.8.8.8', 'api.openai.com', '0.0.0.0', '11.0.0.1']) assert.ok(!isPrivateHost(h), h);
  });

  it('CIDR ranges', () => {
    assert.ok(inCidr('10.1.2.3', parseCidr('10.0.0.0/8')!));
    assert.ok(!inCidr('11.1.2.3', parseCidr('10.0.0.0/8')!));
    assert.ok(inCidr('8.8.8.8', parseCidr('0.0.0.0/0')!));
    assert.equal(parseCidr('10.0.0.0/33'), undefined);
  });

  it('no_proxy name matching (urllib/httpx style)', () => {
    assert.ok(noProxyMatches('*', '10.1.2.3'));
    assert.ok(noProxyMatches('.cluster.local', 'sglang.default.svc.cluster.local'));
    assert.ok(noProxyMatches('example.com', 'api.example.com'));
    assert.ok(noProxyMatches('10.1.2.3:30000', '10.1.2.3'));
    assert.ok(!noProxyMatches('localhost', '127.0.0.1'));
    assert.ok(!noProxyMatches('10.0.0.0/8', '10.1.2.3'));
  });

  it('model placeholders', () => {
    for (const v of ['MODEL_ID', 'your-model', 'your_model_name', '<model>', '<MODEL_NAME>', 'model-name', 'YOUR_MODEL', '{{ model }}']) assert.ok(isModelPlaceholder(v), v);
    for (const v of ['my-model', 'gpt-4o-mini', 'qwen3-4b-instruct', 'policy', '/models/example-7b', 'model']) assert.ok(!isModelPlaceholder(v), v);
  });
});
