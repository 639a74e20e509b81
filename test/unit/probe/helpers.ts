import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFromFileResolver } from '../../../server/src/cli/ping';
import { resolveFromLintedFile } from '../../../server/src/cli/ping-from-file';
import { probe } from '../../../server/src/core/probe/probe';
import type { ProbeOptions, ProbeReport, ProbeTarget } from '../../../server/src/core/probe/types';
import { loopbackTransport, onServer, startScriptedServer, type ScriptedRoute, type ScriptedServer } from '../../support/scripted-server';

export const KEY = 'sk-test-0000000000000000000000000000';

export const MODELS = (...ids: string[]) => ({ object: 'list', data: ids.map((id) => ({ id, object: 'model' })) });
export const CHAT_WITH_LOGPROBS = { choices: [{ index: 0, message: { role: 'assistant', content: 'p' }, logprobs: { content: [{ token: 'p', logprob: -0.25, top_logprobs: [] }] } }] };
export const CHAT_WITHOUT_LOGPROBS = { choices: [{ index: 0, message: { role: 'assistant', content: 'p' }, logprobs: null }] };

/**
 * Starts a scripted server, probes `target` (its URL moved onto the server's port, scheme kept)
 * through the loopback-only transport, and returns the report with the server's request log.
 */
export async function probeScripted(
  routes: readonly ScriptedRoute[],
  target: Partial<ProbeTarget> & { baseUrl: string },
  options: ProbeOptions = {},
): Promise<{ report: ProbeReport; server: ScriptedServer }> {
  const server = await startScriptedServer(routes);
  const transport = loopbackTransport();
  try {
    const report = await probe({ consumer: 'openai-sdk', ...target, baseUrl: onServer(target.baseUrl, server) }, transport, { timeoutMs: 5000, ...options });
    return { report, server };
  } finally {
    await transport.close();
    await server.close();
  }
}

/** `METHOD path` of every request the server saw. */
export function paths(server: ScriptedServer): string[] {
  return server.requests.map((r) => `${r.method} ${r.url}`);
}

/**
 * Mocha hooks for `ping --from FILE` tests: a scripted OpenAI-compatible server that lists `model`
 * and answers chat with log probs, a temporary folder for the files, and the real from-file resolver.
 * Read `server` and `dir` from the returned object inside tests (they are set in `before`).
 */
export function pingFromFileFixture(prefix: string, model = 'policy'): { server: ScriptedServer; dir: string } {
  const state = {} as { server: ScriptedServer; dir: string };
  before(async () => {
    state.server = await startScriptedServer([
      { method: 'GET', path: '/v1/models', status: 200, body: MODELS(model) },
      { method: 'POST', path: '/v1/chat/completions', status: 200, body: CHAT_WITH_LOGPROBS },
    ]);
    state.dir = mkdtempSync(join(tmpdir(), prefix));
    setFromFileResolver(resolveFromLintedFile);
  });
  after(async () => {
    setFromFileResolver(undefined);
    await state.server?.close();
    if (state.dir) rmSync(state.dir, { recursive: true, force: true });
  });
  return state;
}
