import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultBaseUrl, runPing, setFromFileResolver, type PingIo } from '../../../server/src/cli/ping';
import type { ProbeDeps } from '../../../server/src/core/probe/types';
import { loopbackTransport, onServer, startScriptedServer, type ScriptedRoute, type ScriptedServer } from '../../support/scripted-server';
import { CHAT_WITH_LOGPROBS, KEY, MODELS } from './helpers';
import { runCli, workspace } from '../cli/helpers';

interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

async function ping(argv: string[], env: NodeJS.ProcessEnv = {}, deps?: ProbeDeps, cwd = process.cwd()): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const io: PingIo = { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env, cwd };
  const code = await runPing(argv, io, deps);
  return { code, stdout, stderr };
}

/** A transport that never opens a socket: every lookup fails, and every host asked for is recorded. */
function offlineDeps(): ProbeDeps & { hosts: string[] } {
  const hosts: string[] = [];
  return {
    hosts,
    lookup: async (host) => {
      hosts.push(host);
      throw Object.assign(new Error('offline'), { code: 'ENOTFOUND' });
    },
    connect: async () => ({ ok: false, errorCode: 'ECONNREFUSED' }),
    fetch: async () => Promise.reject(new Error('offline')),
    now: () => 0,
  };
}

const OK_ROUTES: ScriptedRoute[] = [
  { method: 'GET', path: '/v1/models', status: 200, body: MODELS('m') },
  { method: 'POST', path: '/v1/chat/completions', status: 200, body: CHAT_WITH_LOGPROBS },
];

describe('rollout-lint ping (runPing)', () => {
  let server: ScriptedServer;
  let transport: ReturnType<typeof loopbackTransport>;
  beforeEach(async () => {
    server = await startScriptedServer(OK_ROUTES);
    transport = loopbackTransport();
  });
  afterEach(async () => {
    setFromFileResolver(undefined);
    await transport.close();
    await server.close();
  });

  it('--json prints the documented fields; exit 0 when ok', async () => {
    const base = onServer('http://api.example.com/v1', server);
    const out = await ping(['--base-url', base, '--json'], {}, transport);
    assert.equal(out.code, 0, out.stderr);
    const json = JSON.parse(out.stdout);
    assert.deepEqual(Object.keys(json), ['verdict', 'secondary', 'baseUrl', 'consumer', 'model', 'steps', 'key', 'explanation']);
    assert.deepEqual([json.verdict, json.secondary, json.baseUrl, json.consumer], ['ok', [], base, 'openai-sdk']);
    assert.deepEqual(json.steps.map((s: Record<string, unknown>) => Object.keys(s).sort()), [
      ['ms', 'name', 'url', 'verdict'],
      ['ms', 'name', 'url', 'verdict'],
      ['method', 'ms', 'name', 'status', 'url', 'verdict'],
      ['method', 'ms', 'name', 'status', 'url', 'verdict'],
    ]);
  });

  it('human output: verdict line, steps table, explanation, fix; exit 1 when not ok', async () => {
    const out = await ping(['--base-url', onServer('http://api.example.com/v1/chat/completions', server), '--model', 'm'], {}, transport);
    assert.equal(out.code, 1);
    const lines = out.stdout.split('\n');
    assert.match(lines[0], /^✗ verdict: not-found — http:\/\/api\.example\.com:\d+\/v1\/chat\/completions \(openai-sdk\)$/);
    assert.match(lines[1], /^key: No API key was sent/);
    assert.match(lines[2], /^ {2}step +method +url +status +ms +result$/);
    assert.ok(lines.some((l) => /^ {2}chat +POST +http:\/\/api\.example\.com:\d+\/v1\/chat\/completions\/chat\/completions +404 +\d+ +not-found$/.test(l)));
    assert.match(out.stdout, /\/chat\/completions is duplicated/);
    assert.match(out.stdout, /\nFix: http:\/\/api\.example\.com:\d+\/v1 \[verified\] Remove the duplicated \/chat\/completions/);
  });

  it('a base URL that itself holds /v1/v1 is "duplicated", not "the client appends /v1 itself" (openai-sdk appends no /v1)', async () => {
    const out = await ping(['--base-url', onServer('http://api.example.com/v1/v1', server), '--model', 'm'], {}, transport);
    assert.equal(out.code, 1);
    assert.match(out.stdout, /verdict: not-found/);
    assert.match(out.stdout, /The path segment \/v1 is duplicated.*strip it from the base URL/);
    assert.doesNotMatch(out.stdout, /appends \/v1 itself/);
  });

  it('--lang zh-CN', async () => {
    const out = await ping(['--base-url', onServer('http://api.example.com/v1', server), '--lang', 'zh-CN'], {}, transport);
    assert.match(out.stdout, /结论: ok/);
    assert.match(out.stdout, /正常：/);
  });

  it('LANG=zh_CN.UTF-8 picks Chinese by default', async () => {
    const out = await ping(['--base-url', onServer('http://api.example.com/v1', server)], { LANG: 'zh_CN.UTF-8' }, transport);
    assert.match(out.stdout, /正常：/);
  });

  it('default target: OPENAI_BASE_URL, and the key bound to it from the same environment', async () => {
    const base = onServer('http://api.example.com/v1', server);
    const out = await ping(['--json'], { OPENAI_BASE_URL: base, OPENAI_API_KEY: KEY }, transport);
    const json = JSON.parse(out.stdout);
    assert.deepEqual([json.baseUrl, json.key.sent], [base, true]);
    assert.equal(server.requests[1].headers.authorization, `Bearer ${KEY}`);
  });

  it('default target without OPENAI_BASE_URL is TaoToken for the consumer', async () => {
    const deps = offlineDeps();
    const out = await ping(['--json'], {}, deps);
    assert.deepEqual([out.code, JSON.parse(out.stdout).baseUrl, JSON.parse(out.stdout).verdict], [1, 'https://taotoken.net/api/v1', 'dns']);
    assert.deepEqual(deps.hosts, ['taotoken.net']);
    assert.equal(JSON.parse((await ping(['--json', '--consumer', 'anthropic'], {}, offlineDeps())).stdout).baseUrl, 'https://taotoken.net/api');
    assert.equal(defaultBaseUrl('v1-appending', {}), 'https://taotoken.net/api');
    assert.equal(defaultBaseUrl('openai-sdk', { OPENAI_BASE_URL: '  ' }), 'https://taotoken.net/api/v1');
    assert.equal(defaultBaseUrl('anthropic', { ANTHROPIC_BASE_URL: 'https://gw.example/api' }), 'https://gw.example/api');
  });

  it('a known provider is named in the verdict line and in --json', async () => {
    const human = await ping([], {}, offlineDeps());
    assert.match(human.stdout.split('\n')[0], /^✗ verdict: dns — https:\/\/taotoken\.net\/api\/v1 \(openai-sdk, TaoToken\)$/);
    const json = JSON.parse((await ping(['--json'], {}, offlineDeps())).stdout);
    assert.deepEqual([json.provider.id, json.provider.name, json.provider.modelsUrl], ['taotoken', 'TaoToken', 'https://taotoken.net/api/v1/models']);
    assert.match(json.explanation, /Provider: TaoToken/);
  });

  it('an environment key bound elsewhere is not sent; --api-key-env sends it for this run', async () => {
    const base = onServer('http://gw.example.com/v1', server);
    const withheld = await ping(['--base-url', base], { OPENAI_API_KEY: KEY }, transport);
    assert.match(withheld.stdout, /No API key was sent: OPENAI_API_KEY belongs to https:\/\/api\.openai\.com.*--api-key-env OPENAI_API_KEY/);
    assert.equal(server.requests.some((r) => r.headers.authorization), false);
    const sent = await ping(['--base-url', base, '--api-key-env', 'OPENAI_API_KEY'], { OPENAI_API_KEY: KEY }, transport);
    assert.equal(sent.code, 0);
    assert.match(sent.stdout, /key: Sending the key sk-…0000, 36 chars from OPENAI_API_KEY/);
    assert.equal(server.requests.at(-1)!.headers.authorization, `Bearer ${KEY}`);
  });

  it('--from FILE (JSON): base, consumer, model and the site log-prob settings', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollout-lint-ping-'));
    try {
      writeFileSync(join(dir, 'target.json'), JSON.stringify({ baseUrl: onServer('http://api.example.com/v1', server), consumer: 'openai-sdk', model: 'm', logprobs: true, top_logprobs: 3 }));
      const out = await ping(['--from', 'target.json', '--json'], {}, transport, dir);
      assert.equal(out.code, 0, out.stderr);
      assert.deepEqual(JSON.parse(server.requests.at(-1)!.body), { model: 'm', messages: [{ role: 'user', content: 'ping' }], max_tokens: 1, logprobs: true, top_logprobs: 3 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('setFromFileResolver: the hook reads other files, and its key goes only to its own base', async () => {
    const base = onServer('http://api.example.com/v1', server);
    const seen: string[] = [];
    setFromFileResolver(async (path) => {
      seen.push(path);
      return { baseUrl: base, consumer: 'openai-sdk', apiKey: KEY };
    });
    const out = await ping(['--from', '.env', '--json'], {}, transport, '/work/project');
    assert.deepEqual([out.code, seen], [0, ['/work/project/.env']]);
    assert.equal(server.requests.at(-1)!.headers.authorization, `Bearer ${KEY}`);
    const elsewhere = onServer('http://other.example.com/v1', server);
    const moved = await ping(['--from', '.env', '--base-url', elsewhere, '--json'], {}, transport, '/work/project');
    assert.equal(JSON.parse(moved.stdout).key.sent, false);
    assert.match(JSON.parse(moved.stdout).key.note, /belongs to http:\/\/api\.example\.com/);
  });

  const usage: [string, string[], NodeJS.ProcessEnv?][] = [
    ['an unknown flag', ['--nope']],
    ['an unknown consumer', ['--consumer', 'grpc']],
    ['a bad timeout', ['--timeout', 'soon']],
    ['an unknown language', ['--lang', 'fr']],
    ['a relative base URL', ['--base-url', 'api.example.com/v1']],
    ['an unset --api-key-env', ['--base-url', 'http://h.example/v1', '--api-key-env', 'NOT_SET_KEY']],
    ['a missing --from file', ['--from', '/nonexistent/target.json']],
    ['sglang-native without a base URL', ['--consumer', 'sglang-native']],
    ['an extra argument', ['http://h.example/v1']],
  ];
  for (const [what, argv, env] of usage) {
    it(`exit 2 on ${what}, without touching the network`, async () => {
      const deps = offlineDeps();
      const out = await ping(argv, env ?? {}, deps);
      assert.equal(out.code, 2, out.stdout);
      assert.ok(out.stderr.length > 0);
      assert.deepEqual(deps.hosts, []);
    });
  }

  it('--from with malformed JSON or wrong types is a usage error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollout-lint-ping-'));
    try {
      writeFileSync(join(dir, 'bad.json'), '{"baseUrl": "http://h/v1", "consumer": ');
      writeFileSync(join(dir, 'typed.json'), '{"baseUrl": "http://h/v1", "top_logprobs": "5"}');
      writeFileSync(join(dir, 'binary.json'), Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80]));
      for (const file of ['bad.json', 'typed.json', 'binary.json']) {
        const out = await ping(['--from', file], {}, offlineDeps(), dir);
        assert.equal(out.code, 2, file);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--help prints usage and exits 0', async () => {
    const out = await ping(['--help'], {}, offlineDeps());
    assert.equal(out.code, 0);
    assert.match(out.stdout, /--api-key-env <name>/);
  });
});

describe('rollout-lint ping keeps the /models list for lint (model-not-served)', () => {
  it('a model the last ping\'s /models did not list is an error today, with a did-you-mean', async () => {
    const server = await startScriptedServer([
      { method: 'GET', path: '/v1/models', status: 200, body: MODELS('policy') },
      { method: 'POST', path: '/v1/chat/completions', status: 200, body: CHAT_WITH_LOGPROBS },
    ]);
    const transport = loopbackTransport();
    const cache = mkdtempSync(join(tmpdir(), 'rollout-lint-cache-'));
    const base = onServer('http://api.example.com/v1', server);
    const ws = workspace({ '.env': `OPENAI_BASE_URL=${base}\nOPENAI_MODEL=polcy\n` });
    try {
      const out = await ping(['--base-url', base, '--model', 'policy'], { ROLLOUT_LINT_CACHE_DIR: cache }, transport);
      assert.equal(out.code, 0, out.stderr);
      const lint = await runCli(ws.root, ['.env'], { env: { ROLLOUT_LINT_CACHE_DIR: cache } });
      assert.match(lint.out, /\.env:2:14: error: OPENAI_MODEL "polcy" is not among the models .*\/models listed today \("policy"\)\. Did you mean "policy"\? \[model-not-served\]/);
      const without = await runCli(ws.root, ['.env'], { env: {} });
      assert.doesNotMatch(without.out, /model-not-served/, 'no cache folder named: nothing read');
    } finally {
      ws.cleanup();
      rmSync(cache, { recursive: true, force: true });
      await transport.close();
      await server.close();
    }
  });
});
