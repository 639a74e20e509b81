import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentDiagnosticRequest, HoverRequest } from 'vscode-languageserver-protocol';
import { fileUri, TestClient } from '../unit/lsp/harness';

/**
 * Issue 13 item 6 — a REPRODUCTION, outside the mocha spec (`npm test` does not run it) because the
 * server does not pass it yet: linting runs on the server's only thread, so while a ~4 MB YAML is
 * linted (until the 5 s CPU budget skips it) no other request is answered. It sends hovers for a small
 * .env one after another from before the big file's diagnostic request until that is answered, and
 * counts the hovers answered in between. Measured on main (2-core shared machine): ~240 hovers in the
 * first ~80 ms (the request's async prelude), then none for 18 s, and the pending hover is answered
 * together with the big file. A server that lints off its request thread answers thousands.
 * The count depends on speed, which is why this is not a gate; a gate needs a "lint started" signal.
 * Run: npx mocha --no-config --require tsx/cjs --extension ts --timeout 120000 test/pending/responsive.test.ts
 */
describe('the server answers other requests while a big file is linted (real server over stdio)', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'rollout-lint-responsive-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('hovers on a small .env keep being answered while a 4 MB YAML is linted', async () => {
    const client = await TestClient.start({ pull: true, root: dir, initializationOptions: { workspaceTrusted: true } });
    try {
      const big = fileUri(join(dir, 'big', 'config.yaml'));
      const rows = Array.from({ length: 62_000 }, (_, i) => `  - name: item${i}\n    base_url: https://h${i}.example.com/v1\n`).join('');
      await client.open(big, 'yaml', `rollout:\n${rows}`);
      const small = fileUri(join(dir, 'small', '.env'));
      const env = 'OPENAI_BASE_URL=https://api.openai.com/v1\n';
      await client.open(small, 'dotenv', env);
      await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: small }, position: { line: 0, character: 20 } });
      let bigAnswered = false;
      const bigDone = client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: big } }).then((r) => {
        bigAnswered = true;
        return r;
      });
      let before = 0;
      for (let i = 0; !bigAnswered; i++) {
        await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: small }, position: { line: 0, character: 20 } });
        if (!bigAnswered) before++;
      }
      const report = await bigDone;
      assert.ok('items' in report && report.items.length > 0 && !report.items.some((d) => String(d.message).includes('maxFileBytes')), 'the big file is linted, not refused by size');
      assert.ok(before >= 1000, `only ${before} hovers were answered while the big file was linted`);
    } finally {
      await client.stop();
    }
  });
});
