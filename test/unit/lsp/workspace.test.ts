import assert from 'node:assert/strict';
import { closeSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CancellationTokenSource } from 'vscode-jsonrpc';
import {
  DocumentDiagnosticReportKind,
  FileChangeType,
  WorkspaceDiagnosticRequest,
  type FullDocumentDiagnosticReport,
  type WorkspaceDiagnosticReportPartialResult,
  type WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver-protocol';
import { isolatedCopy } from '../../support/lint';
import { fileUri, FIXTURE_WORKSPACE, TestClient } from './harness';

const UNOPENED_WITH_FINDINGS = ['.env', 'config/rollout.yaml', 'openclaw.json', 'scripts/launch.sh', 'train/rollout_client.py'];

/** Writes a file of `bytes` bytes of `.env` lines without holding it in memory whole. */
function writeLargeEnv(path: string, bytes: number): void {
  const line = Buffer.from('OPENAI_BASE_URL=https://api.openai.com/v1/v1\n');
  const chunk = Buffer.concat(Array.from({ length: 1024 }, () => line));
  const fd = openSync(path, 'w');
  try {
    for (let written = 0; written < bytes; written += chunk.length) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

describe('LSP workspace diagnostics (real server over stdio)', () => {
  let ws: ReturnType<typeof isolatedCopy>;
  beforeEach(() => (ws = isolatedCopy(FIXTURE_WORKSPACE)));
  afterEach(() => ws.cleanup());
  const uriOf = (rel: string) => fileUri(join(ws.root, rel));

  it('pull: streams reports for unopened candidate files with $/progress, then streams what changes on disk', async () => {
    const client = await TestClient.start({ pull: true, root: ws.root });
    try {
      await client.open(uriOf('.env'), 'dotenv', 'OPENAI_BASE_URL=https://api.openai.com/v1\n');
      const items = new Map<string, WorkspaceDocumentDiagnosticReport>();
      const partial = 'partial-1';
      const workDone = 'work-1';
      const changed = new Promise<void>((resolve) =>
        client.connection.onProgress(WorkspaceDiagnosticRequest.partialResult, partial, (p: WorkspaceDiagnosticReportPartialResult) => {
          for (const item of p.items) items.set(item.uri, item);
          const env = items.get(uriOf('train/.env'));
          if (env?.kind === DocumentDiagnosticReportKind.Full && env.items.length > 0) resolve();
        }),
      );
      const cancel = new CancellationTokenSource();
      const request = client.connection.sendRequest(WorkspaceDiagnosticRequest.type, { previousResultIds: [], partialResultToken: partial, workDoneToken: workDone }, cancel.token);
      await client.waitForProgress(workDone, (v) => (v as { kind: string }).kind === 'end');
      const begin = client.progress.get(workDone)![0] as { kind: string; title: string };
      assert.deepEqual([begin.kind, begin.title], ['begin', 'Rollout Lint']);
      for (const rel of UNOPENED_WITH_FINDINGS.filter((r) => r !== '.env')) {
        const item = items.get(uriOf(rel));
        assert.equal(item?.kind, DocumentDiagnosticReportKind.Full, rel);
        assert.ok((item as FullDocumentDiagnosticReport).items.length > 0, rel);
      }
      assert.equal(items.has(uriOf('.env')), false, 'open documents are left to document pulls');
      assert.equal(items.has(uriOf('train/notes.py')), false, 'not a candidate');
      assert.deepEqual((items.get(uriOf('train/.env')) as FullDocumentDiagnosticReport).items, []);

      writeFileSync(join(ws.root, 'train/.env'), 'OPENAI_BASE_URL=https://taotoken.net/api/v1/v1\n');
      await client.watched([{ uri: uriOf('train/.env'), type: FileChangeType.Changed }]);
      await changed;
      assert.deepEqual((items.get(uriOf('train/.env')) as FullDocumentDiagnosticReport).items.map((d) => d.code), ['base-url-duplicate-v1']);
      cancel.cancel();
      assert.deepEqual(await request, { items: [] });
    } finally {
      await client.stop();
    }
  });

  it('pull without partial results: answers the reports in the response; unchanged files come back unchanged', async () => {
    const client = await TestClient.start({ pull: true, root: ws.root });
    try {
      const first = await client.connection.sendRequest(WorkspaceDiagnosticRequest.type, { previousResultIds: [] });
      const env = first.items.find((i) => i.uri === uriOf('.env')) as FullDocumentDiagnosticReport & { uri: string };
      for (const code of ['base-url-duplicate-v1', 'api-key-whitespace']) assert.ok(env.items.some((d) => d.code === code), code);
      writeFileSync(join(ws.root, 'openclaw.json'), '{}\n');
      await client.watched([{ uri: uriOf('openclaw.json'), type: FileChangeType.Changed }]);
      const previousResultIds = first.items.map((i) => ({ uri: i.uri, value: i.resultId! }));
      const second = await client.connection.sendRequest(WorkspaceDiagnosticRequest.type, { previousResultIds });
      assert.equal(second.items.find((i) => i.uri === uriOf('.env'))?.kind, DocumentDiagnosticReportKind.Unchanged);
      assert.deepEqual(second.items.find((i) => i.uri === uriOf('openclaw.json')), { kind: 'full', uri: uriOf('openclaw.json'), version: null, resultId: second.items.find((i) => i.uri === uriOf('openclaw.json'))!.resultId, items: [] });
    } finally {
      await client.stop();
    }
  });

  it('push: publishes unopened files, re-lints open and unopened files after a .rolloutlintrc.json change, clears deleted files', async () => {
    const client = await TestClient.start({ pull: false, root: ws.root });
    try {
      for (const rel of UNOPENED_WITH_FINDINGS) {
        const p = await client.waitForPublish(uriOf(rel), (x) => x.diagnostics.length > 0);
        assert.equal(p.version, undefined);
      }
      const yaml = uriOf('config/rollout.yaml');
      await client.open(yaml, 'yaml', 'base_url: https://api.openai.com/v1/v1\n', 1);
      await client.waitForPublish(yaml, (p) => p.version === 1 && p.diagnostics.length === 1);
      const mark = client.published.length;
      writeFileSync(join(ws.root, '.rolloutlintrc.json'), '{ "rules": { "base-url-duplicate-v1": "off" } }\n');
      await client.watched([{ uri: uriOf('.rolloutlintrc.json'), type: FileChangeType.Created }]);
      await client.waitForPublish(yaml, (p) => p.version === 1 && p.diagnostics.length === 0, mark);
      const shell = await client.waitForPublish(uriOf('scripts/launch.sh'), () => true, mark);
      assert.deepEqual(shell.diagnostics, []);
      const env = await client.waitForPublish(uriOf('.env'), () => true, mark);
      assert.ok(env.diagnostics.some((d) => d.code === 'api-key-whitespace'));
      assert.ok(!env.diagnostics.some((d) => d.code === 'base-url-duplicate-v1'));

      rmSync(join(ws.root, '.env'));
      const before = client.published.length;
      await client.watched([{ uri: uriOf('.env'), type: FileChangeType.Deleted }]);
      assert.deepEqual((await client.waitForPublish(uriOf('.env'), () => true, before)).diagnostics, []);
    } finally {
      await client.stop();
    }
  });

  it('pull: a .rolloutlintrc.json change asks the client to refresh, and the next pull reflects it', async () => {
    const client = await TestClient.start({ pull: true, root: ws.root });
    try {
      const uri = uriOf('scripts/launch.sh');
      await client.open(uri, 'shellscript', 'export OPENAI_BASE_URL=https://api.openai.com/v1/v1\n');
      assert.equal(((await client.pull(uri)) as FullDocumentDiagnosticReport).items.length, 1);
      const refreshed = client.waitForRefresh(client.refreshes);
      writeFileSync(join(ws.root, 'scripts', '.rolloutlintrc.json'), '{ "rules": { "base-url-duplicate-v1": "warning" } }\n');
      await client.watched([{ uri: uriOf('scripts/.rolloutlintrc.json'), type: FileChangeType.Created }]);
      await refreshed;
      const after = (await client.pull(uri)) as FullDocumentDiagnosticReport;
      assert.deepEqual(after.items.map((d) => d.severity), [2]);
    } finally {
      await client.stop();
    }
  });

  it('pull: open documents are in the workspace report with their version, and a configuration change re-reports them', async () => {
    const client = await TestClient.start({ pull: true, root: ws.root });
    try {
      const uri = uriOf('scripts/launch.sh');
      await client.open(uri, 'shellscript', 'export OPENAI_BASE_URL=https://api.openai.com/v1/v1\n');
      const first = await client.connection.sendRequest(WorkspaceDiagnosticRequest.type, { previousResultIds: [] });
      const open = first.items.find((i) => i.uri === uri) as FullDocumentDiagnosticReport & { uri: string; version: number | null };
      assert.equal(open.version, 1);
      assert.deepEqual(open.items.map((d) => d.code), ['base-url-duplicate-v1']);
      writeFileSync(join(ws.root, '.rolloutlintrc.json'), '{ "rules": { "base-url-duplicate-v1": "off" } }\n');
      await client.watched([{ uri: uriOf('.rolloutlintrc.json'), type: FileChangeType.Created }]);
      const previousResultIds = first.items.map((i) => ({ uri: i.uri, value: i.resultId! }));
      const second = await client.connection.sendRequest(WorkspaceDiagnosticRequest.type, { previousResultIds });
      const again = second.items.find((i) => i.uri === uri) as FullDocumentDiagnosticReport & { version: number | null };
      assert.equal(again.kind, DocumentDiagnosticReportKind.Full);
      assert.deepEqual(again.items, []);
    } finally {
      await client.stop();
    }
  });

  it('a 20 MB file gets skipped-file (on disk and open) and the server stays up', async () => {
    writeLargeEnv(join(ws.root, 'big.env'), 20 * 1024 * 1024);
    const client = await TestClient.start({ pull: false, root: ws.root });
    try {
      const disk = await client.waitForPublish(uriOf('big.env'));
      assert.deepEqual(disk.diagnostics.map((d) => [d.code, d.range.start.line]), [['skipped-file', 0]]);
      const uri = uriOf('open-big.env');
      await client.open(uri, 'dotenv', 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\n'.repeat(470_000), 1);
      const open = await client.waitForPublish(uri, (p) => p.version === 1);
      assert.deepEqual(open.diagnostics.map((d) => d.code), ['skipped-file']);
      assert.match(String(open.diagnostics[0].message), /over maxFileBytes/);
      const small = uriOf('after.env');
      await client.open(small, 'dotenv', 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\n', 1);
      assert.deepEqual((await client.waitForPublish(small, (p) => p.version === 1)).diagnostics.map((d) => d.code), ['base-url-duplicate-v1']);
      assert.ok(client.alive);
    } finally {
      await client.stop();
    }
  });

  it('binary and malformed text get a clean answer and never stop the server', async () => {
    writeFileSync(join(ws.root, 'blob.yaml'), Buffer.from([0x00, 0xff, 0xfe, 0x01, 0x0a, 0x00]));
    const client = await TestClient.start({ pull: true, root: ws.root });
    try {
      const binary = uriOf('binary.env');
      await client.open(binary, 'dotenv', 'OPENAI_API_KEY=\u0000\u0001\u0002\ufffd\ufffd\n');
      const report = (await client.pull(binary)) as FullDocumentDiagnosticReport;
      assert.deepEqual(report.items.map((d) => d.code), ['skipped-file']);
      const cases: [string, string, string][] = [
        ['bad.yaml', 'yaml', 'a: [\n  b: {\n"unterminated\n\t- - :\n'],
        ['sub/openclaw.json', 'json', '{"models": {"providers": {"x": {"baseUrl": "http://'],
        ['bad.py', 'python', 'OpenAI(base_url="https://api.openai.com/v1/v1\n  def (((\n'],
        ['bad.sh', 'shellscript', 'export OPENAI_BASE_URL="https://x/v1/v1\n$(( ` \\\n'],
        ['crlf.env', 'dotenv', 'OPENAI_API_KEY="unterminated\r\n\r\r\n=\n'],
      ];
      for (const [name, languageId, text] of cases) {
        const uri = uriOf(name);
        await client.open(uri, languageId, text);
        const r = await client.pull(uri);
        assert.equal(r.kind, DocumentDiagnosticReportKind.Full, name);
      }
      const ws1 = await client.connection.sendRequest(WorkspaceDiagnosticRequest.type, { previousResultIds: [] });
      const blob = ws1.items.find((i) => i.uri === uriOf('blob.yaml')) as FullDocumentDiagnosticReport;
      assert.deepEqual(blob.items.map((d) => d.code), ['skipped-file']);
      assert.ok(client.alive);
    } finally {
      await client.stop();
    }
  });
});
