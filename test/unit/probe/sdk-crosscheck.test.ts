import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { probe } from '../../../server/src/core/probe/probe';
import { loopbackTransport, startScriptedServer, type ScriptedServer } from '../../support/scripted-server';

const CHAT_OK = { id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'length', message: { role: 'assistant', content: 'p' }, logprobs: { content: [{ token: 'p', logprob: -0.5, bytes: null, top_logprobs: [] }] } }] };
const RESPONSE_OK = { id: 'r', object: 'response', created_at: 0, model: 'm', status: 'completed', output: [], parallel_tool_calls: false, tool_choice: 'auto', tools: [] };
const MODELS_OK = { object: 'list', data: [{ id: 'm', object: 'model', created: 0, owned_by: 'x' }] };

/** Paths (after the server's origin) under which each base is tried. */
const BASE_PATHS = ['/v1', '/v1/', '', '/', '/api/v1', '/api/v1/', '/v1//', '/v1/chat/completions', '/v1/v1'];

/** Every request path the scripted server saw since `from`, as `METHOD path?query`. */
function seen(server: ScriptedServer, from: number): string[] {
  return server.requests.slice(from).map((r) => `${r.method} ${r.url}`);
}

describe('probe vs the real openai SDK (v6): same URLs for the same base', () => {
  let server: ScriptedServer;
  before(async () => {
    const routes = [];
    for (const prefix of ['', '/v1', '/api/v1', '/v1/', '/v1/chat/completions', '/v1/v1']) {
      routes.push(
        { method: 'GET', path: `${prefix}/models`, status: 200, body: MODELS_OK },
        { method: 'POST', path: `${prefix}/chat/completions`, status: 200, body: CHAT_OK },
        { method: 'POST', path: `${prefix}/responses`, status: 200, body: RESPONSE_OK },
      );
    }
    server = await startScriptedServer(routes);
  });
  after(() => server.close());

  for (const path of BASE_PATHS) {
    it(`base "<origin>${path}" (openai-sdk and openai-responses)`, async () => {
      const base = `http://127.0.0.1:${server.port}${path}`;
      const client = new OpenAI({ baseURL: base, apiKey: 'sk-test-0000000000000000000000000000', maxRetries: 0 });
      let mark = server.requests.length;
      await client.models.list();
      await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'ping' }], max_tokens: 1, logprobs: true, top_logprobs: 1 });
      const sdkChat = seen(server, mark);
      mark = server.requests.length;
      await client.responses.create({ model: 'm', input: 'ping' });
      const sdkResponses = seen(server, mark);
      assert.equal(sdkChat.length, 2);
      assert.equal(sdkResponses.length, 1);

      const transport = loopbackTransport();
      try {
        mark = server.requests.length;
        await probe({ baseUrl: base, consumer: 'openai-sdk', model: 'm' }, transport);
        assert.deepEqual(seen(server, mark).slice(0, 2), sdkChat, 'GET models + POST chat/completions');
        mark = server.requests.length;
        await probe({ baseUrl: base, consumer: 'openai-responses', model: 'm' }, transport);
        assert.equal(seen(server, mark)[1], sdkResponses[0], 'POST responses');
      } finally {
        await transport.close();
      }
    });
  }

  it('a query string on the base: both put the path into the query', async () => {
    const base = `http://127.0.0.1:${server.port}/v1?utm_source=x`;
    const client = new OpenAI({ baseURL: base, apiKey: 'sk-test-0000000000000000000000000000', maxRetries: 0 });
    const mark = server.requests.length;
    await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'ping' }] }).catch(() => undefined);
    const sdk = seen(server, mark);
    const transport = loopbackTransport();
    try {
      const mark2 = server.requests.length;
      const report = await probe({ baseUrl: base, consumer: 'openai-sdk', model: 'm' }, transport);
      assert.equal(seen(server, mark2)[1], sdk[0]);
      assert.equal(report.steps.find((s) => s.name === 'chat')?.url, `http://127.0.0.1:${server.port}${sdk[0].slice(5)}`);
    } finally {
      await transport.close();
    }
  });
});
