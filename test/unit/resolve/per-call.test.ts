import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lintDocument } from '../../../server/src/core/lint';
import { DEFAULT_CONFIG } from '../../../server/src/core/config/config';
import { loadGrammars } from '../../../server/src/node/grammars';
import type { Grammars } from '../../../server/src/core/formats/treesitter';
import { endpointRows } from '../../../server/src/core/workspace/endpoints';
import { classifyResponse } from '../../../server/src/core/probe/classify';
import { main } from '../../../server/src/cli/main';

/** The CLI's JSON findings of `.env` in `cwd` (the CLI indexes the workspace's env reads first). */
async function envFindings(cwd: string): Promise<{ ruleId: string }[]> {
  let stdout = '';
  await main(['--format', 'json', '.'], { stdout: (t) => void (stdout += t), stderr: () => undefined, env: { LANG: 'en_US.UTF-8' }, cwd, isTTY: false });
  const files = JSON.parse(stdout) as { filePath: string; messages: { ruleId: string }[] }[];
  return files.filter((f) => f.filePath.endsWith('.env')).flatMap((f) => f.messages);
}

/**
 * Endpoint per call (issue 30): the call decides path and method, with no call in sight the client's
 * default is marked assumed; clients that send nothing say why. The URLs are the ones the real clients
 * send (test/conformance runs them).
 */
describe('resolve: the request of every call', () => {
  let grammars: Grammars;
  before(async () => {
    grammars = await loadGrammars();
  });
  const lint = (path: string, text: string) => lintDocument({ path, text }, { grammars, config: DEFAULT_CONFIG });
  const shapes = (path: string, text: string) =>
    lint(path, text).resolution.baseUrls[0].requests.map((r) => `${r.method} ${r.sent ? r.url : `(none: ${r.reason})`}${r.call ? ` ← ${r.call}` : ''}${r.assumed ? ' (assumed)' : ''}`);

  it('each call on the constructed client: legacy completions, models.list (GET), embeddings, responses', () => {
    const text = [
      'from openai import OpenAI',
      '',
      'client = OpenAI(base_url="http://127.0.0.1:8000/v1")',
      'client.completions.create(model="policy", prompt="x", logprobs=5)',
      'client.models.list()',
      'client.embeddings.create(model="e", input="x")',
      'client.responses.create(model="policy", input="x")',
      '',
    ].join('\n');
    assert.deepEqual(shapes('gen.py', text), [
      'POST http://127.0.0.1:8000/v1/completions ← client.completions.create',
      'GET http://127.0.0.1:8000/v1/models ← client.models.list',
      'POST http://127.0.0.1:8000/v1/embeddings ← client.embeddings.create',
      'POST http://127.0.0.1:8000/v1/responses ← client.responses.create',
    ]);
    assert.equal(lint('gen.py', text).resolution.baseUrls[0].requests[0].model, 'policy');
  });

  it('an async client and an Anthropic client; a base with no call in sight is the default, assumed', () => {
    const asyncText = 'from openai import AsyncOpenAI\n\nclient = AsyncOpenAI(base_url="http://h:1/v1")\n\n\nasync def f():\n    await client.chat.completions.create(model="m", messages=[])\n';
    assert.deepEqual(shapes('a.py', asyncText), ['POST http://h:1/v1/chat/completions ← client.chat.completions.create']);
    assert.deepEqual(shapes('b.py', 'from anthropic import Anthropic\n\nc = Anthropic(base_url="http://h:1")\nc.messages.create(model="m", max_tokens=1, messages=[])\n'), ['POST http://h:1/v1/messages ← c.messages.create']);
    assert.deepEqual(shapes('c.py', 'from openai import OpenAI\n\nclient = OpenAI(base_url="http://h:1/v1")\n'), ['POST http://h:1/v1/chat/completions (assumed)']);
    assert.deepEqual(shapes('d.py', 'from langchain_openai import ChatOpenAI\n\nllm = ChatOpenAI(model="m", base_url="http://h:1/v1")\n'), ['POST http://h:1/v1/chat/completions ← ChatOpenAI']);
  });

  it('an environment variable reaches the calls of clients built without base_url only', () => {
    const text = 'import os\n\nfrom openai import OpenAI\n\nos.environ["OPENAI_BASE_URL"] = "http://h:1/v1"\nenv_client = OpenAI()\nother = OpenAI(base_url="http://g:2/v1")\nenv_client.models.list()\nother.completions.create(model="m", prompt="x")\n';
    const env = lint('e.py', text).resolution.baseUrls.find((b) => b.setting.key === 'OPENAI_BASE_URL')!;
    assert.deepEqual([...new Set(env.requests.map((r) => `${r.method} ${r.url}`))], ['GET http://h:1/v1/models']);
  });

  it('openai-python 3.x and 2.x join a base with a query differently: one request each, naming the client', () => {
    const requests = lint('q.py', 'from openai import OpenAI\n\nclient = OpenAI(base_url="http://h:1/v1?utm_source=x")\n').resolution.baseUrls[0].requests;
    assert.deepEqual(requests.map((r) => [r.url, r.clients.map((c) => c.client)]), [
      ['http://h:1/v1/?utm_source=xchat/completions', ['openai-python']],
      ['http://h:1/v1?utm_source=x/chat/completions', ['openai-python-2']],
    ]);
  });

  it('no request, with the reason: a leading space (httpx) and a value without a scheme', () => {
    assert.deepEqual(shapes('s.py', 'from openai import OpenAI\n\nclient = OpenAI(base_url="  http://h:1/v1")\n'), ['POST (none: leading-space) (assumed)']);
    const outcome = lint('n.py', 'from openai import OpenAI\n\nclient = OpenAI(base_url="127.0.0.1:8000/v1")\n');
    assert.deepEqual(outcome.resolution.baseUrls[0].requests.map((r) => [r.sent, r.reason]), [[false, 'no-scheme']]);
    const [row] = endpointRows(outcome);
    assert.equal(row.effectiveUrl, null);
    assert.equal(row.method, null);
    assert.match(row.noRequest!, /no http:\/\/ or https:\/\//);
    assert.match(endpointRows(outcome, undefined, 'zh-CN')[0].noRequest!, /缺少 http/);
  });

  it('endpoint rows carry the method, the call, the model it uses and the clients', () => {
    const rows = endpointRows(lint('r.py', 'from openai import OpenAI\n\nclient = OpenAI(base_url="http://h:1/v1")\nclient.models.list()\nclient.completions.create(model="policy", prompt="x", logprobs=1)\n'));
    assert.deepEqual(rows.map((r) => [r.method, r.effectiveUrl, r.call, r.model]), [
      // models.list() names no model: the row shows the file's (the one a chat probe would use).
      ['GET', 'http://h:1/v1/models', 'client.models.list', 'policy'],
      ['POST', 'http://h:1/v1/completions', 'client.completions.create', 'policy'],
    ]);
    assert.deepEqual(rows[0].clients, ['openai-python 3.x', 'openai-python 2.x']);
  });
});

describe('env-legacy-name: OPENAI_API_BASE read by langchain-openai ChatOpenAI()', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'rollout-lint-legacy-'));
    writeFileSync(join(root, '.env'), 'OPENAI_API_BASE=http://127.0.0.1:8000/v1\n');
    execFileSync('git', ['init', '-q'], { cwd: root });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is silent when a ChatOpenAI() without base_url reads it (langchain-openai 1.6.6 reads OPENAI_API_BASE)', async () => {
    writeFileSync(join(root, 'rollout.py'), 'from langchain_openai import ChatOpenAI\n\nllm = ChatOpenAI(model="policy")\nprint(llm.invoke("hi"))\n');
    assert.deepEqual((await envFindings(root)).filter((f) => f.ruleId === 'env-legacy-name'), []);
  });

  it('warns when only the openai SDK is in sight (it reads OPENAI_BASE_URL only)', async () => {
    writeFileSync(join(root, 'rollout.py'), 'from openai import OpenAI\n\nclient = OpenAI()\nclient.chat.completions.create(model="m", messages=[], logprobs=True)\n');
    assert.equal((await envFindings(root)).filter((f) => f.ruleId === 'env-legacy-name').length, 1);
  });
});

describe('probe: failure names from what a gateway says', () => {
  const answer = (status: number, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    classifyResponse({ api: 'chat', logprobsRequested: true, status, headers: new Headers(headers), text: JSON.stringify(body) });

  it('a key rejected in another status is unauthorized (LiteLLM 1.80 without a key database: 400 no_db_connection)', () => {
    assert.equal(answer(400, { error: { message: 'No connected db.', type: 'no_db_connection', param: 'None', code: '400' } }).verdict, 'unauthorized');
    assert.equal(answer(400, { error: { message: 'max_tokens is too large', type: 'invalid_request_error' } }).verdict, 'bad-request');
  });

  it('a 5xx with Retry-After is a server error that says how long to wait', () => {
    const r = answer(503, { error: { message: 'Service Unavailable' } }, { 'content-type': 'application/json', 'retry-after': '7' });
    assert.equal(r.verdict, 'server-error');
    assert.equal(r.retryAfter, '7');
    assert.equal(answer(503, { error: { message: 'Service Unavailable' } }).retryAfter, undefined);
  });
});
