import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { probe } from '../../../server/src/core/probe/probe';
import type { ProbeDeps, ProbeResponse } from '../../../server/src/core/probe/types';
import { createNodeTransport, proxyForUrl } from '../../../server/src/node/probe-transport';
import { onServer, startScriptedServer, type ScriptedServer } from '../../support/scripted-server';
import { CHAT_WITH_LOGPROBS, MODELS } from './helpers';

const settings = (noProxy: string) => ({ httpProxy: 'http://proxy.example:8080', httpsProxy: '', noProxy });

describe('probe transport: proxy selection mirrors undici EnvHttpProxyAgent', () => {
  it('proxies unless NO_PROXY names the host (or a parent domain, or *); CIDR ranges do not match', () => {
    assert.equal(proxyForUrl('http://10.1.2.3:30000/generate', settings('10.0.0.0/8,localhost,127.0.0.1')), 'http://proxy.example:8080');
    assert.equal(proxyForUrl('http://10.1.2.3:30000/generate', settings('10.1.2.3')), undefined);
    assert.equal(proxyForUrl('http://api.corp.example/v1', settings('.corp.example')), undefined);
    assert.equal(proxyForUrl('http://api.corp.example/v1', settings('*.corp.example')), undefined);
    assert.equal(proxyForUrl('http://api.corp.example/v1', settings('*')), undefined);
    assert.equal(proxyForUrl('http://h.example:8000/v1', settings('h.example:9000')), 'http://proxy.example:8080');
    assert.equal(proxyForUrl('http://h.example:8000/v1', settings('h.example:8000')), undefined);
    assert.equal(proxyForUrl('https://h.example/v1', settings('')), 'http://proxy.example:8080', 'HTTPS_PROXY falls back to HTTP_PROXY');
    assert.equal(proxyForUrl('https://h.example/v1', { httpProxy: '', httpsProxy: '', noProxy: '' }), undefined);
  });
});

/** A CONNECT proxy on 127.0.0.1 that tunnels every request to `target` (never anywhere else); with `requireAuth`, answers 407. */
async function startTunnelProxy(target: ScriptedServer, requireAuth = false): Promise<{ port: number; connects: string[]; close(): Promise<void> }> {
  const connects: string[] = [];
  const sockets = new Set<net.Socket>();
  const proxy = http.createServer((_, res) => res.writeHead(405).end());
  proxy.on('connect', (req: http.IncomingMessage, client: net.Socket) => {
    connects.push(req.url ?? '');
    sockets.add(client);
    if (requireAuth) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
      return;
    }
    const upstream = net.connect(target.port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client).pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    port: (proxy.address() as AddressInfo).port,
    connects,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        proxy.close(() => resolve());
      }),
  };
}

describe('probe transport: through an HTTP proxy (EnvHttpProxyAgent, all on 127.0.0.1)', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer([
      { method: 'GET', path: '/v1/models', status: 200, body: MODELS('m') },
      { method: 'POST', path: '/v1/chat/completions', status: 200, body: CHAT_WITH_LOGPROBS },
    ]);
  });
  afterEach(() => server.close());

  it('dns/connect steps target the proxy; the request tunnels through it', async () => {
    const proxy = await startTunnelProxy(server);
    const transport = createNodeTransport({ env: { HTTP_PROXY: `http://127.0.0.1:${proxy.port}` }, lookup: async () => ['127.0.0.1'] });
    try {
      const report = await probe({ baseUrl: onServer('http://api.example.com/v1', server), consumer: 'openai-sdk' }, transport);
      assert.equal(report.verdict, 'ok', report.explanation.en);
      assert.deepEqual(report.steps.slice(0, 2).map((s) => s.url), ['127.0.0.1', `127.0.0.1:${proxy.port}`]);
      assert.ok(proxy.connects.every((c) => c === `api.example.com:${server.port}`) && proxy.connects.length > 0);
    } finally {
      await transport.close();
      await proxy.close();
    }
  });

  it('a proxy that refuses the tunnel (407) is a proxy verdict', async () => {
    const proxy = await startTunnelProxy(server, true);
    const transport = createNodeTransport({ env: { https_proxy: `http://127.0.0.1:${proxy.port}`, http_proxy: `http://127.0.0.1:${proxy.port}` }, lookup: async () => ['127.0.0.1'] });
    try {
      const report = await probe({ baseUrl: onServer('http://api.example.com/v1', server), consumer: 'openai-sdk', model: 'm' }, transport);
      assert.equal(report.verdict, 'proxy');
      assert.match(report.explanation.en, /refused to open a tunnel to api\.example\.com \(status 407\)/);
      assert.deepEqual(server.requests, []);
    } finally {
      await transport.close();
      await proxy.close();
    }
  });
});

describe('probe core with misbehaving injected functions (no sockets)', () => {
  const never = <T>() => new Promise<T>(() => undefined);
  const deps = (over: Partial<ProbeDeps>): ProbeDeps => ({
    lookup: async () => ['192.0.2.1'],
    connect: async () => ({ ok: true }),
    fetch: async () => Promise.reject(new Error('unused')),
    now: () => 0,
    ...over,
  });

  it('a lookup that never settles times out at the dns step', async () => {
    const report = await probe({ baseUrl: 'http://h.example/v1', consumer: 'openai-sdk' }, deps({ lookup: never }), { timeoutMs: 30 });
    assert.deepEqual(report.steps.map((s) => [s.name, s.verdict]), [['dns', 'timeout']]);
  });

  it('a fetch that ignores its abort signal still times out', async () => {
    const report = await probe({ baseUrl: 'http://h.example/v1', consumer: 'openai-sdk' }, deps({ fetch: never }), { timeoutMs: 30 });
    assert.deepEqual([report.verdict, report.steps.at(-1)?.name], ['timeout', 'models']);
  });

  it('a response body that never ends times out', async () => {
    const response: ProbeResponse = { status: 200, headers: new Headers(), text: never };
    const report = await probe({ baseUrl: 'http://h.example/v1', consumer: 'openai-sdk' }, deps({ fetch: async () => response }), { timeoutMs: 30 });
    assert.equal(report.verdict, 'timeout');
  });

  it('fetch errors are classified from err.cause.code', async () => {
    const failing = (code: string) => deps({ fetch: async () => Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) })) });
    const verdicts = [];
    for (const code of ['ECONNRESET', 'UND_ERR_HEADERS_TIMEOUT', 'ENOTFOUND', 'ERR_SSL_WRONG_VERSION_NUMBER']) {
      verdicts.push((await probe({ baseUrl: 'http://h.example/v1', consumer: 'openai-sdk' }, failing(code))).verdict);
    }
    assert.deepEqual(verdicts, ['connection-refused', 'timeout', 'dns', 'tls']);
  });

  it('an empty address list is a dns failure; a proxy moves dns/connect to the proxy and skips tls', async () => {
    assert.equal((await probe({ baseUrl: 'https://h.example/v1', consumer: 'openai-sdk' }, deps({ lookup: async () => [] }))).verdict, 'dns');
    const hosts: string[] = [];
    const report = await probe(
      { baseUrl: 'https://h.example/v1', consumer: 'openai-sdk' },
      deps({ lookup: async (h) => (hosts.push(h), ['192.0.2.1']), proxyFor: () => 'http://proxy.example:3128', fetch: async () => ({ status: 404, headers: new Headers(), text: async () => '' }) }),
    );
    assert.deepEqual(hosts, ['proxy.example']);
    assert.deepEqual(report.steps.slice(0, 2).map((s) => [s.name, s.url]), [['dns', 'proxy.example'], ['connect', 'proxy.example:3128']]);
    assert.ok(!report.steps.some((s) => s.name === 'tls'));
  });

  it('odd answers never crash: binary bytes, a huge page, CRLF and Chinese in messages', async () => {
    const answers: [number, string, string][] = [
      [200, 'application/octet-stream', '\u0000\u00ff\ufffd binary'],
      [200, 'text/html', `<html>${'x'.repeat(2_000_000)}</html>`],
      [400, 'application/json', JSON.stringify({ error: { message: '参数错误：\r\ntop_logprobs 超出范围' } })],
      [200, 'application/json', '{"choices": [ {"logprobs": {"content": [{"logprob": "NaN"}]}} ]'],
    ];
    const verdicts = [];
    for (const [status, type, text] of answers) {
      const fetch = async (): Promise<ProbeResponse> => ({ status, headers: new Headers({ 'content-type': type }), text: async () => text });
      const report = await probe({ baseUrl: 'http://h.example/v1', consumer: 'openai-sdk', model: 'm' }, deps({ fetch }));
      verdicts.push(report.verdict);
      if (status === 400) assert.match(report.explanation.en, /“参数错误： top_logprobs 超出范围”/);
    }
    assert.deepEqual(verdicts, ['html-not-api', 'html-not-api', 'bad-request', 'html-not-api']);
  });
});
