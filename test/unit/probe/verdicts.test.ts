import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { probe } from '../../../server/src/core/probe/probe';
import { ProbeCancelledError, ProbeInputError, VERDICTS, type Verdict } from '../../../server/src/core/probe/types';
import { createNodeTransport, isLoopbackAddress } from '../../../server/src/node/probe-transport';
import { loopbackTransport, onServer, startScriptedServer } from '../../support/scripted-server';
import { CHAT_WITH_LOGPROBS, CHAT_WITHOUT_LOGPROBS, KEY, MODELS, paths, probeScripted } from './helpers';

const covered = new Set<Verdict>();
function expectVerdict(actual: Verdict, expected: Verdict): void {
  assert.equal(actual, expected);
  covered.add(actual);
}

describe('probe verdicts against a scripted server (loopback only)', () => {
  after(() => {
    assert.deepEqual(VERDICTS.filter((v) => !covered.has(v)), [], 'every verdict code has a test');
  });

  it('ok: models list, then chat with log probs; exact default body and bearer key', async () => {
    const { report, server } = await probeScripted(
      [
        { method: 'GET', path: '/v1/models', status: 200, body: MODELS('m-1', 'm-2') },
        { method: 'POST', path: '/v1/chat/completions', status: 200, body: CHAT_WITH_LOGPROBS },
      ],
      { baseUrl: 'http://api.example.com/v1', apiKey: KEY },
    );
    expectVerdict(report.verdict, 'ok');
    assert.deepEqual([report.model, report.logprobsShape, report.models, report.secondary], ['m-1', 'chat', ['m-1', 'm-2'], []]);
    assert.deepEqual(report.steps.map((s) => s.name), ['dns', 'connect', 'models', 'chat']);
    const chat = server.requests[1];
    assert.deepEqual(JSON.parse(chat.body), { model: 'm-1', messages: [{ role: 'user', content: 'ping' }], max_tokens: 1, logprobs: true, top_logprobs: 1 });
    assert.equal(chat.headers.authorization, `Bearer ${KEY}`);
    assert.deepEqual(report.key, { sent: true, masked: 'sk-…0000, 36 chars' });
    assert.match(report.explanation.en, /^OK: .* log probs \(chat\)/);
  });

  it('a models list alone never proves the key: 401 on chat is unauthorized', async () => {
    const { report } = await probeScripted(
      [
        { method: 'GET', path: '/v1/models', status: 200, body: MODELS('m') },
        { method: 'POST', path: '/v1/chat/completions', status: 401, body: { error: { message: 'bad key' } } },
      ],
      { baseUrl: 'http://h.example/v1', apiKey: 'Bearer sk-test-1111111111111111111111' },
    );
    expectVerdict(report.verdict, 'unauthorized');
    assert.match(report.explanation.en, /rejected the key sk-…, \d+ chars|rejected the key …1111, 37 chars/);
    assert.match(report.explanation.en, /starts with "Bearer "/);
  });

  it('no-logprobs: the answer has choices but no log probs', async () => {
    const { report } = await probeScripted([{ method: 'POST', path: '/v1/chat/completions', status: 200, body: CHAT_WITHOUT_LOGPROBS }], { baseUrl: 'http://h.example/v1', model: 'm' });
    expectVerdict(report.verdict, 'no-logprobs');
    assert.equal(report.logprobsShape, 'none');
    assert.deepEqual(report.secondary, [], 'a missing models list is shown in the steps, not as a failure');
    assert.equal(report.steps.find((s) => s.name === 'models')?.verdict, 'not-found');
  });

  it('html-not-api: a tracking-parameter link to the site root', async () => {
    const { report } = await probeScripted(
      [{ method: 'POST', path: '/', status: 200, content_type: 'text/html', body: '<!doctype html><html><body>Welcome</body></html>' }],
      { baseUrl: 'http://www.example.com/?utm_source=newsletter', model: 'm' },
    );
    expectVerdict(report.verdict, 'html-not-api');
    assert.match(report.explanation.en, /web page \(text\/html\)/);
    assert.match(report.explanation.en, /\?utm_/);
  });

  it('not-found: shows the exact URL, tries variants, and names them when none works', async () => {
    const { report, server } = await probeScripted([], { baseUrl: 'http://h.example', model: 'm' });
    expectVerdict(report.verdict, 'not-found');
    assert.deepEqual(paths(server), ['GET /models', 'POST /chat/completions', 'POST /v1/chat/completions']);
    assert.match(report.explanation.en, /POST http:\/\/h\.example:\d+\/chat\/completions answered 404/);
    assert.match(report.explanation.en, /Tried http:\/\/h\.example:\d+\/v1\/chat\/completions; none answered/);
    assert.equal(report.fix, undefined);
  });

  it('not-found: a redirect to another host is not followed (the key stays)', async () => {
    const { report, server } = await probeScripted(
      [{ method: 'POST', path: '/v1/chat/completions', status: 301, headers: { location: 'https://elsewhere.example/v1/chat/completions' } }],
      { baseUrl: 'http://h.example/v1', model: 'm', apiKey: KEY },
    );
    expectVerdict(report.verdict, 'not-found');
    assert.match(report.explanation.en, /redirects to https:\/\/elsewhere\.example/);
    assert.equal(server.requests.filter((r) => r.url === '/v1/chat/completions').length, 1);
  });

  it('a same-origin redirect is followed with the same method and body', async () => {
    const { report, server } = await probeScripted(
      [
        { method: 'POST', path: '/v1/chat/completions', status: 307, headers: { location: '/v2/chat/completions' } },
        { method: 'POST', path: '/v2/chat/completions', status: 200, body: CHAT_WITH_LOGPROBS },
      ],
      { baseUrl: 'http://h.example/v1', model: 'm' },
    );
    expectVerdict(report.verdict, 'ok');
    assert.equal(JSON.parse(server.requests.at(-1)!.body).model, 'm');
  });

  it('forbidden', async () => {
    const { report } = await probeScripted([{ method: 'POST', path: '/v1/chat/completions', status: 403, body: { error: { message: 'no access' } } }], { baseUrl: 'http://h.example/v1', model: 'm', apiKey: KEY });
    expectVerdict(report.verdict, 'forbidden');
    assert.match(report.explanation.en, /403 for the key sk-…0000, 36 chars/);
  });

  it('unauthorized without a key says no key was sent, and why', async () => {
    const { report } = await probeScripted([{ method: 'POST', path: '/v1/chat/completions', status: 401, body: {} }], {
      baseUrl: 'http://h.example/v1',
      model: 'm',
      keyNote: { id: 'keyNote.none', data: { origin: 'http://h.example' } },
    });
    expectVerdict(report.verdict, 'unauthorized');
    assert.match(report.explanation.en, /no key was sent.*No API key was sent: none is configured/);
    assert.deepEqual(report.key, { sent: false, masked: undefined });
  });

  it('bad-request shows the server message; max_tokens 400 is retried once with max_completion_tokens', async () => {
    const { report, server } = await probeScripted(
      [
        { method: 'POST', path: '/v1/chat/completions', request_body: { max_tokens: 1 }, status: 400, body: { error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead." } } },
        { method: 'POST', path: '/v1/chat/completions', request_body: { max_completion_tokens: 1 }, status: 400, body: { error: { message: 'logprobs are not supported with reasoning models' } } },
      ],
      { baseUrl: 'http://h.example/v1', model: 'o-model' },
    );
    expectVerdict(report.verdict, 'bad-request');
    assert.deepEqual(report.steps.map((s) => s.name).slice(-2), ['chat', 'retry']);
    assert.equal(server.requests.filter((r) => r.method === 'POST').length, 2);
    assert.match(report.explanation.en, /“logprobs are not supported with reasoning models”/);
  });

  it('the max_completion_tokens retry can succeed', async () => {
    const { report } = await probeScripted(
      [
        { method: 'POST', path: '/v1/chat/completions', request_body: { max_tokens: 1 }, status: 400, body: { error: { message: "Use 'max_completion_tokens' instead of 'max_tokens'" } } },
        { method: 'POST', path: '/v1/chat/completions', request_body: { max_completion_tokens: 1 }, status: 200, body: CHAT_WITH_LOGPROBS },
      ],
      { baseUrl: 'http://h.example/v1', model: 'o-model' },
    );
    expectVerdict(report.verdict, 'ok');
    assert.deepEqual(report.secondary, [], 'the superseded 400 is not a failure');
  });

  it('model-not-found lists the models and suggests the nearest', async () => {
    const { report } = await probeScripted(
      [
        { method: 'GET', path: '/v1/models', status: 200, body: MODELS('gpt-4o-mini', 'gpt-4o', 'o3') },
        { method: 'POST', path: '/v1/chat/completions', status: 404, body: { error: { message: 'The model `gpt-4o-mni` does not exist or you do not have access to it.', code: 'model_not_found' } } },
      ],
      { baseUrl: 'http://h.example/v1', model: 'gpt-4o-mni' },
    );
    expectVerdict(report.verdict, 'model-not-found');
    assert.match(report.explanation.en, /Models it lists: gpt-4o-mini, gpt-4o, o3\. Did you mean “gpt-4o-mini”\?/);
    assert.match(report.explanation['zh-CN'], /您是否想用“gpt-4o-mini”/);
  });

  it('model needed: no model given, none listed, and the server asks for one', async () => {
    const { report, server } = await probeScripted([{ method: 'POST', path: '/v1/chat/completions', status: 400, body: { error: { message: 'you must provide a model parameter' } } }], { baseUrl: 'http://h.example/v1' });
    expectVerdict(report.verdict, 'model-not-found');
    assert.equal('model' in JSON.parse(server.requests.at(-1)!.body), false);
    assert.match(report.explanation.en, /No model was given and the server lists none; pass --model\./);
  });

  it('paused: OpenClaw-RL "submission paused for weight update" is transient', async () => {
    const { report } = await probeScripted([{ method: 'POST', path: '/v1/chat/completions', status: 503, body: { detail: 'submission paused for weight update' } }], { baseUrl: 'http://127.0.0.1:30000/v1', model: 'm' });
    expectVerdict(report.verdict, 'paused');
    assert.match(report.explanation.en, /transient/);
  });

  it('rate-limited with Retry-After', async () => {
    const { report } = await probeScripted([{ method: 'POST', path: '/v1/chat/completions', status: 429, headers: { 'retry-after': '12' }, body: { error: { message: 'Rate limit reached' } } }], { baseUrl: 'http://h.example/v1', model: 'm' });
    expectVerdict(report.verdict, 'rate-limited');
    assert.match(report.explanation.en, /Retry after 12 s/);
  });

  it('server-error', async () => {
    const { report } = await probeScripted([{ method: 'POST', path: '/v1/chat/completions', status: 500, body: { error: { message: 'CUDA out of memory' } } }], { baseUrl: 'http://h.example/v1', model: 'm' });
    expectVerdict(report.verdict, 'server-error');
    assert.match(report.explanation.en, /CUDA out of memory/);
  });

  it('proxy: a 503 page with Via', async () => {
    const { report } = await probeScripted([{ method: 'POST', path: '/v1/chat/completions', status: 503, headers: { Via: '1.1 squid' }, body: 'Service Unavailable' }], { baseUrl: 'http://10.0.0.5:8000/v1', model: 'm' });
    expectVerdict(report.verdict, 'proxy');
    assert.match(report.explanation.en, /via: 1\.1 squid.*NO_PROXY/);
  });

  it('timeout: a small per-step timeout, no sleeping', async () => {
    const { report } = await probeScripted([{ method: 'POST', path: '/v1/chat/completions', status: 'timeout' }], { baseUrl: 'http://h.example/v1', model: 'm' }, { timeoutMs: 150 });
    expectVerdict(report.verdict, 'timeout');
    assert.deepEqual([report.steps.at(-1)?.name, report.steps.at(-1)?.verdict], ['chat', 'timeout']);
    assert.match(report.explanation.en, /within 150 ms \(step chat\)/);
  });

  it('dns: lookup fails with ENOTFOUND; nothing else runs', async () => {
    const transport = createNodeTransport({ env: {}, allowAddress: isLoopbackAddress, lookup: async () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })) });
    try {
      const report = await probe({ baseUrl: 'https://no-such-host.example/v1', consumer: 'openai-sdk' }, transport);
      expectVerdict(report.verdict, 'dns');
      assert.deepEqual(report.steps.map((s) => [s.name, s.detail]), [['dns', 'ENOTFOUND']]);
      assert.match(report.explanation.en, /no-such-host\.example does not resolve \(ENOTFOUND\)/);
    } finally {
      await transport.close();
    }
  });

  it('connection-refused: nothing listens on the port', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const transport = loopbackTransport();
    try {
      const report = await probe({ baseUrl: `http://api.example.com:${port}/v1`, consumer: 'openai-sdk' }, transport);
      expectVerdict(report.verdict, 'connection-refused');
      assert.deepEqual(report.steps.map((s) => [s.name, s.verdict, s.detail]).at(-1), ['connect', 'connection-refused', 'ECONNREFUSED']);
    } finally {
      await transport.close();
    }
  });

  it('tls: https:// to a plain-HTTP port; no request (and no key) is sent', async () => {
    const server = await startScriptedServer([{ method: 'POST', path: '/v1/chat/completions', status: 200, body: CHAT_WITH_LOGPROBS }]);
    const transport = loopbackTransport();
    try {
      const report = await probe({ baseUrl: onServer('https://api.example.com/v1', server), consumer: 'openai-sdk', apiKey: KEY }, transport);
      expectVerdict(report.verdict, 'tls');
      assert.match(report.explanation.en, /speaks plain HTTP, not TLS/);
      assert.match(report.explanation['zh-CN'], /明文 HTTP/);
      assert.deepEqual([report.fix?.baseUrl, report.fix?.verified], [`http://api.example.com:${server.port}/v1`, false]);
      assert.deepEqual(server.requests, []);
    } finally {
      await transport.close();
      await server.close();
    }
  });
});

describe('probe: input, cancellation and the loopback guard', () => {
  it('rejects a base URL that is not absolute http(s)', async () => {
    const transport = loopbackTransport();
    try {
      await assert.rejects(probe({ baseUrl: 'api.example.com/v1', consumer: 'openai-sdk' }, transport), ProbeInputError);
      await assert.rejects(probe({ baseUrl: 'ftp://api.example.com/v1', consumer: 'openai-sdk' }, transport), ProbeInputError);
      assert.deepEqual(transport.lookups, []);
    } finally {
      await transport.close();
    }
  });

  it('cancels mid-request with ProbeCancelledError', async () => {
    const server = await startScriptedServer([{ method: 'POST', path: '/v1/chat/completions', status: 'timeout' }]);
    const transport = loopbackTransport();
    const controller = new AbortController();
    try {
      const running = probe({ baseUrl: onServer('http://h.example/v1', server), consumer: 'openai-sdk', model: 'm' }, transport, { signal: controller.signal, timeoutMs: 60_000 });
      await server.received(2);
      controller.abort();
      await assert.rejects(running, ProbeCancelledError);
    } finally {
      await transport.close();
      await server.close();
    }
  });

  it('the test transport maps every host to 127.0.0.1, IP literals included', async () => {
    const server = await startScriptedServer([{ method: 'POST', path: '/generate', status: 200, body: { text: 'x', meta_info: { output_token_logprobs: [[-0.1, 5, null]] } } }]);
    const transport = loopbackTransport();
    try {
      const report = await probe({ baseUrl: onServer('http://10.1.2.3:30000', server), consumer: 'sglang-native' }, transport);
      assert.deepEqual([report.verdict, report.logprobsShape], ['ok', 'sglang']);
      assert.deepEqual(transport.lookups.slice(0, 1), ['10.1.2.3']);
      assert.equal(JSON.parse(server.requests.at(-1)!.body).return_logprob, true);
    } finally {
      await transport.close();
      await server.close();
    }
  });

  it('the guard refuses a non-loopback address before any socket opens', async () => {
    const transport = createNodeTransport({ env: {}, allowAddress: isLoopbackAddress, lookup: async () => ['93.184.216.34'] });
    try {
      await assert.rejects(
        transport.fetch('http://example.com/', { method: 'GET', headers: {}, signal: new AbortController().signal, redirect: 'manual' }),
        (error: Error & { cause?: { code?: string } }) => error.cause?.code === 'ERR_ROLLOUT_LINT_ADDRESS_REFUSED',
      );
      const connected = await transport.connect('example.com', 80, false, new AbortController().signal);
      assert.deepEqual(connected, { ok: false, errorCode: 'ERR_ROLLOUT_LINT_ADDRESS_REFUSED' });
      const report = await probe({ baseUrl: 'http://example.com/v1', consumer: 'openai-sdk' }, transport);
      assert.deepEqual([report.verdict, report.steps.at(-1)?.detail], ['connection-refused', 'ERR_ROLLOUT_LINT_ADDRESS_REFUSED']);
    } finally {
      await transport.close();
    }
  });

  it('a test transport refuses to be combined with a proxy', () => {
    assert.throws(() => createNodeTransport({ env: { HTTPS_PROXY: 'http://proxy.example:8080' }, allowAddress: isLoopbackAddress }));
  });
});
