import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DefinitionRequest,
  DocumentDiagnosticReportKind,
  FileChangeType,
  HoverRequest,
  ReferencesRequest,
  type Diagnostic,
  type Hover,
  type Location,
  type MarkupContent,
} from 'vscode-languageserver-protocol';
import { isolatedCopy } from '../../support/lint';
import { fileUri, TestClient, until } from './harness';

const WORKSPACE = join(__dirname, '..', '..', 'workspaces', 'openclaw-rl-cross');

describe('LSP navigation and cross-file diagnostics through the env index (real server over stdio)', () => {
  let ws: ReturnType<typeof isolatedCopy>;
  let client: TestClient;
  const uriOf = (rel: string) => fileUri(join(ws.root, rel));
  const text = (rel: string) => readFileSync(join(ws.root, rel), 'utf8');
  const diagnosticsOf = async (rel: string): Promise<Diagnostic[]> => {
    const report = await client.pull(uriOf(rel));
    return report.kind === DocumentDiagnosticReportKind.Full ? report.items : [];
  };
  const duplicateV1 = async (rel: string) => (await diagnosticsOf(rel)).find((d) => d.code === 'base-url-duplicate-v1');
  const hoverText = async (rel: string, line: number, character: number) => {
    const hover = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: uriOf(rel) }, position: { line, character } })) as Hover | null;
    return hover ? (hover.contents as MarkupContent).value : '';
  };

  beforeEach(async () => {
    ws = isolatedCopy(WORKSPACE);
    client = await TestClient.start({ pull: true, root: ws.root });
    for (const rel of ['policy_serving.py', 'scripts/run_rollout.sh', 'agent/chat.py']) {
      await client.open(uriOf(rel), rel.endsWith('.sh') ? 'shellscript' : 'python', text(rel));
    }
  });
  afterEach(async () => {
    await client.stop();
    ws.cleanup();
  });

  it('a read gets the error its definition in another file causes, with relatedInformation at the definition', async () => {
    const diagnostic = await until(() => duplicateV1('policy_serving.py'));
    assert.equal(diagnostic.severity, 1);
    assert.deepEqual(diagnostic.range.start, { line: 4, character: 7 });
    assert.match(diagnostic.message as string, /^POLICY_BASE_URL from scripts\/run_rollout\.sh:3: /);
    assert.deepEqual(diagnostic.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line]), [[uriOf('scripts/run_rollout.sh'), 2]]);
    const definition = await until(() => duplicateV1('scripts/run_rollout.sh'));
    assert.deepEqual(definition.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line]), [[uriOf('policy_serving.py'), 4]]);
  });

  it('go to definition from a read lists every definition in load order; find references lists every read', async () => {
    await until(() => duplicateV1('policy_serving.py'));
    const definitions = (await client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: uriOf('policy_serving.py') }, position: { line: 4, character: 20 } })) as Location[];
    assert.deepEqual(definitions.map((l) => [l.uri, l.range.start]), [[uriOf('scripts/run_rollout.sh'), { line: 2, character: 7 }]]);
    const chained = (await client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: uriOf('agent/chat.py') }, position: { line: 6, character: 40 } })) as Location[];
    assert.deepEqual(chained.map((l) => l.uri), [uriOf('.env')], 'OPENAI_BASE_URL is defined in the root .env');
    const references = (await client.connection.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: uriOf('scripts/run_rollout.sh') },
      position: { line: 2, character: 10 },
      context: { includeDeclaration: true },
    })) as Location[];
    assert.deepEqual(references.map((l) => [l.uri, l.range.start.line]), [[uriOf('scripts/run_rollout.sh'), 2], [uriOf('policy_serving.py'), 4]]);
    const withoutDeclaration = (await client.connection.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: uriOf('scripts/run_rollout.sh') },
      position: { line: 2, character: 10 },
      context: { includeDeclaration: false },
    })) as Location[];
    assert.deepEqual(withoutDeclaration.map((l) => l.uri), [uriOf('policy_serving.py')]);
  });

  it('hover on a read shows the value chain with file:line, and masks keys', async () => {
    await until(() => duplicateV1('policy_serving.py'));
    const chain = await hoverText('policy_serving.py', 4, 20);
    assert.match(chain, /Definitions in load order/);
    assert.match(chain, /`scripts\/run_rollout\.sh:3` `http:\/\/127\.0\.0\.1:30000\/v1`/);
    const key = await hoverText('agent/chat.py', 6, 75);
    assert.match(key, /`\.env:3`/);
    assert.match(key, /sk-…abcd/);
    assert.doesNotMatch(key, /sk-fake-0000/);
  });

  it('the index follows a .env changed on disk (never opened): the open read is judged again without reopening anything', async () => {
    await until(() => duplicateV1('policy_serving.py'));
    assert.equal(await duplicateV1('agent/chat.py'), undefined);
    writeFileSync(join(ws.root, '.env'), text('.env').replace('OPENAI_BASE_URL=https://taotoken.net/api/v1', 'OPENAI_BASE_URL=https://taotoken.net/api/v1/v1'));
    await client.watched([{ uri: uriOf('.env'), type: FileChangeType.Changed }]);
    const diagnostic = await until(() => duplicateV1('agent/chat.py'));
    assert.match(diagnostic.message as string, /^OPENAI_BASE_URL from \.env:2: /);
    assert.deepEqual(diagnostic.relatedInformation?.map((r) => r.location.uri), [uriOf('.env')]);
    assert.match(await hoverText('agent/chat.py', 6, 40), /`https:\/\/taotoken\.net\/api\/v1\/v1`/);
  });

  it('rolloutLint/endpointRows lists open and unopened files, a value from another file with its definition', async () => {
    await until(() => duplicateV1('policy_serving.py'));
    const rows = (await client.connection.sendRequest('rolloutLint/endpointRows')) as { uri: string; consumer: string; effectiveUrl: string; definition?: { uri: string }; keySource: string | null }[];
    const policy = rows.find((r) => r.uri === uriOf('policy_serving.py'))!;
    assert.equal(policy.effectiveUrl, 'http://127.0.0.1:30000/v1/v1/chat/completions');
    assert.equal(policy.definition?.uri, uriOf('scripts/run_rollout.sh'));
    assert.ok(rows.some((r) => r.uri === uriOf('.openclaw/openclaw.json')), 'unopened files too');
    assert.equal(JSON.stringify(rows).includes('sk-fake-0000'), false, 'keys masked');
  });

  it('an unsaved edit of an open .env is indexed from the editor text', async () => {
    await until(() => duplicateV1('policy_serving.py'));
    await client.replace(uriOf('scripts/run_rollout.sh'), 2, text('scripts/run_rollout.sh').replace('http://127.0.0.1:30000/v1', 'http://127.0.0.1:30000'));
    await until(async () => ((await duplicateV1('policy_serving.py')) ? undefined : true));
  });
});
