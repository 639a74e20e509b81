import assert from 'node:assert/strict';
import { diagnoseUrl, joinUrl, naiveJoin, planCalls, urlVariants } from '../../../server/src/core/probe/url';

/**
 * openai-python's join, transcribed from `src/openai/_base_client.py` (BaseClient):
 *   def _enforce_trailing_slash(self, url: URL) -> URL:
 *       if url.raw_path.endswith(b"/"): return url
 *       return url.copy_with(raw_path=url.raw_path + b"/")
 *   def _prepare_url(self, url: str) -> URL:
 *       # Copied from httpx's `_merge_url` method.
 *       merge_url = URL(url)
 *       if merge_url.is_relative_url:
 *           merge_raw_path = self.base_url.raw_path + merge_url.raw_path.lstrip(b"/")
 *           return self.base_url.copy_with(raw_path=merge_raw_path)
 * (`base_url` is stored through `_enforce_trailing_slash`). Path-only bases here, so raw_path = pathname.
 */
function pythonJoin(base: string, path: string): string {
  const url = new URL(base);
  const raw = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  return `${url.origin}${raw}${path.replace(/^\/+/, '')}`;
}

/** Rows where openai-python and openai-node agree (every API path starts with exactly one `/`). */
const BOTH_SDKS: [base: string, path: string, url: string][] = [
  ['https://api.example.com/v1', '/chat/completions', 'https://api.example.com/v1/chat/completions'],
  ['https://api.example.com/v1/', '/chat/completions', 'https://api.example.com/v1/chat/completions'],
  ['https://api.example.com', '/models', 'https://api.example.com/models'],
  ['https://api.example.com/', '/models', 'https://api.example.com/models'],
  ['https://taotoken.net/api/v1', '/chat/completions', 'https://taotoken.net/api/v1/chat/completions'],
  ['https://taotoken.net/api', '/v1/messages', 'https://taotoken.net/api/v1/messages'],
  ['http://localhost:11434/v1', '/models', 'http://localhost:11434/v1/models'],
  ['http://127.0.0.1:8000/v1//', '/chat/completions', 'http://127.0.0.1:8000/v1//chat/completions'],
  ['https://api.example.com/v1/chat/completions', '/chat/completions', 'https://api.example.com/v1/chat/completions/chat/completions'],
  ['https://api.example.com/api/v1/v1', '/responses', 'https://api.example.com/api/v1/v1/responses'],
];

describe('probe url: joinUrl follows openai-node v6 buildURL', () => {
  for (const [base, path, url] of BOTH_SDKS) {
    it(`${base} + ${path}`, () => {
      assert.equal(joinUrl(base, path), url);
      assert.equal(pythonJoin(base, path), url, 'the cited openai-python rule gives the same URL');
    });
  }

  it('drops exactly one slash: a base ending in // keeps one of them', () => {
    assert.equal(joinUrl('http://h/v1//', '/models'), 'http://h/v1//models');
  });

  it('a query on the base swallows the path, as in the SDK (re-encoded with RFC 3986)', () => {
    assert.equal(joinUrl('https://api.example.com/v1?utm_source=x', '/chat/completions'), 'https://api.example.com/v1?utm_source=x%2Fchat%2Fcompletions');
  });

  it('naiveJoin keeps // after a trailing slash (f-string concatenation)', () => {
    assert.equal(naiveJoin('http://h:8000/', '/v1/chat/completions'), 'http://h:8000//v1/chat/completions');
  });

  it('throws on a relative base', () => {
    assert.throws(() => joinUrl('api.example.com/v1', '/models'), TypeError);
  });
});

describe('probe url: planCalls per consumer', () => {
  const base = 'https://taotoken.net/api';
  it('openai-sdk: GET /models, POST /chat/completions', () => {
    const plan = planCalls('https://taotoken.net/api/v1', 'openai-sdk');
    assert.deepEqual([plan.advisory?.method, plan.advisory?.url], ['GET', 'https://taotoken.net/api/v1/models']);
    assert.deepEqual([plan.main.method, plan.main.url, plan.main.api], ['POST', 'https://taotoken.net/api/v1/chat/completions', 'chat']);
  });
  it('openai-responses: POST /responses', () => {
    assert.equal(planCalls('http://h/v1', 'openai-responses').main.url, 'http://h/v1/responses');
  });
  it('anthropic: POST <base>/v1/messages, no listing', () => {
    const plan = planCalls(base, 'anthropic');
    assert.equal(plan.advisory, undefined);
    assert.equal(plan.main.url, 'https://taotoken.net/api/v1/messages');
  });
  it('v1-appending: <base>/v1/models and <base>/v1/chat/completions', () => {
    const plan = planCalls(base, 'v1-appending');
    assert.equal(plan.advisory?.url, 'https://taotoken.net/api/v1/models');
    assert.equal(plan.main.url, 'https://taotoken.net/api/v1/chat/completions');
  });
  it('sglang-native: GET /health, POST /generate', () => {
    const plan = planCalls('http://10.1.2.3:30000', 'sglang-native');
    assert.deepEqual([plan.advisory?.url, plan.main.url, plan.main.api], ['http://10.1.2.3:30000/health', 'http://10.1.2.3:30000/generate', 'generate']);
  });
  it('raw: the URL as written; a health URL is a GET', () => {
    assert.deepEqual(planCalls('http://0.0.0.0:8000/health/', 'raw').main, { api: 'health', method: 'GET', url: 'http://0.0.0.0:8000/health/' });
    assert.deepEqual(planCalls('http://h/api/v1//chat/completions', 'raw').main, { api: 'chat', method: 'POST', url: 'http://h/api/v1//chat/completions' });
  });
});

describe('probe url: diagnoseUrl and urlVariants', () => {
  it('duplicated /chat/completions → base without it', () => {
    const found = diagnoseUrl('https://api.example.com/v1/chat/completions', 'openai-sdk', 'https://api.example.com/v1/chat/completions/chat/completions');
    assert.deepEqual(found, { problem: { kind: 'duplicate-segment', segment: '/chat/completions' }, fixedBase: 'https://api.example.com/v1' });
  });
  it('doubled /v1 under anthropic → base without /v1', () => {
    const found = diagnoseUrl('http://localhost:8000/api/v1', 'anthropic', 'http://localhost:8000/api/v1/v1/messages');
    assert.deepEqual(found, { problem: { kind: 'duplicate-segment', segment: '/v1' }, fixedBase: 'http://localhost:8000/api' });
  });
  it('// in a raw URL → collapsed', () => {
    const found = diagnoseUrl('https://r.example.com/api/v1//chat/completions', 'raw', 'https://r.example.com/api/v1//chat/completions');
    assert.deepEqual(found, { problem: { kind: 'empty-segment' }, fixedBase: 'https://r.example.com/api/v1/chat/completions' });
  });
  it('an endpoint path in the base is found even when nothing repeats', () => {
    const found = diagnoseUrl('https://h/v1/chat/completions', 'anthropic', 'https://h/v1/chat/completions/v1/messages');
    assert.equal(found?.problem.kind, 'endpoint-in-base');
    assert.equal(found?.fixedBase, 'https://h/v1');
  });
  it('a healthy URL has no problem', () => {
    assert.equal(diagnoseUrl('https://h/v1', 'openai-sdk', 'https://h/v1/chat/completions'), undefined);
  });
  it('variants: add /v1 to a bare host; remove /v1; chat for responses first', () => {
    assert.deepEqual(urlVariants('https://h', 'openai-sdk', 'https://h/chat/completions').map((v) => v.baseUrl), ['https://h/v1']);
    assert.deepEqual(urlVariants('https://h/api/v1', 'anthropic', 'https://h/api/v1/v1/messages').map((v) => [v.baseUrl, v.reason]), [['https://h/api', 'structural']]);
    assert.deepEqual(
      urlVariants('http://h:8000/v1', 'openai-responses', 'http://h:8000/v1/responses').map((v) => [v.baseUrl, v.consumer, v.reason]),
      [
        ['http://h:8000/v1', 'openai-sdk', 'chat-not-responses'],
        ['http://h:8000', 'openai-responses', 'remove-v1'],
      ],
    );
  });
  it('other version segments are left alone', () => {
    assert.deepEqual(urlVariants('https://h/api/paas/v4', 'openai-sdk', 'https://h/api/paas/v4/chat/completions'), []);
  });
});
