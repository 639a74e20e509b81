import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentDiagnosticRequest, HoverRequest, WorkspaceDiagnosticRequest, type FullDocumentDiagnosticReport, type Hover, type MarkupContent } from 'vscode-languageserver-protocol';
import { fileUri, TestClient } from './harness';

/**
 * Issue 13 item 6: a big document is linted in the server's worker thread (`OffloadedLinter`), so
 * the server keeps answering while it is parsed. Without a clock: once the server has logged that
 * the big file's lint started in the worker, hovers on a small `.env` must be answered before the
 * big file's diagnostic report (on the request thread they were answered only after it, 18 s later).
 */
describe('the server answers other requests while a big file is linted (real server over stdio)', function () {
  this.timeout(180_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'rollout-lint-responsive-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('hovers on a small .env are answered while a 4 MB YAML is linted in the worker, and the big file gets its findings', async () => {
    const client = await TestClient.start({ pull: true, root: dir, initializationOptions: { workspaceTrusted: true } });
    try {
      const big = fileUri(join(dir, 'big', 'config.yaml'));
      const rows = Array.from({ length: 62_000 }, (_, i) => `  - name: item${i}\n    base_url: https://h${i}.example.com/v1${i === 7 ? '/v1' : ''}\n`).join('');
      await client.open(big, 'yaml', `rollout:\n${rows}`);
      const small = fileUri(join(dir, 'small', '.env'));
      await client.open(small, 'dotenv', 'OPENAI_BASE_URL=https://api.openai.com/v1\n');
      let bigAnswered = false;
      const bigDone = client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: big } }).then((r) => {
        bigAnswered = true;
        return r;
      });
      while (!client.logs.some((m) => m.startsWith('lint worker: linting big/config.yaml'))) await new Promise((r) => setTimeout(r, 5));
      let answered = 0;
      for (let i = 0; i < 20; i++) {
        const hover = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: small }, position: { line: 0, character: 20 } })) as Hover;
        assert.match((hover.contents as MarkupContent).value, /chat\/completions/);
        if (!bigAnswered) answered++;
      }
      const report = await bigDone;
      assert.equal(answered, 20, 'every hover sent after the big lint started was answered before it ended');
      assert.ok('items' in report);
      const rules = new Set(report.items.map((d) => d.code));
      assert.ok(rules.has('base-url-duplicate-v1') || rules.has('skipped-file'), `the big file is linted (or skipped by its budget), got ${[...rules].join(', ')}`);
    } finally {
      await client.stop();
    }
  });

  it('the workspace scan lints a big unopened file in the worker too', async () => {
    const root = mkdtempSync(join(tmpdir(), 'rollout-lint-scan-big-'));
    try {
      mkdirSync(join(root, 'configs'));
      const rows = Array.from({ length: 8_000 }, (_, i) => `  - name: item${i}\n    base_url: https://h${i}.example.com/v1${i === 3 ? '/v1' : ''}\n`).join('');
      writeFileSync(join(root, 'configs', 'rollout.yaml'), `rollout:\n${rows}`);
      const client = await TestClient.start({ pull: true, root, initializationOptions: { workspaceTrusted: true } });
      try {
        const report = await client.connection.sendRequest(WorkspaceDiagnosticRequest.type, { previousResultIds: [] });
        const item = report.items.find((i) => i.uri === fileUri(join(root, 'configs', 'rollout.yaml'))) as FullDocumentDiagnosticReport | undefined;
        assert.deepEqual(item?.items.map((d) => [d.code, d.range.start.line]), [['base-url-duplicate-v1', 8]]);
        assert.ok(client.logs.some((m) => m.startsWith('lint worker: linting configs/rollout.yaml')), 'linted in the worker');
      } finally {
        await client.stop();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
