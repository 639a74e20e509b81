import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiagnosticSeverity, HoverRequest, type FullDocumentDiagnosticReport, type Hover, type MarkupContent } from 'vscode-languageserver-protocol';
import type { VerifiedEndpoint } from '../../../server/src/core/model/verified';
import type { EndpointSummary } from '../../../server/src/lsp/endpoints';
import { clockTime } from '../../../server/src/lsp/hover';
import { fileUri, TestClient, until } from './harness';

const ENV = '# 中文\nOPENAI_BASE_URL=https://taotoken.net/api\n';
const PROOF: VerifiedEndpoint = {
  baseUrl: 'https://taotoken.net/api',
  consumer: 'openai-sdk',
  workingBaseUrl: 'https://taotoken.net/api/v1',
  url: 'https://taotoken.net/api/v1/chat/completions',
  at: Date.UTC(2025, 5, 1, 9, 7),
};

describe('LSP: verified endpoints and the endpoint list (real server over stdio)', () => {
  let root: string;
  let uri: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'rollout-lint-verified-'));
    mkdirSync(join(root, 'serve'));
    writeFileSync(join(root, '.env'), ENV);
    writeFileSync(join(root, 'serve', 'openclaw.json'), '{\n  "models": { "providers": { "local": { "baseUrl": "http://127.0.0.1:30000/v1", "api": "openai-completions" } } }\n}\n');
    uri = fileUri(join(root, '.env'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  async function withClient<T>(initializationOptions: Record<string, unknown>, run: (client: TestClient) => Promise<T>): Promise<T> {
    const client = await TestClient.start({ pull: true, root, initializationOptions: { locale: 'en', ...initializationOptions } });
    try {
      await client.open(uri, 'dotenv', ENV);
      return await run(client);
    } finally {
      await client.stop();
    }
  }

  const missingV1 = async (client: TestClient) => ((await client.pull(uri)) as FullDocumentDiagnosticReport).items.filter((d) => d.code === 'base-url-missing-v1');

  it('rolloutLint/verifiedEndpoints turns the TaoToken /api hint into a warning, and hover says when it was verified', () =>
    withClient({}, async (client) => {
      assert.deepEqual((await missingV1(client)).map((d) => d.severity), [DiagnosticSeverity.Hint]);
      await client.connection.sendNotification('rolloutLint/verifiedEndpoints', { endpoints: [PROOF, { nonsense: true }] });
      const [diagnostic] = await missingV1(client);
      assert.equal(diagnostic.severity, DiagnosticSeverity.Warning);
      assert.match(diagnostic.message as string, /while https:\/\/taotoken\.net\/api\/v1\/chat\/completions did; use https:\/\/taotoken\.net\/api\/v1$/);
      assert.deepEqual(diagnostic.range.start, { line: 1, character: 16 });
      const hover = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 30 } })) as Hover;
      const text = (hover.contents as MarkupContent).value;
      assert.ok(text.includes(`The connection test verified at ${clockTime(PROOF.at)}: this base does not answer for the openai SDK, \`https://taotoken.net/api/v1\` does`), text);
      await client.connection.sendNotification('rolloutLint/verifiedEndpoints', { endpoints: [] });
      assert.deepEqual((await missingV1(client)).map((d) => d.severity), [DiagnosticSeverity.Hint]);
    }));

  it('takes the kept results from initializationOptions.verifiedEndpoints', () =>
    withClient({ verifiedEndpoints: [{ ...PROOF, workingBaseUrl: PROOF.baseUrl, url: 'https://taotoken.net/api/chat/completions' }] }, async (client) => {
      assert.deepEqual(await missingV1(client), [], 'the configured base was verified to work');
    }));

  it('rolloutLint/endpoints lists the base URLs of open documents and of files on disk; endpointAt gives the content range', () =>
    withClient({}, async (client) => {
      const list = (await client.connection.sendRequest('rolloutLint/endpoints', {})) as EndpointSummary[];
      assert.deepEqual(
        list.map((e) => [e.path, e.line, e.key, e.baseUrl, e.consumers[0], e.providers[0]]),
        [
          ['.env', 1, 'OPENAI_BASE_URL', 'https://taotoken.net/api', 'openai-sdk', 'taotoken'],
          ['serve/openclaw.json', 1, 'baseUrl', 'http://127.0.0.1:30000/v1', 'openai-sdk', 'sglang'],
        ],
      );
      assert.equal(list[0].offset, ENV.indexOf('https://'));
      const info = (await client.connection.sendRequest('rolloutLint/endpointAt', { uri, offset: list[0].offset })) as { contentRange: unknown };
      assert.deepEqual(info.contentRange, { start: { line: 1, character: 16 }, end: { line: 1, character: 40 } });
    }));

  it('rolloutLint/endpoints answers from the env index: a file is not read again until a file event says it changed', () =>
    withClient({}, async (client) => {
      const json = join(root, 'serve', 'openclaw.json');
      const paths = async () => ((await client.connection.sendRequest('rolloutLint/endpoints', {})) as EndpointSummary[]).map((e) => `${e.path} ${e.baseUrl}`);
      assert.deepEqual(await paths(), ['.env https://taotoken.net/api', 'serve/openclaw.json http://127.0.0.1:30000/v1']);
      const before = '{\n  "models": { "providers": { "local": { "baseUrl": "http://127.0.0.1:30000/v1", "api": "openai-completions" } } }\n}\n';
      try {
        writeFileSync(json, before.replace('30000', '8000'));
        assert.deepEqual(await paths(), ['.env https://taotoken.net/api', 'serve/openclaw.json http://127.0.0.1:30000/v1'], 'no rescan: the index answers');
        await client.watched([{ uri: fileUri(json), type: 2 }]);
        await until(async () => ((await paths()).includes('serve/openclaw.json http://127.0.0.1:8000/v1') ? true : undefined));
      } finally {
        writeFileSync(json, before);
      }
    }));
});
