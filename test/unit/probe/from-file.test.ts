import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runPing } from '../../../server/src/cli/ping';
import { loopbackTransport } from '../../support/scripted-server';
import { KEY, pingFromFileFixture } from './helpers';

describe('rollout-lint ping --from FILE (linted formats)', () => {
  const fx = pingFromFileFixture('rollout-lint-from-');

  async function ping(file: string): Promise<{ code: number; report: { verdict: string; baseUrl: string; consumer: string }; bodies: Record<string, unknown>[] }> {
    let stdout = '';
    const before = fx.server.requests.length;
    const transport = loopbackTransport();
    try {
      const code = await runPing(['--from', file, '--json'], { stdout: (s) => (stdout += s), stderr: () => undefined, env: {}, cwd: fx.dir }, transport);
      const bodies = fx.server.requests.slice(before).filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body) as Record<string, unknown>);
      return { code, report: JSON.parse(stdout), bodies };
    } finally {
      await transport.close();
    }
  }

  it('takes base URL, key and model from the same .env block', async () => {
    const file = join(fx.dir, '.env');
    writeFileSync(file, `OPENAI_BASE_URL=http://127.0.0.1:${fx.server.port}/v1\nOPENAI_API_KEY=${KEY}\nOPENAI_MODEL=policy\n`);
    const { code, report, bodies } = await ping(file);
    assert.equal(report.verdict, 'ok');
    assert.equal(code, 0);
    assert.equal(report.consumer, 'openai-sdk');
    assert.equal(bodies[0].model, 'policy');
    assert.equal(fx.server.requests.at(-1)?.headers.authorization, `Bearer ${KEY}`);
  });

  it("uses the request site's own log-prob settings from a Python file", async () => {
    const file = join(fx.dir, 'rollout_client.py');
    writeFileSync(
      file,
      `from openai import OpenAI\n\nclient = OpenAI(base_url="http://127.0.0.1:${fx.server.port}/v1", api_key="EMPTY")\n` +
        `resp = client.chat.completions.create(model="policy", messages=[], logprobs=True, top_logprobs=3)\n`,
    );
    const { report, bodies } = await ping(file);
    assert.equal(report.baseUrl, `http://127.0.0.1:${fx.server.port}/v1`);
    assert.equal(bodies.at(-1)?.top_logprobs, 3);
    assert.equal(bodies.at(-1)?.logprobs, true);
  });
});

describe('rollout-lint ping --from FILE: the model and key the file\'s calls use (issue 30)', () => {
  // The server lists "other" first: a probe that ignored the file's call would use it.
  const fx = pingFromFileFixture('rollout-lint-from-call-', 'other');

  async function ping(file: string, env: NodeJS.ProcessEnv = {}, json = true): Promise<{ stdout: string; bodies: Record<string, unknown>[] }> {
    let stdout = '';
    const before = fx.server.requests.length;
    const transport = loopbackTransport();
    try {
      await runPing(['--from', file, ...(json ? ['--json'] : [])], { stdout: (s) => (stdout += s), stderr: () => undefined, env, cwd: fx.dir }, transport);
      return { stdout, bodies: fx.server.requests.slice(before).filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body) as Record<string, unknown>) };
    } finally {
      await transport.close();
    }
  }

  it('probes with model= of the create(...) call when OpenAI(...) names none, and the report names it', async () => {
    const file = join(fx.dir, 'rollout.py');
    writeFileSync(file, `from openai import OpenAI\n\nclient = OpenAI(base_url="http://127.0.0.1:${fx.server.port}/v1", api_key="EMPTY")\nclient.chat.completions.create(model="policy", messages=[], logprobs=True)\n`);
    const { stdout, bodies } = await ping(file);
    assert.equal(bodies.at(-1)?.model, 'policy');
    assert.equal((JSON.parse(stdout) as { model: string }).model, 'policy');
  });

  it('probes the endpoint the call uses: client.completions.create → POST /v1/completions with its log probs', async () => {
    const file = join(fx.dir, 'prompt_logprobs.py');
    writeFileSync(file, `from openai import OpenAI\n\nclient = OpenAI(base_url="http://127.0.0.1:${fx.server.port}/v1", api_key="EMPTY")\nclient.completions.create(model="policy", prompt="x", logprobs=5, max_tokens=1)\n`);
    const before = fx.server.requests.length;
    const { bodies } = await ping(file);
    const posts = fx.server.requests.slice(before).filter((r) => r.method === 'POST').map((r) => r.url);
    assert.equal(posts[0], '/v1/completions');
    assert.equal(bodies[0].logprobs, 5);
    assert.equal(bodies[0].model, 'policy');
    assert.equal(typeof bodies[0].prompt, 'string');
  });

  it('suggests --api-key-env NAME when the file reads the key from NAME and it is set', async () => {
    const file = join(fx.dir, 'gateway.py');
    writeFileSync(file, `import os\n\nfrom openai import OpenAI\n\nclient = OpenAI(base_url="http://127.0.0.1:${fx.server.port}/v1", api_key=os.environ["LITELLM_KEY"])\nclient.chat.completions.create(model="policy", messages=[], logprobs=True)\n`);
    const { stdout } = await ping(file, { LITELLM_KEY: 'sk-gateway-0000' }, false);
    assert.match(stdout, /--api-key-env LITELLM_KEY/);
    const { stdout: unset } = await ping(file, {}, false);
    assert.doesNotMatch(unset, /--api-key-env LITELLM_KEY/);
  });
});
