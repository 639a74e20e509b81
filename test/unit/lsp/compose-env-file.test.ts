import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DocumentDiagnosticReportKind, FileChangeType, HoverRequest, type Diagnostic, type Hover, type MarkupContent } from 'vscode-languageserver-protocol';
import { isolatedCopy } from '../../support/lint';
import { fileUri, TestClient, until } from './harness';

const WORKSPACE = join(__dirname, '..', '..', 'workspaces', 'compose-env-file');

describe('LSP: a Compose service env_file: applies to the service code (real server over stdio)', () => {
  let ws: ReturnType<typeof isolatedCopy>;
  let client: TestClient;
  const uriOf = (rel: string) => fileUri(join(ws.root, rel));
  const duplicateV1 = async (rel: string): Promise<Diagnostic | undefined> => {
    const report = await client.pull(uriOf(rel));
    return report.kind === DocumentDiagnosticReportKind.Full ? report.items.find((d) => d.code === 'base-url-duplicate-v1') : undefined;
  };

  beforeEach(async () => {
    ws = isolatedCopy(WORKSPACE);
    client = await TestClient.start({ pull: true, root: ws.root });
    await client.open(uriOf('trainer/rollout.py'), 'python', readFileSync(join(ws.root, 'trainer/rollout.py'), 'utf8'));
  });
  afterEach(async () => {
    await client.stop();
    ws.cleanup();
  });

  it('the read gets the error from config/trainer.env, with relatedInformation there; hover names the env_file: link', async () => {
    const diagnostic = await until(() => duplicateV1('trainer/rollout.py'));
    assert.match(diagnostic.message as string, /^POLICY_BASE_URL from config\/trainer\.env:1: /);
    assert.deepEqual(diagnostic.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line]), [[uriOf('config/trainer.env'), 0]]);
    const hover = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: uriOf('trainer/rollout.py') }, position: { line: 4, character: 20 } })) as Hover | null;
    assert.match((hover?.contents as MarkupContent).value, /config\/trainer\.env.*named in a Compose service's env_file:/);
  });

  it('removing the env_file: entry on disk takes the finding away', async () => {
    await until(() => duplicateV1('trainer/rollout.py'));
    const compose = join(ws.root, 'deploy/docker-compose.yml');
    writeFileSync(compose, readFileSync(compose, 'utf8').replace('    env_file: ../config/trainer.env\n', ''));
    await client.watched([{ uri: fileUri(compose), type: FileChangeType.Changed }]);
    await until(async () => ((await duplicateV1('trainer/rollout.py')) === undefined ? true : undefined));
  });
});
