import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPing, setFromFileResolver } from '../../../server/src/cli/ping';
import { resolveFromLintedFile } from '../../../server/src/cli/ping-from-file';
import { loopbackTransport, startScriptedServer, type ScriptedServer } from '../../support/scripted-server';
import { CHAT_WITH_LOGPROBS, KEY, MODELS } from './helpers';

describe('rollout-lint ping --from FILE (linted formats)', () => {
  let server: ScriptedServer;
  let dir: string;
  before(async () => {
    server = await startScriptedServer([
      { method: 'GET', path: '/v1/models', status: 200, body: MODELS('policy') },
      { method: 'POST', path: '/v1/chat/completions', status: 200, body: CHAT_WITH_LOGPROBS },
    ]);
    dir = mkdtempSync(join(tmpdir(), 'rollout-lint-from-'));
    setFromFileResolver(resolveFromLintedFile);
  });
  after(async () => {
    setFromFileResolver(undefined);
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function ping(file: string): Promise<{ code: number; report: { verdict: string; baseUrl: string; consumer: string }; bodies: Record<string, unknown>[] }> {
    let stdout = '';
    const before = server.requests.length;
    const transport = loopbackTransport();
    try {
      const code = await runPing(['--from', file, '--json'], { stdout: (s) => (stdout += s), stderr: () => undefined, env: {}, cwd: dir }, transport);
      const bodies = server.requests.slice(before).filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body) as Record<string, unknown>);
      return { code, report: JSON.parse(stdout), bodies };
    } finally {
      await transport.close();
    }
  }

  it('takes base URL, key and model from the same .env block', async () => {
    const file = join(dir, '.env');
    writeFileSync(file, `OPENAI_BASE_URL=http://127.0.0.1:${server.port}/v1\nOPENAI_API_KEY=${KEY}\nOPENAI_MODEL=policy\n`);
    const { code, report, bodies } = await ping(file);
    assert.equal(report.verdict, 'ok');
    assert.equal(code, 0);
    assert.equal(report.consumer, 'openai-sdk');
    assert.equal(bodies[0].model, 'policy');
    assert.equal(server.requests.at(-1)?.headers.authorization, `Bearer ${KEY}`);
  });

  it("uses the request site's own log-prob settings from a Python file", async () => {
    const file = join(dir, 'rollout_client.py');
    writeFileSync(
      file,
      `from openai import OpenAI\n\nclient = OpenAI(base_url="http://127.0.0.1:${server.port}/v1", api_key="EMPTY")\n` +
        `resp = client.chat.completions.create(model="policy", messages=[], logprobs=True, top_logprobs=3)\n`,
    );
    const { report, bodies } = await ping(file);
    assert.equal(report.baseUrl, `http://127.0.0.1:${server.port}/v1`);
    assert.equal(bodies.at(-1)?.top_logprobs, 3);
    assert.equal(bodies.at(-1)?.logprobs, true);
  });
});
