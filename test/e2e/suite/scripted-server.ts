import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the server answers under `/<scenario>/v1/…` (`models`: as `ok`, under a base URL no other test probes). */
export type Scenario = 'ok' | 'unauthorized' | 'no-logprobs' | 'paused' | 'models';

/** One request the server saw. `authorization` is kept so tests can check which key was sent. */
export interface SeenRequest {
  method: string;
  path: string;
  host: string;
  authorization?: string;
  body: string;
}

const MODEL = 'qwen3-4b-instruct';

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function chat(withLogprobs: boolean): unknown {
  return {
    id: 'chatcmpl-e2e',
    object: 'chat.completion',
    model: MODEL,
    choices: [{
      index: 0,
      message: { role: 'assistant', content: 'ok' },
      finish_reason: 'length',
      logprobs: withLogprobs ? { content: [{ token: 'ok', logprob: -0.0123, bytes: [111, 107], top_logprobs: [{ token: 'ok', logprob: -0.0123, bytes: [111, 107] }] }] } : null,
    }],
    usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
  };
}

function answer(scenario: string, route: string, res: http.ServerResponse): void {
  if (scenario === 'models') scenario = 'ok';
  if (scenario === 'unauthorized') {
    send(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
  } else if (route === '/v1/models' && ['ok', 'no-logprobs', 'paused'].includes(scenario)) {
    send(res, 200, { object: 'list', data: [{ id: MODEL, object: 'model', owned_by: 'e2e' }] });
  } else if (route === '/v1/chat/completions' && scenario === 'paused') {
    send(res, 503, { error: { message: 'rollout paused for weight update; retry later', type: 'service_unavailable' } });
  } else if (route === '/v1/chat/completions' && (scenario === 'ok' || scenario === 'no-logprobs')) {
    send(res, 200, chat(scenario === 'ok'));
  } else {
    send(res, 404, { error: { message: `Invalid URL (${route})`, type: 'invalid_request_error' } });
  }
}

/**
 * An OpenAI-compatible server on 127.0.0.1 (random port) that answers per scenario prefix, e.g.
 * `http://127.0.0.1:PORT/paused/v1` as a base URL. Every request is recorded in `seen`.
 */
export async function startScriptedServer(): Promise<{ port: number; seen: SeenRequest[]; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://scripted');
      seen.push({ method: req.method ?? '', path: url.pathname, host: req.headers.host ?? '', authorization: req.headers.authorization, body: Buffer.concat(chunks).toString('utf8') });
      const [, scenario = '', ...rest] = url.pathname.split('/');
      answer(scenario, `/${rest.join('/')}`, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
