import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EndpointSummary } from '../../../server/src/lsp/endpoints';
import type { EndpointViewRow } from '../../../server/src/lsp/endpoint-rows';
import { fileUri, TestClient, until } from './harness';

/** A closed notebook whose one code cell builds a client (issue 25: its base URL was missing from the pick). */
const NOTEBOOK = JSON.stringify({
  cells: [
    { cell_type: 'markdown', metadata: {}, source: ['# 演示\n'] },
    { cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: ['from openai import OpenAI\n', 'client = OpenAI(base_url="http://127.0.0.1:31998/v1", api_key="EMPTY")\n'] },
  ],
  metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, language_info: { name: 'python' } },
  nbformat: 4,
  nbformat_minor: 5,
}, null, 1);
/** A `.env` saved with a UTF-8 BOM and a Chinese comment before the value. */
const BOM_ENV = '\ufeff# 中文注释\nOPENAI_BASE_URL=https://taotoken.net/api/v1\n';
const CONFIG = '{\n  "models": { "providers": { "local": { "baseUrl": "http://127.0.0.1:30000/v1", "api": "openai-completions" } } }\n}\n';

describe('LSP: the endpoint list and the Endpoints view come from the env index (issue 25)', () => {
  let root: string;
  let client: TestClient;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'rollout-lint-endpoint-index-'));
    mkdirSync(join(root, 'nb'));
    mkdirSync(join(root, 'serve'));
    writeFileSync(join(root, 'nb', 'demo.ipynb'), NOTEBOOK);
    writeFileSync(join(root, 'bom.env'), BOM_ENV);
    writeFileSync(join(root, 'serve', 'openclaw.json'), CONFIG);
    client = await TestClient.start({ pull: true, root, initializationOptions: { locale: 'en' } });
  });
  after(async () => {
    await client.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const endpoints = async () => (await client.connection.sendRequest('rolloutLint/endpoints', {})) as EndpointSummary[];
  const rows = async () => (await client.connection.sendRequest('rolloutLint/endpointRows', undefined)) as EndpointViewRow[];

  it('the pick lists a closed notebook\'s base URL, at its value in the notebook file; endpointAt finds it there', async () => {
    const list = await endpoints();
    const nb = list.find((e) => e.path === 'nb/demo.ipynb');
    assert.ok(nb, `the notebook is listed: ${JSON.stringify(list.map((e) => e.path))}`);
    assert.equal(nb.baseUrl, 'http://127.0.0.1:31998/v1');
    assert.deepEqual([nb.key, nb.consumers[0]], ['base_url', 'openai-sdk']);
    assert.equal(nb.offset, NOTEBOOK.indexOf('\\"http://127.0.0.1:31998/v1\\"'), 'the value as the notebook file writes it (quotes escaped)');
    // the pick opens the file and asks the server about that offset
    const uri = fileUri(join(root, 'nb', 'demo.ipynb'));
    await client.open(uri, 'json', NOTEBOOK);
    try {
      const info = (await client.connection.sendRequest('rolloutLint/endpointAt', { uri, offset: nb.offset })) as { key: string; baseUrl: string } | null;
      assert.deepEqual(info && [info.key, info.baseUrl], ['base_url', 'http://127.0.0.1:31998/v1']);
    } finally {
      await client.close(uri);
    }
  });

  it('a BOM file: the pick and the view give the offset of the value in the text the editor holds (no BOM)', async () => {
    const editorText = BOM_ENV.slice(1); // VS Code drops the BOM from the document's text
    const want = editorText.indexOf('https://');
    const [pick] = (await endpoints()).filter((e) => e.path === 'bom.env');
    assert.equal(pick.offset, want);
    const [row] = (await rows()).filter((r) => r.file === 'bom.env');
    assert.equal(row.clientOffset, want, 'the view row (Test This Endpoint, Go to) points at the value too');
    const uri = fileUri(join(root, 'bom.env'));
    await client.open(uri, 'dotenv', editorText);
    try {
      const info = (await client.connection.sendRequest('rolloutLint/endpointAt', { uri, offset: pick.offset })) as { key: string } | null;
      assert.equal(info?.key, 'OPENAI_BASE_URL');
    } finally {
      await client.close(uri);
    }
  });

  it('the view answers from the index: a file changed on disk is not read again until a file event says so', async () => {
    const json = join(root, 'serve', 'openclaw.json');
    const urls = async () => (await rows()).filter((r) => r.file === 'serve/openclaw.json').map((r) => r.baseUrl);
    assert.deepEqual(await urls(), ['http://127.0.0.1:30000/v1']);
    try {
      writeFileSync(json, CONFIG.replace('30000', '8000'));
      assert.deepEqual(await urls(), ['http://127.0.0.1:30000/v1'], 'no rescan on refresh: the kept rows answer');
      await client.watched([{ uri: fileUri(json), type: 2 }]);
      await until(async () => ((await urls()).includes('http://127.0.0.1:8000/v1') ? true : undefined));
    } finally {
      writeFileSync(json, CONFIG);
      await client.watched([{ uri: fileUri(json), type: 2 }]);
    }
  });

  it('a change the env facts do not show (the model of a call) still reaches the view after its file event', async () => {
    const py = join(root, 'client.py');
    const text = (model: string) => `from openai import OpenAI\nclient = OpenAI(base_url="http://127.0.0.1:8000/v1", api_key="EMPTY")\nclient.chat.completions.create(model="${model}", messages=[])\n`;
    writeFileSync(py, text('policy-a'));
    await client.watched([{ uri: fileUri(py), type: 1 }]);
    const models = async () => (await rows()).filter((r) => r.file === 'client.py').map((r) => r.model);
    await until(async () => ((await models()).includes('policy-a') ? true : undefined));
    writeFileSync(py, text('policy-b'));
    assert.deepEqual(await models(), ['policy-a'], 'no file event yet: the kept row answers');
    await client.watched([{ uri: fileUri(py), type: 2 }]);
    await until(async () => ((await models()).includes('policy-b') ? true : undefined));
  });

  it('lists the notebook in the view from the index too, with its findings', async () => {
    const nb = (await rows()).filter((r) => r.file === 'nb/demo.ipynb');
    assert.deepEqual(nb.map((r) => [r.baseUrl, r.consumer]), [['http://127.0.0.1:31998/v1', 'openai-sdk']]);
  });
});
