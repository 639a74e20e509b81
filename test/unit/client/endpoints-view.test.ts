import assert from 'node:assert/strict';
import { endpointNodes, endpointsView, ENDPOINT_ITEM, goToEndpointDefinition, testEndpoint } from '../../../client/src/endpoints/view';
import type { EndpointViewRow } from '../../../server/src/lsp/endpoint-rows';
import { fakeContext, fakeHost, fakeServer } from './fakes';

const ROW: EndpointViewRow = {
  uri: 'file:///w/policy_serving.py',
  clientOffset: 57,
  offset: 57,
  file: 'policy_serving.py',
  line: 5,
  column: 8,
  key: 'POLICY_BASE_URL',
  baseUrl: 'http://127.0.0.1:30000/v1',
  consumer: 'v1-appending',
  via: 'f"{base}/v1/chat/completions"',
  effectiveUrl: 'http://127.0.0.1:30000/v1/v1/chat/completions',
  method: 'POST',
  definedAt: { file: 'scripts/run_rollout.sh', line: 3 },
  definition: { uri: 'file:///w/scripts/run_rollout.sh', offset: 55 },
  keySource: 'OPENAI_API_KEY (.env:3) sk-…abcd, 40 chars',
  model: 'qwen3-4b',
  logprobs: 'requested',
  findings: [{ ruleId: 'base-url-duplicate-v1', severity: 'error', message: 'POLICY_BASE_URL from scripts/run_rollout.sh:3: …/v1/v1' }],
};

describe('Rollout Endpoints view (client)', () => {
  it('one row per endpoint: file:line, then the effective URL; error icon, details (client, key, …) as children', () => {
    const [node] = endpointNodes([ROW], 'en', []);
    assert.equal(node.label, 'policy_serving.py:5');
    assert.equal(node.description, 'POST http://127.0.0.1:30000/v1/v1/chat/completions');
    assert.match(String(node.tooltip), /http:\/\/127\.0\.0\.1:30000\/v1\/v1\/chat\/completions · appends \/v1/);
    assert.equal(node.icon, 'error');
    assert.equal(node.contextValue, ENDPOINT_ITEM);
    const labels = node.children!.map((c) => c.label);
    assert.ok(labels.includes('value from scripts/run_rollout.sh:3'));
    assert.ok(labels.includes('key: OPENAI_API_KEY (.env:3) sk-…abcd, 40 chars'));
    assert.ok(labels.includes('model: qwen3-4b'));
    assert.ok(labels.includes('not tested yet: use "Test This Endpoint"'));
    assert.equal(endpointNodes([ROW], 'zh-cn', [])[0].children![1].label, '取值来自 scripts/run_rollout.sh:3');
  });

  it('zh-cn: every text of the view comes from the l10n bundle, with the glossary terms', () => {
    const [node] = endpointNodes([{ ...ROW, via: undefined, logprobs: 'missing' }], 'zh-cn', []);
    assert.match(String(node.tooltip), /\/v1\/v1\/chat\/completions · 自行追加 \/v1/);
    const labels = node.children!.map((c) => c.label);
    assert.deepEqual(labels, [
      'base URL POLICY_BASE_URL：http://127.0.0.1:30000/v1',
      '取值来自 scripts/run_rollout.sh:3',
      '客户端：自行追加 /v1',
      '密钥：OPENAI_API_KEY (.env:3) sk-…abcd，40 个字符',
      '模型：qwen3-4b',
      'logprobs：此处未请求；未见 rollout，因此不报告问题',
      'POLICY_BASE_URL from scripts/run_rollout.sh:3: …/v1/v1',
      '尚未测试：请使用“测试此端点”',
    ]);
    assert.match(String(node.tooltip), /- 错误：POLICY_BASE_URL from/);
    assert.equal(node.command!.title, '转到定义');
    assert.equal(node.children![2].tooltip, '客户端：自行追加 /v1', 'each detail shows its whole text on hover');
    const sdk = endpointNodes([{ ...ROW, consumer: 'openai-sdk', via: 'POLICY_BASE_URL (openai SDK)' }], 'en', [])[0];
    assert.equal(sdk.children![2].label, 'client: openai SDK (POLICY_BASE_URL)', 'the SDK is named once');
  });

  it('tells a request no rule flags (no rollout in sight) from a flagged one: info icon and what a rollout needs', () => {
    const plain = endpointNodes([{ ...ROW, logprobs: 'missing' }], 'en', [])[0].children!.find((c) => c.id === '0.logprobs')!;
    assert.equal(plain.label, 'log probs: not asked for here; no rollout in sight, so nothing is reported');
    assert.equal(plain.icon, 'info');
    assert.match(String(plain.tooltip), /needs logprobs=True .*hover the call/);
    const flaggedRow = { ...ROW, logprobs: 'missing' as const, findings: [...ROW.findings, { ruleId: 'logprobs-missing', severity: 'warning', message: 'this rollout request … does not set logprobs' }] };
    const flagged = endpointNodes([flaggedRow], 'en', [])[0].children!.find((c) => c.id === '0.logprobs')!;
    assert.equal(flagged.label, 'log probs: a request site in this file does not ask for them');
    assert.equal(flagged.icon, 'warning');
    const zh = endpointNodes([{ ...ROW, logprobs: 'missing' }], 'zh-cn', [])[0].children!.find((c) => c.id === '0.logprobs')!;
    assert.match(String(zh.tooltip), /^聊天机器人或评测不需要 logprobs/);
  });

  it('shows the last connection test of the base URL and client', () => {
    const at = new Date(2026, 0, 1, 9, 5).getTime();
    const verified = [{ baseUrl: ROW.baseUrl, consumer: 'v1-appending' as const, workingBaseUrl: 'http://127.0.0.1:30000', url: 'http://127.0.0.1:30000/v1/chat/completions', at }];
    const last = endpointNodes([ROW], 'en', verified)[0].children!.at(-1)!;
    assert.equal(last.label, 'last connection test (09:05): use http://127.0.0.1:30000 instead');
  });

  it('inline Test connection runs the connection test on the row; Go to definition opens the definition, a click the row', async () => {
    const host = fakeHost();
    const executed: unknown[][] = [];
    host.executeCommand = async (...args: unknown[]) => void executed.push(args);
    const context = fakeContext(host);
    const [node] = endpointNodes([ROW], 'en', []);
    await testEndpoint.run(context, node);
    assert.deepEqual(executed, [['rolloutLint.testConnection', { uri: ROW.uri, offset: 57 }]]);
    await goToEndpointDefinition.run(context, node);
    await goToEndpointDefinition.run(context, ...node.command!.arguments!);
    assert.deepEqual(host.record.shown, [{ uri: 'file:///w/scripts/run_rollout.sh', offset: 55 }, { uri: ROW.uri, offset: 57 }]);
  });

  it('asks the server for rolloutLint/endpointRows and says so when there is none', async () => {
    const host = fakeHost();
    const server = fakeServer({ 'rolloutLint/endpointRows': () => [ROW] });
    const disposable = endpointsView.activate!(fakeContext(host, server));
    const tree = host.record.trees[0];
    assert.equal((await tree.source.roots())[0].description, `POST ${ROW.effectiveUrl}`);
    assert.deepEqual(server.requests.map(([m]) => m), ['rolloutLint/endpointRows']);
    assert.equal((await fakeServerless(host).source.roots())[0].label, 'The Rollout Lint server is not running.');
    endpointsView.run(fakeContext(host));
    assert.equal(tree.refreshes, 0, 'refresh goes to the latest view');
    disposable?.dispose();
  });
});

describe('Rollout Endpoints view: a failed request in the log', () => {
  it('says which request failed in the UI language, the error text as the server gave it', async () => {
    for (const [language, want] of [['en', 'the server request rolloutLint/endpointRows failed: connection lost'], ['zh-cn', '服务器请求 rolloutLint/endpointRows 失败：connection lost']]) {
      const host = fakeHost();
      Object.assign(host, { language });
      const context = fakeContext(host, fakeServer({ 'rolloutLint/endpointRows': () => { throw new Error('connection lost'); } }));
      const disposable = endpointsView.activate!(context);
      await host.record.trees.at(-1)!.source.roots();
      assert.deepEqual(context.logs, [want]);
      disposable?.dispose();
    }
  });
});

function fakeServerless(host: ReturnType<typeof fakeHost>) {
  endpointsView.activate!(fakeContext(host));
  return host.record.trees.at(-1)!;
}
