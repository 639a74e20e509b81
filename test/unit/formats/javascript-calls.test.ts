import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extract } from '../../../server/src/core/formats/index';
import { formatOf } from '../../../server/src/core/files';
import { loadGrammars } from '../../../server/src/node/grammars';
import type { Grammars } from '../../../server/src/core/formats/treesitter';
import { main } from '../../../server/src/cli/main';

/**
 * openai-node / anthropic-node calls in JavaScript and TypeScript (issue 30): each SDK method call on a client
 * built in the file decides path and method, as for Python (test/conformance runs openai-node 7.59.0).
 */
describe('javascript: SDK calls decide the request', () => {
  let grammars: Grammars;
  before(async () => {
    grammars = await loadGrammars();
  });
  const calls = (path: string, text: string) =>
    (extract(formatOf(path)!, text, path, grammars).sdkCalls ?? []).map((c) => `${c.method} ${c.path} ← ${c.callee}${c.clientHasBaseUrl === undefined ? ' (no client in sight)' : c.clientHasBaseUrl ? ' (baseURL)' : ''}${c.model ? ` model=${c.model}` : ''}`);

  it('calls on clients bound by const and by this.x, with the model of the call', () => {
    const text = [
      'import OpenAI from "openai";',
      'import Anthropic from "@anthropic-ai/sdk";',
      'const client = new OpenAI({ baseURL: process.env.OPENAI_BASE_URL });',
      'await client.completions.create({ model: "m", prompt: "x", logprobs: 5 });',
      'const page = await client.models.list();',
      'class Agent {',
      '  constructor() { this.llm = new OpenAI(); this.claude = new Anthropic({ ...opts }); }',
      '  run() { return Promise.all([this.llm.chat.completions.create({ model: "q", messages: [] }), this.claude.messages.create({ model: "c" })]); }',
      '}',
      'unknown.embeddings.create({ model: "e", input: "x" });',
    ].join('\n');
    assert.deepEqual(calls('agent.mjs', text), [
      'POST /completions ← client.completions.create (baseURL) model=m',
      'GET /models ← client.models.list (baseURL)',
      'POST /chat/completions ← this.llm.chat.completions.create model=q',
      'POST /v1/messages ← this.claude.messages.create (baseURL) model=c',
      'POST /embeddings ← unknown.embeddings.create (no client in sight) model=e',
    ]);
  });

  it('TypeScript: optional chaining and type assertions', () => {
    const text = 'import OpenAI from "openai";\nconst client = new OpenAI({ baseURL: process.env.BASE! } as const) as OpenAI;\nawait client?.responses.create({ model: "r", input: "x" });\n';
    assert.deepEqual(calls('agent.ts', text), ['POST /responses ← client.responses.create (baseURL) model=r']);
  });

  it('rows: a .env value read into new OpenAI({ baseURL }) shows each call of that client (openai-node alone)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'rollout-lint-js-calls-'));
    try {
      writeFileSync(join(root, '.env'), 'OPENAI_BASE_URL=http://127.0.0.1:8000/v1?utm_source=x\n');
      writeFileSync(join(root, 'run.mjs'), 'import OpenAI from "openai";\n\nconst client = new OpenAI({ baseURL: process.env.OPENAI_BASE_URL });\nawait client.completions.create({ model: "m", prompt: "x" });\nawait client.models.list();\n');
      let stdout = '';
      await main(['endpoints', '--json', '.'], { stdout: (t) => void (stdout += t), stderr: () => undefined, env: { LANG: 'en_US.UTF-8' }, cwd: root, isTTY: false });
      const rows = (JSON.parse(stdout) as { file: string; method: string; effectiveUrl: string; clients?: string[]; model: string | null }[]).filter((r) => r.file === 'run.mjs');
      assert.deepEqual(rows.map((r) => `${r.method} ${r.effectiveUrl} ${r.clients?.join(',')}`), [
        'POST http://127.0.0.1:8000/v1/completions?utm_source=x openai-node',
        'GET http://127.0.0.1:8000/v1/models?utm_source=x openai-node',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
