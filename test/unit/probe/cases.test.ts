import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseProbeKey, type EnvMap, type FileKey } from '../../../server/src/core/probe/keys';
import { probe } from '../../../server/src/core/probe/probe';
import type { ProbeReport, ProbeTarget, Verdict } from '../../../server/src/core/probe/types';
import { loopbackTransport, onServer, startScriptedServer, type ScriptedRoute, type ScriptedServer } from '../../support/scripted-server';
import { CHAT_WITH_LOGPROBS } from './helpers';

interface ManifestCase {
  id: string;
  file: string;
  ping?: { requests: ScriptedRoute[]; expect_explanation: string };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../cases/manifest.json'), 'utf8')) as { cases: ManifestCase[] };

/**
 * How each case's client would call its endpoint, read off the case file (the `--from FILE` resolver
 * will derive the same), with the key source the security model applies to. URLs are the real ones;
 * the test moves them onto the scripted server (http, its port) only after the key decision.
 */
interface CaseSetup {
  target: Omit<ProbeTarget, 'apiKey' | 'keyNote'>;
  env?: EnvMap;
  fileKey?: FileKey;
  /** Routes the manifest leaves out but the case's expectation needs. */
  extraRoutes?: ScriptedRoute[];
  timeoutMs?: number;
  verdict: Verdict;
  keySent: boolean;
  check(report: ProbeReport, server: ScriptedServer): void;
}

const K = 'sk-test-0000000000000000000000000000';

const SETUPS: Record<string, CaseSetup> = {
  // .env: OPENAI_BASE_URL is the full chat endpoint.
  'case-01': {
    target: { baseUrl: 'https://api.example.com/v1/chat/completions', consumer: 'openai-sdk', model: 'gpt-4o-mini' },
    env: { OPENAI_API_KEY: K, OPENAI_BASE_URL: 'https://api.example.com/v1/chat/completions' },
    verdict: 'not-found',
    keySent: true,
    check(report, server) {
      assert.ok(server.requests.some((r) => r.method === 'POST' && r.url === '/v1/chat/completions/chat/completions'));
      assert.match(report.explanation.en, /POST http:\/\/api\.example\.com:\d+\/v1\/chat\/completions\/chat\/completions answered 404/);
      assert.match(report.explanation.en, /path segment \/chat\/completions is duplicated.*strip it from the base URL/);
      assert.match(report.explanation['zh-CN'], /路径段 \/chat\/completions 重复/);
      assert.deepEqual([report.fix?.baseUrl, report.fix?.verified], [onServerText(server, 'http://api.example.com/v1'), false]);
    },
  },
  // settings.json (Claude Code env): ANTHROPIC_BASE_URL ends in /api/v1; the client appends /v1/messages.
  'case-03': {
    target: { baseUrl: 'http://localhost:8000/api/v1', consumer: 'anthropic', model: 'example-model' },
    env: { ANTHROPIC_BASE_URL: 'http://localhost:8000/api/v1', ANTHROPIC_AUTH_TOKEN: K },
    verdict: 'not-found',
    keySent: true,
    check(report, server) {
      const request = server.requests.find((r) => r.url === '/api/v1/v1/messages')!;
      assert.deepEqual([request.headers['x-api-key'], request.headers['anthropic-version'], request.headers.authorization], [K, '2023-06-01', undefined]);
      assert.match(report.explanation.en, /version segment \/v1 is doubled \(\/api\/v1\/v1\/messages\)/);
      assert.equal(report.fix?.baseUrl, onServerText(server, 'http://localhost:8000/api'));
    },
  },
  // .env: OPENROUTER_API_BASE with a trailing slash, concatenated by a naive client into //chat/completions.
  'case-04': {
    target: { baseUrl: 'https://router.example.com/api/v1//chat/completions', consumer: 'raw', model: 'example-model' },
    fileKey: { value: K, baseUrl: 'https://router.example.com/api/v1/' },
    verdict: 'not-found',
    keySent: true,
    check(report, server) {
      assert.equal(server.requests[0].url, '/api/v1//chat/completions');
      assert.match(report.explanation.en, /answered 404.*contains \/\/.*Normalise the base URL/);
      assert.equal(report.fix?.baseUrl, onServerText(server, 'http://router.example.com/api/v1/chat/completions'));
    },
  },
  // .env: a correct local base ending in /v1 (negative control). The manifest scripts only the listing;
  // "expected result OK" needs a chat answer too.
  'case-05': {
    target: { baseUrl: 'http://localhost:11434/v1', consumer: 'openai-sdk' },
    env: { OPENAI_BASE_URL: 'http://localhost:11434/v1', OPENAI_API_KEY: K },
    extraRoutes: [{ method: 'POST', path: '/v1/chat/completions', request_body: { model: 'example-model' }, status: 200, body: CHAT_WITH_LOGPROBS }],
    verdict: 'ok',
    keySent: true,
    check(report, server) {
      const urls = server.requests.map((r) => `${r.method} ${r.url}`);
      assert.ok(urls.includes('GET /v1/models'));
      assert.ok(!urls.includes('GET /models'), 'never /models');
      assert.deepEqual([report.model, report.logprobsShape], ['example-model', 'chat']);
    },
  },
  // .env: only OPENAI_API_BASE is set, which openai>=1.0 ignores; the SDK calls its default host.
  'case-08': {
    target: { baseUrl: 'https://api.openai.com/v1', consumer: 'openai-sdk', model: 'glm-4.5-flash', baseUrlSource: 'sdk-default', ignoredSettings: ['OPENAI_API_BASE'] },
    env: { OPENAI_MODEL: 'glm-4.5-flash', OPENAI_API_KEY: '0000test0000.abcdefghijklmnop', OPENAI_API_BASE: 'https://open.example.com/api/paas/v4' },
    verdict: 'unauthorized',
    keySent: true,
    check(report, server) {
      assert.equal(server.requests[0].url, '/v1/models');
      assert.match(report.explanation.en, /SDK's built-in default, because current OpenAI SDKs do not read OPENAI_API_BASE.*not picked up/);
    },
  },
  // grpo.yaml: vllm_server_host 0.0.0.0; TRL's VLLMClient first GETs http://{host}:{port}/health/.
  'case-10': {
    target: { baseUrl: 'http://0.0.0.0:8000/health/', consumer: 'raw' },
    timeoutMs: 150,
    verdict: 'timeout',
    keySent: false,
    check(report) {
      assert.deepEqual([report.steps.at(-1)?.method, report.steps.at(-1)?.verdict], ['GET', 'timeout']);
      assert.match(report.explanation.en, /0\.0\.0\.0 is a bind address.*routable address/);
    },
  },
  // openclaw.json: bare host under "api": "openai-completions"; the site answers HTML.
  'case-13': {
    target: { baseUrl: 'https://api.example.com', consumer: 'openai-sdk', model: 'example-chat' },
    fileKey: { value: K, baseUrl: 'https://api.example.com' },
    verdict: 'html-not-api',
    keySent: true,
    check(report, server) {
      assert.match(report.explanation.en, /answered 200 with a web page \(text\/html\).*site root/);
      assert.deepEqual([report.fix?.baseUrl, report.fix?.verified], [onServerText(server, 'http://api.example.com/v1'), true]);
      assert.match(report.fix!.reason.en, /\/v1\/chat\/completions answered as an API/);
    },
  },
  // openclaw.json: no "api", so openai-responses; the server only does chat completions.
  'case-14': {
    target: { baseUrl: 'http://127.0.0.1:8000/v1', consumer: 'openai-responses', model: 'example-7b-instruct' },
    fileKey: { value: K, baseUrl: 'http://127.0.0.1:8000/v1' },
    verdict: 'not-found',
    keySent: true,
    check(report) {
      assert.match(report.explanation.en, /implements chat completions but not responses/);
      assert.deepEqual([report.fix?.consumer, report.fix?.verified], ['openai-sdk', true]);
    },
  },
  // run.sh: --openai_key '${sk-test-…}' in single quotes, never expanded; the tool uses the SDK default base.
  'case-16': {
    target: { baseUrl: 'https://api.openai.com/v1', consumer: 'openai-sdk' },
    fileKey: { value: '${sk-test-0000000000000000000000000000}', baseUrl: 'https://api.openai.com/v1' },
    verdict: 'unauthorized',
    keySent: true,
    check(report) {
      assert.match(report.explanation.en, /template characters \(\$\{\)/);
    },
  },
  // .env: `OPENAI_API_KEY=   # comment` read as the comment text by some loaders.
  'case-17': {
    target: { baseUrl: 'https://api.example.com/v1', consumer: 'openai-sdk' },
    env: { OPENAI_API_KEY: '# get one from your provider dashboard', OPENAI_BASE_URL: 'https://api.example.com/v1' },
    verdict: 'unauthorized',
    keySent: true,
    check(report) {
      assert.match(report.explanation.en, /key is comment text/);
    },
  },
  // .env: placeholder key.
  'case-19': {
    target: { baseUrl: 'https://api.example.com/v1', consumer: 'openai-sdk' },
    env: { OPENAI_API_KEY: 'ADD_YOUR_KEY_HERE', OPENAI_BASE_URL: 'https://api.example.com/v1' },
    verdict: 'unauthorized',
    keySent: true,
    check(report) {
      assert.match(report.explanation.en, /placeholder/);
    },
  },
  // .env: trailing space after the Anthropic key.
  'case-22': {
    target: { baseUrl: 'https://api.example.com', consumer: 'anthropic' },
    env: { ANTHROPIC_API_KEY: 'sk-ant-test-0000000000000000000000000000 ', ANTHROPIC_BASE_URL: 'https://api.example.com' },
    verdict: 'unauthorized',
    keySent: true,
    check(report, server) {
      assert.equal(server.requests[0].url, '/v1/messages');
      assert.match(report.explanation.en, /trailing whitespace/);
    },
  },
  // sample.py: top_logprobs=5 without logprobs=True; the site's own settings go into the probe body.
  'case-25': {
    target: { baseUrl: 'https://api.example.com/v1', consumer: 'openai-sdk', model: 'example-chat', logprobs: { top_logprobs: 5 } },
    fileKey: { value: K, baseUrl: 'https://api.example.com/v1' },
    verdict: 'bad-request',
    keySent: true,
    check(report, server) {
      const body = JSON.parse(server.requests.find((r) => r.method === 'POST')!.body);
      assert.deepEqual([body.top_logprobs, 'logprobs' in body], [5, false]);
      assert.match(report.explanation.en, /“Invalid top_logprobs and logprobs value”.*set logprobs=true when using top_logprobs/);
    },
  },
  // run.sh: --top_logprobs 64 against a server capped at 20.
  'case-27': {
    target: { baseUrl: 'http://127.0.0.1:8000/v1', consumer: 'openai-sdk', model: '/models/example-7b', logprobs: { logprobs: true, top_logprobs: 64 } },
    verdict: 'bad-request',
    keySent: false,
    check(report) {
      assert.match(report.explanation.en, /greater than max allowed: 20.*caps top_logprobs at 20 \(asked 64\)/);
    },
  },
  // run.sh: traffic to the SGLang router at 10.1.2.3 goes through the proxy (no_proxy CIDR ignored).
  'case-33': {
    target: { baseUrl: 'http://10.1.2.3:30000', consumer: 'sglang-native' },
    verdict: 'proxy',
    keySent: false,
    check(report, server) {
      assert.equal(JSON.parse(server.requests.find((r) => r.url === '/generate')!.body).return_logprob, true);
      assert.match(report.explanation.en, /returned 503 \(via: 1\.1 proxy\).*10\.1\.2\.3.*NO_PROXY/);
    },
  },
};

function onServerText(server: ScriptedServer, url: string): string {
  return onServer(url, server);
}

describe('ping cases from test/cases/manifest.json', () => {
  const pingCases = manifest.cases.filter((c) => c.ping);

  it('every ping case has a setup here, and every setup a ping case', () => {
    assert.deepEqual(Object.keys(SETUPS).sort(), pingCases.map((c) => c.id).sort());
  });

  for (const entry of pingCases) {
    it(`${entry.id}: ${entry.ping!.expect_explanation}`, async () => {
      const setup = SETUPS[entry.id];
      const choice = chooseProbeKey({ baseUrl: setup.target.baseUrl, env: setup.env ?? {}, fileKey: setup.fileKey });
      assert.equal(choice.apiKey !== undefined, setup.keySent, `key decision for ${setup.target.baseUrl}`);
      const server = await startScriptedServer([...entry.ping!.requests, ...(setup.extraRoutes ?? [])]);
      const transport = loopbackTransport();
      try {
        const target: ProbeTarget = { ...setup.target, baseUrl: onServer(setup.target.baseUrl, server, 'http:'), apiKey: choice.apiKey, keyNote: choice.apiKey ? undefined : choice.note };
        const report = await probe(target, transport, { timeoutMs: setup.timeoutMs ?? 5000 });
        assert.equal(report.verdict, setup.verdict, report.explanation.en);
        assert.ok(report.explanation['zh-CN'].length > 0);
        setup.check(report, server);
      } finally {
        await transport.close();
        await server.close();
      }
    });
  }
});
