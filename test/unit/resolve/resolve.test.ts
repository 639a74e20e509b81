import assert from 'node:assert/strict';
import { extractJson } from '../../../server/src/core/formats/json';
import { extractDotenv } from '../../../server/src/core/formats/dotenv';
import { extractPython } from '../../../server/src/core/formats/python';
import { loadGrammars } from '../../../server/src/node/grammars';
import { DEFAULT_CONFIG, mergeConfig } from '../../../server/src/core/config/config';
import { resolve } from '../../../server/src/core/resolve/resolve';
import { normalizeKey, roleOf } from '../../../server/src/core/resolve/roles';
import { effectiveRequestUrl, parseBaseUrl, sdkJoin, withPath } from '../../../server/src/core/resolve/urls';
import { matchProviders } from '../../../server/src/core/providers/profiles';
import type { Setting } from '../../../server/src/core/model/types';

function setting(key: string, kind: Setting['kind'] = 'env', extra: Partial<Setting> = {}): Setting {
  const r = { start: 0, end: 0 };
  return { key, path: key, format: 'dotenv', kind, raw: '', value: '', valueType: 'string', keyRange: r, valueRange: r, contentRange: r, quote: '', statementRange: r, group: 'file', ...extra };
}

describe('roles', () => {
  const table: [string, Setting['kind'], string | undefined][] = [
    ['OPENAI_BASE_URL', 'env', 'baseUrl'],
    ['OPENAI_API_BASE', 'env', 'baseUrl'],
    ['ROLLOUT_BASE_URL', 'env', 'baseUrl'],
    ['baseURL', 'property', 'baseUrl'],
    ['--base-url', 'flag', 'baseUrl'],
    ['azure_endpoint', 'kwarg', 'baseUrl'],
    ['vllm_server_host', 'property', 'host'],
    ['--sglang-router-ip', 'flag', 'host'],
    ['ANTHROPIC_AUTH_TOKEN', 'env', 'apiKey'],
    ['--openai_key', 'flag', 'apiKey'],
    ['openai_key', 'property', 'apiKey'],
    ['Authorization', 'flag', 'header'],
    ['top_logprobs', 'kwarg', 'topLogprobs'],
    ['--top-logprobs', 'flag', 'topLogprobs'],
    ['return_logprob', 'dictEntry', 'logprobs'],
    ['OPENAI_MODEL', 'env', 'model'],
    ['model_name_or_path', 'property', undefined],
    ['HOST', 'env', undefined],
    ['--host', 'flag', undefined],
    ['no_proxy', 'env', 'noProxy'],
  ];
  for (const [key, kind, role] of table) {
    it(`${key} (${kind}) → ${role ?? 'no role'}`, () => assert.equal(roleOf(setting(key, kind)), role));
  }
  it('extra key names from configuration win and are normalised', () => {
    assert.equal(roleOf(setting('ROUTER_ENDPOINT'), { baseUrl: ['router-endpoint'] }), 'baseUrl');
    assert.equal(normalizeKey('--Base-URL'), 'base_url');
  });
});

describe('effective request URLs (SDK join rules)', () => {
  const cases: [string, Parameters<typeof effectiveRequestUrl>[1], string | undefined, string][] = [
    ['https://taotoken.net/api/v1', 'openai-sdk', undefined, 'https://taotoken.net/api/v1/chat/completions'],
    ['https://taotoken.net/api/v1/', 'openai-sdk', undefined, 'https://taotoken.net/api/v1/chat/completions'],
    ['https://taotoken.net/api', 'openai-sdk', undefined, 'https://taotoken.net/api/chat/completions'],
    ['https://taotoken.net/api/v1', 'anthropic', undefined, 'https://taotoken.net/api/v1/v1/messages'],
    ['https://taotoken.net/api', 'anthropic', undefined, 'https://taotoken.net/api/v1/messages'],
    ['http://127.0.0.1:30000/v1', 'v1-appending', '/v1/chat/completions', 'http://127.0.0.1:30000/v1/v1/chat/completions'],
    ['http://127.0.0.1:30000/', 'v1-appending', '/v1/chat/completions', 'http://127.0.0.1:30000//v1/chat/completions'],
    ['http://x/v1', 'openai-responses', undefined, 'http://x/v1/responses'],
    ['http://x/v1/chat/completions', 'raw', undefined, 'http://x/v1/chat/completions'],
  ];
  for (const [base, consumer, appended, url] of cases) {
    it(`${consumer}: ${base} → ${url}`, () => assert.equal(effectiveRequestUrl(base, consumer, appended), url));
  }
  it('sdkJoin drops exactly one slash at the seam', () => {
    assert.equal(sdkJoin('http://x/v1//', '/models'), 'http://x/v1//models');
  });
});

describe('parseBaseUrl / withPath', () => {
  it('keeps the path as written, with the query apart', () => {
    const p = parseBaseUrl('https://user@API.example.com:8443/v1/v1?utm_source=x#frag')!;
    assert.deepEqual([p.scheme, p.host, p.port, p.path, p.query, p.hash], ['https', 'api.example.com', '8443', '/v1/v1', 'utm_source=x', 'frag']);
    assert.equal(withPath('https://user@API.example.com:8443/v1/v1?utm_source=x#frag', p, '/v1'), 'https://user@API.example.com:8443/v1?utm_source=x#frag');
  });
  it('rejects what is not an absolute URL', () => {
    for (const v of ['api.example.com/v1', 'http//x', '', 'http://exa mple.com', '${BASE}']) assert.equal(parseBaseUrl(v), undefined, v);
  });
});

describe('providers', () => {
  it('match by host, subdomain, or local port', () => {
    assert.deepEqual(matchProviders('https://taotoken.net/api/v1').map((p) => p.id), ['taotoken']);
    assert.deepEqual(matchProviders('http://localhost:8000/v1').map((p) => p.id), ['vllm']);
    assert.deepEqual(matchProviders('http://10.1.2.3:30000/v1').map((p) => p.id), ['sglang', 'openclaw-rl-proxy']);
    assert.deepEqual(matchProviders('https://unknown.example.com:8000/v1'), []);
  });
});

describe('resolve', () => {
  it('openclaw providers: the "api" field decides the consumer, also for dotted provider names; none = openai-completions (OpenClaw default)', () => {
    const text = '{"models": {"providers": {"a.b": {"baseUrl": "http://h/v1", "api": "anthropic-messages"}, "c": {"baseUrl": "http://h/v1"}}}}';
    const r = resolve(extractJson(text, 'openclaw.json'), DEFAULT_CONFIG);
    assert.deepEqual(r.baseUrls.map((b) => b.consumers.map((c) => c.id)), [['anthropic'], ['openai-sdk']]);
    assert.equal(r.baseUrls[0].requests[0].url, 'http://h/v1/messages');
  });
  it('extraProviders from configuration are matched before built-in ones', () => {
    const config = mergeConfig({ extraProviders: [{ id: 'gw', name: 'Gateway', hosts: ['llm.example.com'], docsUrl: '', openaiBases: ['https://llm.example.com/v1'], chatUrl: '', modelsUrl: '', logprobs: 'supported', source: 'test' }] });
    const r = resolve(extractDotenv('OPENAI_BASE_URL=https://llm.example.com/v1\n'), config);
    assert.deepEqual(r.baseUrls[0].providers.map((p) => p.id), ['gw']);
  });
});

describe('requests of a base URL imported from another file', () => {
  it("are sent by the reading file's clients only (a Python reader: no openai-node), as hover, ping and endpoint rows show them", async () => {
    const { python } = await loadGrammars();
    const text = 'import os\nfrom openai import OpenAI\nc = OpenAI(base_url=os.getenv("OPENAI_BASE_URL"))\n';
    const read = text.indexOf('os.getenv');
    const imported = (origin: boolean) => {
      const extraction = extractPython(text, python);
      const range = { start: read, end: read + 'os.getenv("OPENAI_BASE_URL")'.length };
      const location = { path: '.env', range: { start: 16, end: 40 }, start: { line: 0, character: 16 }, end: { line: 0, character: 40 } };
      extraction.settings.push(setting('OPENAI_BASE_URL', 'envDefault', { format: 'python', value: 'https://api.example.com/v1', raw: 'https://api.example.com/v1', keyRange: range, valueRange: range, contentRange: range, statementRange: range, group: `env-import@${read}`, envName: 'OPENAI_BASE_URL', ...(origin ? { origin: location } : {}) }));
      const base = resolve(extraction, DEFAULT_CONFIG).baseUrls.find((b) => b.setting.envName === 'OPENAI_BASE_URL')!;
      return base.requests.flatMap((r) => r.clients.map((c) => c.client));
    };
    const clients = imported(true);
    assert.ok(clients.length > 0 && clients.every((c) => c.startsWith('openai-python')), clients.join(', '));
    assert.ok(imported(false).includes('openai-node'), 'a value defined here may be read by any client');
  });
});

describe('consumer evidence in Python', () => {
  it('an attribute base joined with /v1 is a v1-appending consumer of that attribute', async () => {
    const { python } = await loadGrammars();
    const text = 'class PolicyClient:\n    def __init__(self):\n        self.base_url = "http://127.0.0.1:30000/v1"\n\n    def url(self):\n        return f"{self.base_url}/v1/chat/completions"\n';
    const r = resolve(extractPython(text, python), DEFAULT_CONFIG);
    assert.deepEqual(r.baseUrls.map((b) => [b.setting.path, b.requests.map((q) => q.url)]), [['self.base_url', ['http://127.0.0.1:30000/v1/v1/chat/completions']]]);
  });
});
