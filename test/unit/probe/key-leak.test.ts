import assert from 'node:assert/strict';
import { runPing } from '../../../server/src/cli/ping';
import { probe } from '../../../server/src/core/probe/probe';
import { ProbeInputError, type ProbeConsumer } from '../../../server/src/core/probe/types';
import { loopbackTransport, onServer, startScriptedServer, type ScriptedRoute } from '../../support/scripted-server';

/** A distinctive fake key; no 8-character window of its body may appear in any output. */
const SECRET = 'sk-PRB7x2Qm9ZkL4vT8wN3cY6hJ1dF5gS0aUe';
const WINDOWS = Array.from({ length: SECRET.length - 3 - 8 + 1 }, (_, i) => SECRET.slice(3 + i, 3 + i + 8));

function assertNoKey(text: string, where: string): void {
  for (const window of WINDOWS) assert.ok(!text.includes(window), `${where} contains "${window}" from the key`);
}

/** Servers that echo the key back in every way a real one might. */
const ECHOES: { name: string; consumer: ProbeConsumer; base: string; routes: ScriptedRoute[] }[] = [
  {
    name: '401 echoing the key',
    consumer: 'openai-sdk',
    base: 'http://api.example.com/v1',
    routes: [{ method: 'POST', path: '/v1/chat/completions', status: 401, body: { error: { message: `Incorrect API key provided: ${SECRET}.` } } }],
  },
  {
    name: '400 echoing the key (bad-request shows the server message)',
    consumer: 'openai-sdk',
    base: 'http://api.example.com/v1',
    routes: [{ method: 'POST', path: '/v1/chat/completions', status: 400, body: { error: { message: `header Authorization: Bearer ${SECRET} is malformed` } } }],
  },
  {
    name: 'HTML page quoting the key, then a working variant',
    consumer: 'openai-sdk',
    base: 'http://api.example.com',
    routes: [
      { method: 'POST', path: '/chat/completions', status: 200, content_type: 'text/html', body: `<html><body>token ${SECRET}</body></html>` },
      { method: 'POST', path: '/v1/chat/completions', status: 500, body: { detail: `crash with ${SECRET}` } },
    ],
  },
  {
    name: 'anthropic 404 with the key in the detail, and a redirect carrying it',
    consumer: 'anthropic',
    base: 'http://api.example.com/api/v1',
    routes: [{ method: 'POST', path: '/api/v1/v1/messages', status: 302, headers: { location: `https://elsewhere.example/?k=${SECRET}` } }],
  },
  {
    name: 'the key inside the base URL query',
    consumer: 'openai-sdk',
    base: `http://api.example.com/v1?api_key=${SECRET}`,
    routes: [],
  },
];

describe('the key never appears in the report, JSON, stdout or stderr', () => {
  for (const scenario of ECHOES) {
    it(scenario.name, async () => {
      const server = await startScriptedServer(scenario.routes);
      const transport = loopbackTransport();
      try {
        const baseUrl = onServer(scenario.base, server);
        const report = await probe({ baseUrl, consumer: scenario.consumer, apiKey: SECRET, model: 'm' }, transport);
        assertNoKey(JSON.stringify(report), 'report');
        for (const argv of [[], ['--json'], ['--lang', 'zh-CN']]) {
          let out = '';
          const io = { stdout: (s: string) => (out += s), stderr: (s: string) => (out += s), env: { PROBE_TEST_KEY: SECRET }, cwd: '/' };
          const code = await runPing(['--base-url', baseUrl, '--consumer', scenario.consumer, '--api-key-env', 'PROBE_TEST_KEY', '--model', 'm', ...argv], io, transport);
          assert.equal(code, 1);
          assertNoKey(out, `ping ${argv.join(' ')}`);
        }
        const sentHeaders = server.requests.map((r) => `${r.headers.authorization ?? ''}${r.headers['x-api-key'] ?? ''}`);
        assert.ok(sentHeaders.some((h) => h.includes(SECRET)), 'the key was really sent to its own origin');
      } finally {
        await transport.close();
        await server.close();
      }
    });
  }

  it('a key with a line break is not sent and not shown', async () => {
    const server = await startScriptedServer([{ method: 'POST', path: '/v1/chat/completions', status: 401, body: {} }]);
    const transport = loopbackTransport();
    try {
      const report = await probe({ baseUrl: onServer('http://api.example.com/v1', server), consumer: 'openai-sdk', apiKey: `${SECRET}\n`, model: 'm' }, transport);
      assert.deepEqual([report.verdict, report.key.sent], ['unauthorized', false]);
      assert.match(report.explanation.en, /line break/);
      assertNoKey(JSON.stringify(report), 'report');
      assert.ok(server.requests.every((r) => r.headers.authorization === undefined));
    } finally {
      await transport.close();
      await server.close();
    }
  });

  it('an invalid base URL carrying the key is redacted in the error', async () => {
    const transport = loopbackTransport();
    try {
      await assert.rejects(probe({ baseUrl: `nota url ${SECRET}`, consumer: 'openai-sdk', apiKey: SECRET }, transport), (error: Error) => {
        assert.ok(error instanceof ProbeInputError);
        assertNoKey(error.message, 'error');
        return true;
      });
    } finally {
      await transport.close();
    }
  });
});
