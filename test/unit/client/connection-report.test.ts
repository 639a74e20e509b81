import assert from 'node:assert/strict';
import { firstSentence, reportText, statusText, verdictLine } from '../../../client/src/connection/report';
import { chooseTarget, defaultPlan } from '../../../client/src/connection/target';
import { COMMANDS } from '../../../client/src/commands/index';
import { initializationOptions } from '../../../client/src/options';
import { hostProxySettings } from '../../../client/src/connection/transport';
import { loadVerified, rememberVerified, verifiedFromReport } from '../../../client/src/connection/verified';
import type { ProbeReport, ProbeStep } from '../../../server/src/core/probe/index';
import type { EndpointSummary } from '../../../server/src/lsp/endpoints';
import { fakeContext, fakeHost, fakeMemento, fakeServer } from './fakes';

const step = (name: ProbeStep['name'], ms: number, extra: Partial<ProbeStep> = {}): ProbeStep => ({ name, ms, verdict: 'ok', ...extra });

function report(extra: Partial<ProbeReport> = {}): ProbeReport {
  return {
    verdict: 'ok',
    secondary: [],
    baseUrl: 'http://127.0.0.1:8000/v1',
    consumer: 'openai-sdk',
    steps: [step('dns', 1), step('connect', 2), step('models', 40, { method: 'GET', url: 'http://127.0.0.1:8000/v1/models', status: 200 }), step('chat', 211.6, { method: 'POST', url: 'http://127.0.0.1:8000/v1/chat/completions', status: 200 })],
    model: 'qwen3-4b',
    logprobsShape: 'chat',
    key: { sent: false },
    explanation: { en: 'OK: http://127.0.0.1:8000/v1/chat/completions answered for model qwen3-4b with log probs (chat).', 'zh-CN': '正常：http://127.0.0.1:8000/v1/chat/completions 已为模型 qwen3-4b 返回结果，并带有对数概率（chat）。' },
    ...extra,
  };
}

describe('Test Connection results: status, notification, report, verified endpoints', () => {
  it('the status item shows the provider, the request time and whether log probs came back', () => {
    assert.equal(statusText(report(), 'local vLLM'), 'local vLLM ✓ 212 ms · logprobs ✓');
    assert.equal(statusText(report({ verdict: 'no-logprobs', logprobsShape: 'none' }), 'TaoToken'), 'TaoToken ✗ 212 ms · logprobs ✗');
    assert.equal(statusText(report({ verdict: 'not-found', logprobsShape: undefined }), 'TaoToken'), 'TaoToken ✗ not-found');
    assert.equal(statusText(report({ logprobsShape: 'not-requested' }), 'Ollama'), 'Ollama ✓ 212 ms');
  });

  it('the notification is one line: mark, provider, time, first sentence, and the fix', () => {
    assert.equal(verdictLine(report(), { providerName: 'local vLLM' }, 'en'), '✓ local vLLM · 212 ms — OK: http://127.0.0.1:8000/v1/chat/completions answered for model qwen3-4b with log probs (chat).');
    const failed = report({
      verdict: 'bad-request',
      explanation: { en: 'Bad request: POST u answered 400: “Invalid value. Expected x”. More text.', 'zh-CN': '请求错误：POST u 返回 400。更多。' },
      fix: { baseUrl: 'http://127.0.0.1:8000/v1', verified: false, reason: { en: 'r', 'zh-CN': 'r' } },
    });
    assert.equal(verdictLine(failed, { providerName: 'X' }, 'en'), '✗ X · 212 ms — Bad request: POST u answered 400: “Invalid value. Expected x”. Fix: http://127.0.0.1:8000/v1 (not verified)');
    assert.equal(verdictLine(failed, { providerName: 'X' }, 'zh-cn'), '✗ X · 212 ms — 请求错误：POST u 返回 400。修复：http://127.0.0.1:8000/v1 (未验证)');
    assert.equal(firstSentence('no stop here'), 'no stop here');
  });

  it('the report document has the verdict first, the steps, the explanation and the fix, key masked', () => {
    const text = reportText(
      report({ verdict: 'not-found', fix: { baseUrl: 'http://127.0.0.1:8000/api/v1', verified: true, reason: { en: 'Add /v1 to the base URL.', 'zh-CN': '加上 /v1。' } } }),
      { ...defaultPlan(), providerName: 'local vLLM', setting: { uri: 'file:///w/.env', file: '.env', key: 'OPENAI_BASE_URL', line: 2, contentRange: { start: { line: 1, character: 16 }, end: { line: 1, character: 40 } } } },
      'sk-…abcd, 51 chars · the same block of .env (OPENAI_API_KEY)',
      'en',
      new Date(2025, 0, 2, 3, 4, 5),
    );
    const lines = text.split('\n');
    assert.deepEqual(lines.slice(0, 4), ['# Test TaoToken Connection', 'Verdict: not-found', 'Provider: local vLLM', 'Base URL: http://127.0.0.1:8000/v1']);
    assert.ok(lines.includes('Setting: OPENAI_BASE_URL in .env, line 2'));
    assert.ok(lines.includes('Tested at: 2025-01-02 03:04:05'));
    assert.ok(lines.includes('✓ chat     POST http://127.0.0.1:8000/v1/chat/completions  200 OK  212 ms'), text);
    assert.ok(lines.includes('Base URL: http://127.0.0.1:8000/api/v1 (verified)'));
    const zh = reportText(report(), defaultPlan(), 'x', 'zh-cn', new Date());
    assert.match(zh, /^# 测试 TaoToken 连接\n结论：正常（ok）\n服务商：TaoToken\n/);
    assert.match(zh, /\n使用方：OpenAI SDK（openai-sdk）\n/);
    assert.match(zh, /\n✓ 域名解析（dns）/);
    // no English word outside URLs, ids in parentheses, HTTP status lines and units
    const words = zh.replace(/https?:\/\/\S+/g, '').replace(/（[^）]*）/g, '').replace(/\d{3} [A-Z][A-Za-z ]*$/gm, '').match(/\b[a-z]{3,}\b/gi) ?? [];
    assert.deepEqual(words.filter((w) => !['TaoToken', 'base', 'URL', 'logprobs', 'chat', 'GET', 'POST', 'OK', 'SDK', 'OpenAI', 'API'].includes(w)), []);
  });

  it('keeps what a report proves: a verified fix, or the configured base working', async () => {
    const fixed = report({
      verdict: 'not-found',
      baseUrl: 'https://taotoken.net/api',
      steps: [step('chat', 5, { method: 'POST', url: 'https://taotoken.net/api/chat/completions', verdict: 'not-found' }), step('variant', 9, { method: 'POST', url: 'https://taotoken.net/api/v1/chat/completions' })],
      fix: { baseUrl: 'https://taotoken.net/api/v1', verified: true, reason: { en: '', 'zh-CN': '' } },
    });
    assert.deepEqual(verifiedFromReport(fixed, 7), { baseUrl: 'https://taotoken.net/api', consumer: 'openai-sdk', workingBaseUrl: 'https://taotoken.net/api/v1', url: 'https://taotoken.net/api/v1/chat/completions', at: 7 });
    assert.equal(verifiedFromReport({ ...fixed, fix: { ...fixed.fix!, verified: false } }, 7), undefined);
    assert.equal(verifiedFromReport({ ...fixed, fix: { ...fixed.fix!, consumer: 'openai-sdk' } }, 7), undefined);
    assert.equal(verifiedFromReport(report({ verdict: 'unauthorized' }), 7), undefined);
    assert.deepEqual(verifiedFromReport(report(), 8), { baseUrl: 'http://127.0.0.1:8000/v1', consumer: 'openai-sdk', workingBaseUrl: 'http://127.0.0.1:8000/v1', url: 'http://127.0.0.1:8000/v1/chat/completions', at: 8 });
    assert.deepEqual(verifiedFromReport(report({ models: ['policy', 'ref'] }), 8)?.models, ['policy', 'ref'], 'a whole /models list is kept for model-not-served');
    assert.equal(verifiedFromReport(report({ models: Array.from({ length: 50 }, (_, i) => `m${i}`) }), 8)?.models, undefined, 'a list cut at 50 is not kept');
    const state = fakeMemento();
    await rememberVerified(state, verifiedFromReport(fixed, 1)!);
    await rememberVerified(state, verifiedFromReport(report(), 2)!);
    const list = await rememberVerified(state, { ...verifiedFromReport(fixed, 3)!, baseUrl: 'https://taotoken.net/api/' });
    assert.deepEqual(list.map((e) => e.at), [3, 2], 'one entry per base URL and consumer, newest first');
    assert.deepEqual(loadVerified(fakeMemento({ 'rolloutLint.verifiedEndpoints': [{ nonsense: 1 }, 'x'] })), []);
    const host = fakeHost();
    await rememberVerified(host.workspaceState, verifiedFromReport(fixed, 1)!);
    assert.deepEqual(initializationOptions(host, COMMANDS).verifiedEndpoints?.map((e) => e.workingBaseUrl), ['https://taotoken.net/api/v1'], 'a restarted server gets them at start');
  });

  it('chooses the setting under the cursor, else a pick of the workspace endpoints, else TaoToken', async () => {
    const summary: EndpointSummary = { uri: 'file:///w/b/.env', offset: 16, line: 0, path: 'b/.env', key: 'OPENAI_BASE_URL', baseUrl: 'http://127.0.0.1:30000/v1', consumers: ['openai-sdk'], providers: ['sglang'] };
    const picked = fakeHost({ active: () => ({ uri: 'file:///w/a.py', version: 1, languageId: 'python', offset: 3 }), pick: (items) => items[0] });
    const lsp = fakeServer({ 'rolloutLint/endpoints': () => [summary] });
    const plan = await chooseTarget(fakeContext(picked, lsp), undefined);
    assert.deepEqual(lsp.requests.map(([m]) => m), ['rolloutLint/endpointAt', 'rolloutLint/endpoints', 'rolloutLint/endpointAt']);
    assert.deepEqual(lsp.requests[0][1], { uri: 'file:///w/a.py', offset: 3 });
    assert.deepEqual(picked.record.picks[0].map((i) => i.label), ['http://127.0.0.1:30000/v1', 'TaoToken (default)']);
    assert.equal(picked.record.picks[0][0].detail, 'b/.env:1 · OPENAI_BASE_URL');
    assert.deepEqual(picked.record.shown, [{ uri: summary.uri, offset: 16 }]);
    assert.deepEqual(plan && { baseUrl: plan.baseUrl, providerName: plan.providerName }, { baseUrl: 'http://127.0.0.1:30000/v1', providerName: 'local SGLang' });
    const empty = fakeHost();
    assert.equal(await chooseTarget(fakeContext(empty, fakeServer({ 'rolloutLint/endpoints': () => [] })), undefined), undefined, 'no endpoint in the workspace: nothing is probed without a choice');
    assert.deepEqual(empty.record.picks[0].map((i) => i.label), ['TaoToken (default)']);
    const chosen = fakeHost({ pick: (rows) => rows[0] });
    assert.deepEqual(await chooseTarget(fakeContext(chosen, fakeServer({ 'rolloutLint/endpoints': () => [] })), undefined), defaultPlan(), 'the TaoToken row, once chosen');
    assert.deepEqual(defaultPlan(), { baseUrl: 'https://taotoken.net/api/v1', consumer: 'openai-sdk', providerName: 'TaoToken' });
    assert.equal(await chooseTarget(fakeContext(fakeHost(), lsp), undefined), undefined, 'a dismissed pick probes nothing');
  });

  it('follows VS Code proxy settings for the DNS/connect steps', () => {
    assert.deepEqual(hostProxySettings({ proxy: 'http://proxy:3128', noProxy: ['localhost', '10.0.0.1'], support: 'override' }, { HTTPS_PROXY: 'http://env:1' }), { httpProxy: 'http://proxy:3128', httpsProxy: 'http://proxy:3128', noProxy: 'localhost,10.0.0.1' });
    assert.deepEqual(hostProxySettings({ proxy: '', noProxy: [], support: 'on' }, { HTTPS_PROXY: 'http://env:1', NO_PROXY: 'a' }), { httpProxy: '', httpsProxy: 'http://env:1', noProxy: 'a' });
    assert.deepEqual(hostProxySettings({ proxy: 'http://proxy:3128', noProxy: [], support: 'off' }, {}), { httpProxy: '', httpsProxy: '', noProxy: '' });
  });
});
