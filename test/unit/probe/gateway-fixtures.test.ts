import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyResponse } from '../../../server/src/core/probe/classify';
import { explain } from '../../../server/src/core/probe/explain';
import type { ProbeTarget } from '../../../server/src/core/probe/types';
import { CHAT_WITH_LOGPROBS, MODELS, probeScripted } from './helpers';
import { providerForProbe } from '../../../server/src/core/probe/provider';

/**
 * What a real LiteLLM proxy answered (test/fixtures/gateways/litellm.json, recorded by the opt-in
 * record-litellm.mjs beside it, with the version and source it names) is classified as the failure the
 * guide lists (issue 30).
 */
interface Recorded {
  id: string;
  request: { method: string; path: string; key: string; body?: { model?: string } };
  response: { status: number; headers: Record<string, string>; body: string };
}
const FIXTURE = JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'gateways', 'litellm.json'), 'utf8')) as { version: string; source: string; scenarios: Recorded[] };

const EXPECTED: Record<string, string> = {
  ok: 'ok',
  'no-logprobs': 'no-logprobs',
  'no-key': 'unauthorized',
  'wrong-key': 'unauthorized',
  'duplicate-v1': 'not-found',
  'utm-query': 'not-found',
  'unknown-model': 'model-not-found',
  'upstream-503': 'server-error',
};

function classify(s: Recorded) {
  return classifyResponse({ status: s.response.status, headers: new Headers(s.response.headers), text: s.response.body, api: 'chat', logprobsRequested: true, model: s.request.body?.model });
}

describe(`probe: LiteLLM proxy ${FIXTURE.version} answers, as recorded`, () => {
  it('names its version and source', () => {
    assert.match(FIXTURE.version, /^\d+\.\d+\.\d+/);
    assert.ok(FIXTURE.source.length > 0);
  });

  for (const [id, verdict] of Object.entries(EXPECTED)) {
    it(`${id} → ${verdict}`, () => {
      const s = FIXTURE.scenarios.find((x) => x.id === id);
      assert.ok(s, `no recorded scenario ${id}`);
      assert.equal(classify(s).verdict, verdict, `${s.response.status} ${s.response.body.slice(0, 200)}`);
    });
  }

  it('a wrong key (400 no_db_connection) is explained as a key problem and quotes what LiteLLM said', () => {
    const s = FIXTURE.scenarios.find((x) => x.id === 'wrong-key')!;
    const response = classify(s);
    const target: ProbeTarget = { baseUrl: 'http://127.0.0.1:4000/v1', consumer: 'openai-sdk' };
    const step = { name: 'chat', method: 'POST', url: 'http://127.0.0.1:4000/v1/chat/completions', status: 400, ms: 1, verdict: 'unauthorized' } as const;
    const refs = explain({ verdict: response.verdict, step, response, serverMessage: response.serverMessage, sentKey: 'sk-wrong-key-00000000000000', target, host: '127.0.0.1', port: 4000, targetHost: '127.0.0.1', keyUnsendable: false, timeoutMs: 10000, failedVariants: [] } as Parameters<typeof explain>[0]);
    assert.deepEqual(refs.slice(0, 2).map((r) => r.id), ['unauthorized', 'serverSaid']);
  });

  it('an upstream 503 through the gateway is transient (LiteLLM drops the upstream Retry-After)', () => {
    const s = FIXTURE.scenarios.find((x) => x.id === 'upstream-503')!;
    assert.equal(s.response.headers['retry-after'], undefined);
    assert.equal(classify(s).transient, true);
  });
});

describe('probe: a 404 from a base with a query names the query and tries the base without it', () => {
  it('on any port (not only a documented one), with a verified fix', async () => {
    const routes = [
      { method: 'GET', path: '/v1/models', status: 200, body: MODELS('policy') },
      { method: 'POST', path: '/v1/chat/completions', status: 200, body: CHAT_WITH_LOGPROBS },
    ];
    const { report } = await probeScripted(routes, { baseUrl: 'http://gateway.test:8123/v1?utm_source=x&utm_medium=y', model: 'policy' });
    assert.equal(report.verdict, 'not-found');
    assert.match(report.explanation.en, /query “\?utm_source=x&utm_medium=y”/);
    assert.match(report.explanation['zh-CN'], /查询串/);
    assert.equal(report.fix?.verified, true);
    assert.match(report.fix!.baseUrl, /^[^?]*\/v1$/);
  });
});

describe('probe: a timeout through a known gateway', () => {
  const input = (baseUrl: string) =>
    ({ verdict: 'timeout', provider: providerForProbe(baseUrl, 'openai-sdk'), target: { baseUrl, consumer: 'openai-sdk' }, host: '127.0.0.1', port: 4000, targetHost: '127.0.0.1', keyUnsendable: false, timeoutMs: 10000, failedVariants: [] }) as Parameters<typeof explain>[0];

  it('says the gateway may be waiting out its upstream (LiteLLM proxy on its documented port)', () => {
    assert.ok(explain(input('http://127.0.0.1:4000/v1')).some((r) => r.id === 'provider.gatewayTimeout'));
    assert.ok(!explain(input('http://127.0.0.1:8000/v1')).some((r) => r.id === 'provider.gatewayTimeout'));
  });
});
