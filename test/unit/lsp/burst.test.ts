import assert from 'node:assert/strict';
import { join } from 'node:path';
import { HoverRequest, type FullDocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { isolatedCopy } from '../../support/lint';
import { fileUri, FIXTURE_WORKSPACE, TestClient } from './harness';

const EDITS = 100;

/** Version `v` of the document: only the last one has a doubled /v1. */
function textAt(v: number): string {
  const path = v === EDITS ? '/v1/v1' : `/v${v}`;
  return `# edit ${v}\nOPENAI_BASE_URL=https://api.openai.com${path}\n`;
}

describe('LSP: a burst of edits', () => {
  let ws: ReturnType<typeof isolatedCopy>;
  before(() => (ws = isolatedCopy(FIXTURE_WORKSPACE)));
  after(() => ws.cleanup());

  it('push: the last publication carries the final version and its findings, versions never go back', async () => {
    const client = await TestClient.start({ pull: false, root: ws.root });
    try {
      const uri = fileUri(join(ws.root, 'burst.env'));
      await client.open(uri, 'dotenv', textAt(1), 1);
      for (let v = 2; v <= EDITS; v++) await client.replace(uri, v, textAt(v));
      const final = await client.waitForPublish(uri, (p) => p.version === EDITS);
      assert.deepEqual(final.diagnostics.map((d) => d.code), ['base-url-duplicate-v1']);
      await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 20 } });
      const versions = client.published.filter((p) => p.uri === uri).map((p) => p.version!);
      assert.equal(versions[versions.length - 1], EDITS);
      assert.deepEqual(versions, [...versions].sort((a, b) => a - b));
    } finally {
      await client.stop();
    }
  });

  it('pull: a pull after the burst reports the final version; pulls sent during it answer consistently', async () => {
    const client = await TestClient.start({ pull: true, root: ws.root });
    try {
      const uri = fileUri(join(ws.root, 'burst-pull.env'));
      await client.open(uri, 'dotenv', textAt(1), 1);
      const early: Promise<unknown>[] = [];
      for (let v = 2; v <= EDITS; v++) {
        await client.replace(uri, v, textAt(v));
        if (v % 10 === 0) early.push(client.pull(uri).catch((e: Error) => e));
      }
      const report = (await client.pull(uri)) as FullDocumentDiagnosticReport;
      assert.deepEqual(report.items.map((d) => d.code), ['base-url-duplicate-v1']);
      assert.equal((report.items[0].data as { version: number }).version, EDITS);
      for (const r of await Promise.all(early)) {
        if (r instanceof Error) continue;
        const { resultId, items } = r as FullDocumentDiagnosticReport;
        assert.ok(items.every((d) => `${(d.data as { version: number }).version}` === resultId!.split(':')[0]), 'items belong to the version the result id names');
      }
    } finally {
      await client.stop();
    }
  });
});
