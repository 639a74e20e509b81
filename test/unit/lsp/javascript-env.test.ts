import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DefinitionRequest, DocumentDiagnosticReportKind, HoverRequest, type Diagnostic, type Hover, type Location, type MarkupContent } from 'vscode-languageserver-protocol';
import { isolatedCopy } from '../../support/lint';
import { fileUri, TestClient, until } from './harness';

const WORKSPACE = join(__dirname, '..', '..', 'workspaces', 'js-reads');

describe('LSP: process.env reads in TypeScript meet .env definitions (real server over stdio)', () => {
  let ws: ReturnType<typeof isolatedCopy>;
  let client: TestClient;
  const uriOf = (rel: string) => fileUri(join(ws.root, rel));
  const diagnosticsOf = async (rel: string): Promise<Diagnostic[]> => {
    const report = await client.pull(uriOf(rel));
    return report.kind === DocumentDiagnosticReportKind.Full ? report.items : [];
  };
  const duplicateV1 = async (rel: string) => (await diagnosticsOf(rel)).find((d) => d.code === 'base-url-duplicate-v1');

  beforeEach(async () => {
    ws = isolatedCopy(WORKSPACE);
    client = await TestClient.start({ pull: true, root: ws.root });
    await client.open(uriOf('src/rollout.ts'), 'typescript', readFileSync(join(ws.root, 'src/rollout.ts'), 'utf8'));
    await client.open(uriOf('src/client.mjs'), 'javascript', readFileSync(join(ws.root, 'src/client.mjs'), 'utf8'));
  });
  afterEach(async () => {
    await client.stop();
    ws.cleanup();
  });

  it('the read in TypeScript gets the error, with relatedInformation at the .env line, and the .env line points back', async () => {
    const diagnostic = await until(() => duplicateV1('src/rollout.ts'));
    assert.equal(diagnostic.severity, 1);
    assert.deepEqual(diagnostic.range.start, { line: 1, character: 21 });
    assert.match(diagnostic.message as string, /^ROLLOUT_BASE_URL from \.env:2: /);
    assert.deepEqual(diagnostic.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line]), [[uriOf('.env'), 1]]);
    const definition = await until(() => duplicateV1('.env'));
    assert.deepEqual(definition.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line]), [[uriOf('src/rollout.ts'), 1]]);
  });

  it('openai-node reading .../v1 is silent; go to definition from the read finds the .env line', async () => {
    await until(() => duplicateV1('src/rollout.ts'));
    assert.deepEqual((await diagnosticsOf('src/client.mjs')).map((d) => d.code), []);
    const definitions = (await client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: uriOf('src/client.mjs') }, position: { line: 3, character: 60 } })) as Location[];
    assert.deepEqual(definitions.map((l) => [l.uri, l.range.start.line]), [[uriOf('.env'), 2]]);
    const hover = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: uriOf('src/rollout.ts') }, position: { line: 1, character: 35 } })) as Hover | null;
    assert.match((hover?.contents as MarkupContent).value, /\.env:2/);
  });
});
