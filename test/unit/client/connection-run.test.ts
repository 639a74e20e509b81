import assert from 'node:assert/strict';
import { testConnection } from '../../../client/src/commands/test-connection';
import { storedKeyName } from '../../../client/src/connection/keys';
import { runTestConnection, setTransportTestOptions } from '../../../client/src/connection/run';
import { sessionOf, type TestHooks } from '../../../client/src/connection/session';
import { VERIFIED_STATE } from '../../../client/src/connection/verified';
import type { EndpointInfo } from '../../../server/src/lsp/endpoint';
import { isLoopbackAddress } from '../../../server/src/node/probe-net';
import { startScriptedServer, type ScriptedRoute, type ScriptedServer } from '../../support/scripted-server';
import { fakeContext, fakeHost, fakeServer, type FakeHostOptions } from './fakes';

const FILE_KEY = 'sk-test-0000000000000000000000000000file';
const ENV_KEY = 'sk-test-1111111111111111111111111111envk';
const LOGPROBS = { choices: [{ index: 0, message: { role: 'assistant', content: 'p' }, logprobs: { content: [{ token: 'p', logprob: -0.25, top_logprobs: [] }] } }] };
const MODELS = { object: 'list', data: [{ id: 'qwen3-4b', object: 'model' }] };

const OK: ScriptedRoute[] = [
  { method: 'GET', path: '/v1/models', status: 200, body: MODELS },
  { method: 'POST', path: '/v1/chat/completions', status: 200, body: LOGPROBS },
];
const MISSING_V1: ScriptedRoute[] = [
  { method: 'POST', path: '/api/chat/completions', status: 404, body: { error: { message: 'Invalid URL (POST /api/chat/completions)' } } },
  { method: 'GET', path: '/api/v1/models', status: 200, body: MODELS },
  { method: 'POST', path: '/api/v1/chat/completions', status: 200, body: LOGPROBS },
];
const UNAUTHORIZED: ScriptedRoute[] = [
  { method: 'GET', path: '/v1/models', status: 401, body: { error: { message: `Incorrect API key provided: ${FILE_KEY}` } } },
  { method: 'POST', path: '/v1/chat/completions', status: 401, body: { error: { message: `Incorrect API key provided: ${FILE_KEY}` } } },
];

/** The editor's text of the document each `endpoint()` answer describes (the fake host's open document). */
const TEXTS = new WeakMap<EndpointInfo, string>();

/**
 * What `rolloutLint/endpointAt` answers for a `.env` whose first line is `OPENAI_BASE_URL=<baseUrl>`
 * and, with `apiKey`, whose second is `OPENAI_API_KEY=<apiKey>`: the key's location, never its value.
 */
function endpoint(baseUrl: string, apiKey?: string): EndpointInfo {
  const start = 'OPENAI_BASE_URL='.length;
  const range = { start: { line: 0, character: start }, end: { line: 0, character: start + baseUrl.length } };
  const keyStart = 'OPENAI_API_KEY='.length;
  const info: EndpointInfo = {
    key: 'OPENAI_BASE_URL',
    baseUrl,
    version: 1,
    range,
    contentRange: range,
    consumers: [{ id: 'openai-sdk', via: 'OPENAI_BASE_URL' }],
    requests: [{ consumer: 'openai-sdk', url: `${baseUrl}/chat/completions` }],
    providers: [],
    apiKey: apiKey ? { key: 'OPENAI_API_KEY', range: { start: { line: 1, character: keyStart }, end: { line: 1, character: keyStart + apiKey.length } }, version: 1 } : undefined,
  };
  TEXTS.set(info, `OPENAI_BASE_URL=${baseUrl}\n${apiKey ? `OPENAI_API_KEY=${apiKey}\n` : ''}`);
  return info;
}

const LENS = { uri: 'file:///w/.env', offset: 16 };

describe('Test TaoToken Connection in the extension host (fake VS Code, scripted server on 127.0.0.1)', function () {
  this.timeout(20000);
  let server: ScriptedServer;
  afterEach(async () => server?.close());

  /** One command run against a scripted server; the probe may open sockets to loopback addresses only. */
  async function run(routes: ScriptedRoute[], info: (port: number) => EndpointInfo | null, options: FakeHostOptions = {}) {
    server = await startScriptedServer(routes);
    const answer = info(server.port);
    const text = answer ? TEXTS.get(answer) : undefined;
    const host = fakeHost({ documents: text !== undefined ? { [LENS.uri]: { text, version: 1 } } : undefined, ...options });
    const lsp = fakeServer({ 'rolloutLint/endpointAt': () => answer, 'rolloutLint/endpoints': () => [] });
    const ctx = fakeContext(host, lsp);
    setTransportTestOptions(sessionOf(ctx), { allowAddress: isLoopbackAddress });
    const report = await testConnection.run(ctx, LENS);
    await sessionOf(ctx).followUp;
    /** Everything a person or a log reader could see. */
    const visible = [...ctx.logs, ...host.record.messages.flatMap((m) => [m.message, m.detail ?? '', ...m.items]), ...host.record.items.flatMap((i) => [i.text, i.detail ?? '']), ...host.record.untitled.map((u) => u.content), ...host.record.progress];
    return { report: report as Awaited<ReturnType<typeof runTestConnection>>, host, ctx, lsp, visible };
  }

  it('probes the lens target through the host fetch and reports ok with log probs', async () => {
    const { report, host, lsp } = await run(OK, (port) => endpoint(`http://127.0.0.1:${port}/v1`, FILE_KEY));
    assert.equal(report?.verdict, 'ok', report?.explanation.en);
    assert.equal(report?.logprobsShape, 'chat');
    assert.deepEqual(lsp.requests, [['rolloutLint/endpointAt', LENS]]);
    assert.ok(host.record.fetches.length >= 2, 'requests went through host.fetch');
    assert.ok(server.requests.every((r) => r.headers.authorization === `Bearer ${FILE_KEY}`));
    assert.match(host.record.items[0].text, /^127\.0\.0\.1:\d+ ✓ \d+ ms · logprobs ✓$/);
    assert.equal(host.record.messages[0].kind, 'info');
    assert.match(host.record.messages[0].message, /^✓ 127\.0\.0\.1:\d+ · \d+ ms — OK: http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions answered/);
    assert.deepEqual(host.record.messages[0].items, ['Show Output', 'Show Report']);
  });

  it('reads the paired key from its own document; when that changed since the lint, asks again, then sends no block key', async () => {
    const stale = { [LENS.uri]: { text: `OPENAI_BASE_URL=x\nOPENAI_API_KEY=${FILE_KEY}\n`, version: 2 } };
    const asked: string[] = [];
    const { report, lsp } = await run(OK, (port) => endpoint(`http://127.0.0.1:${port}/v1`, FILE_KEY), {
      documents: stale,
      env: { OPENAI_API_KEY: ENV_KEY },
      answer: (_kind, message, items, modal) => (modal ? (asked.push(message), items[0]) : undefined),
    });
    assert.deepEqual(lsp.requests.map(([m]) => m), ['rolloutLint/endpointAt', 'rolloutLint/endpointAt']);
    assert.equal(report?.verdict, 'ok');
    assert.ok(server.requests.every((r) => r.headers.authorization === `Bearer ${ENV_KEY}`), 'the environment key, after consent');
    assert.equal(asked.length, 1);
    assert.ok(!asked[0].includes(FILE_KEY.slice(-4)), 'the consent names the environment key, not the unread file key');
  });

  it('makes no network call in an untrusted workspace, and says why', async () => {
    const { report, host, lsp } = await run(OK, (port) => endpoint(`http://127.0.0.1:${port}/v1`, FILE_KEY), { trusted: false });
    assert.equal(report, undefined);
    assert.equal(server.requests.length, 0);
    assert.deepEqual(host.record.fetches, []);
    assert.deepEqual(lsp.requests, []);
    assert.match(host.record.messages[0].message, /untrusted workspace/);
  });

  it('sends no request at all when the user cancels consent for a key the model does not bind to the origin', async () => {
    const asked: string[] = [];
    const { report, host } = await run(OK, (port) => endpoint(`http://127.0.0.1:${port}/v1`), {
      env: { OPENAI_API_KEY: ENV_KEY, OPENAI_BASE_URL: 'https://api.example.invalid/v1' },
      answer: (_kind, message, _items, modal) => (modal ? (asked.push(message), undefined) : undefined),
    });
    assert.equal(report, undefined);
    assert.equal(asked.length, 1, 'the modal asked once');
    assert.equal(server.requests.length, 0, 'no request reached the server');
    assert.deepEqual(host.record.fetches, []);
  });

  it('after "Send once" the key goes only to the probed origin', async () => {
    const { report } = await run(OK, (port) => endpoint(`http://127.0.0.1:${port}/v1`), {
      env: { OPENAI_API_KEY: ENV_KEY },
      answer: (_kind, _message, items, modal) => (modal ? items[0] : undefined),
    });
    assert.equal(report?.verdict, 'ok');
    assert.equal(report?.key.sent, true);
    assert.ok(server.requests.length > 0 && server.requests.every((r) => r.headers.authorization === `Bearer ${ENV_KEY}` && r.headers.host === `127.0.0.1:${server.port}`));
  });

  it('without any key for the origin, probes without one', async () => {
    const { report } = await run(OK, (port) => endpoint(`http://127.0.0.1:${port}/v1`), { env: { DEEPSEEK_API_KEY: ENV_KEY } });
    assert.equal(report?.key.sent, false);
    assert.ok(server.requests.every((r) => r.headers.authorization === undefined));
    assert.match(report!.explanation.en, /No API key was sent: none is configured for http:\/\/127\.0\.0\.1:\d+/);
  });

  it('Apply Fix replaces the base URL value with the verified one, and the result feeds the lint', async () => {
    const { report, host, lsp } = await run(MISSING_V1, (port) => endpoint(`http://127.0.0.1:${port}/api`, FILE_KEY), { answer: (_k, _m, items) => items.find((i) => i === 'Apply Fix') });
    assert.equal(report?.verdict, 'not-found');
    assert.equal(report?.fix?.verified, true);
    const base = `http://127.0.0.1:${server.port}/api`;
    assert.deepEqual(host.record.edits, [{ uri: LENS.uri, range: endpoint(base).contentRange, expected: base, text: `${base}/v1` }]);
    assert.match(host.record.messages[1].message, /Replaced the base URL/);
    const kept = host.workspaceState.data.get(VERIFIED_STATE) as { baseUrl: string; workingBaseUrl: string }[];
    assert.deepEqual(kept.map((e) => [e.baseUrl, e.workingBaseUrl]), [[base, `${base}/v1`]]);
    assert.deepEqual(lsp.notifications.map(([method, params]) => [method, (params as { endpoints: unknown[] }).endpoints.length]), [['rolloutLint/verifiedEndpoints', 1]]);
  });

  it('Apply Fix leaves a setting alone that changed since the test', async () => {
    const { host } = await run(MISSING_V1, (port) => endpoint(`http://127.0.0.1:${port}/api`, FILE_KEY), { editable: false, answer: (_k, _m, items) => items.find((i) => i === 'Apply Fix') });
    assert.match(host.record.messages[1].message, /changed since the test/);
  });

  it('never shows or logs the full key, even when the server echoes it; Show Report opens the masked report', async () => {
    const { report, visible, host } = await run(UNAUTHORIZED, (port) => endpoint(`http://127.0.0.1:${port}/v1`, FILE_KEY), { answer: (_k, _m, items) => items.find((i) => i === 'Show Report') });
    assert.equal(report?.verdict, 'unauthorized');
    assert.ok(!JSON.stringify(report).includes(FILE_KEY));
    assert.ok(visible.length > 5);
    for (const text of visible) assert.ok(!text.includes(FILE_KEY) && !text.includes(FILE_KEY.slice(8, 30)), text);
    assert.ok(visible.some((t) => t.includes('sk-…file, 40 chars')), 'the mask is shown instead');
    assert.equal(host.record.untitled[0].language, 'rollout-lint-report');
    assert.match(host.record.untitled[0].content, /^# Test TaoToken Connection\nVerdict: unauthorized/);
    assert.deepEqual(host.record.messages[0].items, ['Show Output', 'Show Report'], 'a key from the file is fixed in the file, not with Set API Key');
  });

  it('offers Set API Key for a rejected environment key, stores the typed key and tests again with it', async () => {
    const typed = 'sk-test-2222222222222222222222222222type';
    const routes: ScriptedRoute[] = [
      { method: 'GET', path: '/v1/models', status: 401, body: { error: { message: 'bad key' } } },
      { method: 'POST', path: '/v1/chat/completions', status: 401, body: { error: { message: 'bad key' } } },
    ];
    const { host } = await run(routes, (port) => endpoint(`http://127.0.0.1:${port}/v1`), {
      env: { OPENAI_API_KEY: ENV_KEY },
      inputs: [typed],
      answer: (_k, _m, items, modal) => (modal ? items[0] : items.find((i) => i === 'Set API Key')),
    });
    assert.deepEqual(host.record.messages[1].items.slice(0, 1), ['Set API Key']);
    assert.equal(host.secrets.data.get(storedKeyName(`http://127.0.0.1:${server.port}`)), typed);
    assert.ok(server.requests.some((r) => r.headers.authorization === `Bearer ${typed}`), 'tested again with the stored key');
  });

  it('Cancel in the progress notification stops the probe and reports nothing', async () => {
    server = await startScriptedServer([{ method: 'GET', path: '/v1/models', status: 'timeout' }]);
    const host = fakeHost();
    const controller = new AbortController();
    host.withProgress = async (_title, task) => {
      void server.received(1).then(() => controller.abort());
      return task(controller.signal);
    };
    const ctx = fakeContext(host, fakeServer({ 'rolloutLint/endpointAt': () => endpoint(`http://127.0.0.1:${server.port}/v1`) }));
    assert.equal(await runTestConnection(ctx, LENS), undefined);
    assert.ok(ctx.logs.includes('Test Connection cancelled.'));
    assert.equal(host.record.items.length, 0);
  });

  it('test hooks exist only in ExtensionMode.Test; host overrides reach 127.0.0.1 with the name in the Host header', async () => {
    const plain = fakeContext(fakeHost());
    testConnection.activate?.(plain);
    assert.equal('testHooks' in plain.exports, false);

    server = await startScriptedServer(OK);
    const host = fakeHost({ testMode: true, env: { OPENAI_API_KEY: ENV_KEY } });
    const name = 'rollout-lint-unit.test';
    const ctx = fakeContext(host, fakeServer({ 'rolloutLint/endpointAt': () => endpoint(`http://${name}:${server.port}/v1`) }));
    testConnection.activate?.(ctx);
    const hooks = ctx.exports.testHooks as TestHooks;
    hooks.setHostOverrides({ [name]: '127.0.0.1' });
    const asked: string[] = [];
    hooks.setConsentHandler((request) => (asked.push(request.origin), 'once'));
    setTransportTestOptions(sessionOf(ctx), { allowAddress: isLoopbackAddress });
    const report = await testConnection.run(ctx, LENS);
    assert.equal(report && (report as { verdict: string }).verdict, 'ok');
    assert.deepEqual(asked, [`http://${name}:${server.port}`]);
    assert.ok(server.requests.length > 0 && server.requests.every((r) => r.headers.host === `${name}:${server.port}` && r.headers.authorization === `Bearer ${ENV_KEY}`));
  });
});
