import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiagnosticSeverity, DocumentDiagnosticReportKind, WorkspaceDiagnosticRequest, type Diagnostic, type FullDocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { LineIndex } from '../../../server/src/core/positions';
import { isolatedCopy, lintInWorkspace } from '../../support/lint';
import { fileUri, FIXTURE_WORKSPACE, TestClient } from './harness';

/**
 * One case per format: file, language id, and findings it must hold (0-based line:character, after
 * Chinese comments). All other findings must equal what the engine reports for the same file.
 */
const FORMATS = [
  { path: '.env', languageId: 'dotenv', anchors: ['1:16 base-url-duplicate-v1 1', '2:16 api-key-whitespace 2'] },
  { path: 'config/rollout.yaml', languageId: 'yaml', anchors: ['2:12 base-url-duplicate-v1 1', '3:12 api-key-whitespace 2', '5:12 base-url-duplicate-v1 1'] },
  { path: 'openclaw.json', languageId: 'json', anchors: ['4:20 base-url-duplicate-v1 1'] },
  { path: 'scripts/launch.sh', languageId: 'shellscript', anchors: ['1:23 base-url-duplicate-v1 1', '4:13 base-url-duplicate-v1 1'] },
  { path: 'train/rollout_client.py', languageId: 'python', anchors: ['4:26 base-url-duplicate-v1 1'] },
];

const summary = (d: Diagnostic) => `${d.range.start.line}:${d.range.start.character} ${d.code} ${d.severity}`;
const LSP_SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, hint: DiagnosticSeverity.Hint };

/** The engine's findings for a workspace file, in the same summary form. */
async function engineSummary(root: string, rel: string): Promise<string[]> {
  const result = await lintInWorkspace(root, rel);
  const index = new LineIndex(result.text ?? '');
  return result.findings.map((f) => {
    const p = index.positionAt(f.range.start);
    return `${p.line}:${p.character} ${f.ruleId} ${LSP_SEVERITY[f.severity]}`;
  });
}

function checkShape(d: Diagnostic, version: number): void {
  assert.equal(d.source, 'rollout-lint');
  assert.equal(typeof d.code, 'string');
  assert.equal(d.codeDescription?.href, `https://github.com/rollout-lint/rollout-lint/blob/main/docs/rules/${d.code}.md`);
  const data = d.data as { version: number; fixes: unknown[] };
  assert.equal(data.version, version);
  assert.ok(Array.isArray(data.fixes));
}

for (const mode of ['push', 'pull'] as const) {
  describe(`LSP diagnostics (${mode} mode, real server over stdio)`, () => {
    let client: TestClient;
    let ws: ReturnType<typeof isolatedCopy>;

    before(async () => {
      ws = isolatedCopy(FIXTURE_WORKSPACE);
      client = await TestClient.start({ pull: mode === 'pull', root: ws.root, settings: { rules: { 'base-url-duplicate-v1': 'error' } } });
    });
    after(async () => {
      await client.stop();
      ws.cleanup();
    });

    it(mode === 'pull' ? 'registers a diagnostic provider with workspace diagnostics' : 'registers no diagnostic provider', () => {
      const provider = client.initializeResult.capabilities.diagnosticProvider;
      if (mode === 'pull') assert.deepEqual(provider, { identifier: 'rollout-lint', interFileDependencies: false, workspaceDiagnostics: true });
      else assert.equal(provider, undefined);
    });

    for (const c of FORMATS) {
      it(`reports the findings of ${c.path} (${c.languageId}) with rule ids, docs links and fixes`, async () => {
        const uri = fileUri(join(ws.root, c.path));
        const text = readFileSync(join(ws.root, c.path), 'utf8');
        await client.open(uri, c.languageId, text, 3);
        let diagnostics: Diagnostic[];
        if (mode === 'push') {
          diagnostics = (await client.waitForPublish(uri, (p) => p.version === 3)).diagnostics;
        } else {
          const report = await client.pull(uri);
          assert.equal(report.kind, DocumentDiagnosticReportKind.Full);
          diagnostics = (report as FullDocumentDiagnosticReport).items;
        }
        for (const anchor of c.anchors) assert.ok(diagnostics.map(summary).includes(anchor), `${anchor} in ${diagnostics.map(summary).join(', ')}`);
        assert.deepEqual(diagnostics.map(summary), await engineSummary(ws.root, c.path));
        for (const d of diagnostics) checkShape(d, 3);
        await client.close(uri);
      });
    }

    if (mode === 'pull') {
      it('answers unchanged for the same version and configuration', async () => {
        const uri = fileUri(join(ws.root, '.env'));
        await client.open(uri, 'dotenv', readFileSync(join(ws.root, '.env'), 'utf8'), 1);
        const first = (await client.pull(uri)) as FullDocumentDiagnosticReport;
        const second = await client.pull(uri, first.resultId);
        assert.deepEqual(second, { kind: DocumentDiagnosticReportKind.Unchanged, resultId: first.resultId });
        await client.close(uri);
      });
    }
  });
}

describe('LSP diagnostics: settings and severities', () => {
  let ws: ReturnType<typeof isolatedCopy>;
  before(() => (ws = isolatedCopy(FIXTURE_WORKSPACE)));
  after(() => ws.cleanup());

  it('maps a rule set to hint in rolloutLint.rules to DiagnosticSeverity.Hint, and off removes it', async () => {
    const client = await TestClient.start({ pull: true, root: ws.root, settings: { rules: { 'base-url-duplicate-v1': 'hint', 'api-key-whitespace': 'off' } } });
    try {
      const uri = fileUri(join(ws.root, '.env'));
      await client.open(uri, 'dotenv', readFileSync(join(ws.root, '.env'), 'utf8'));
      const report = (await client.pull(uri)) as FullDocumentDiagnosticReport;
      assert.ok(report.items.map(summary).includes(`1:16 base-url-duplicate-v1 ${DiagnosticSeverity.Hint}`));
      assert.ok(!report.items.some((d) => d.code === 'api-key-whitespace'));
    } finally {
      await client.stop();
    }
  });

  it('pull: a settings change asks the client to refresh and the next pull uses the new settings', async () => {
    const client = await TestClient.start({ pull: true, root: ws.root });
    try {
      const uri = fileUri(join(ws.root, 'scripts/launch.sh'));
      await client.open(uri, 'shellscript', 'export OPENAI_BASE_URL=https://api.openai.com/v1/v1\n');
      assert.deepEqual(((await client.pull(uri)) as FullDocumentDiagnosticReport).items.map((d) => d.severity), [DiagnosticSeverity.Error]);
      const refreshed = client.waitForRefresh(client.refreshes);
      await client.changeSettings({ rules: { 'base-url-duplicate-v1': 'warning' } });
      await refreshed;
      assert.deepEqual(((await client.pull(uri)) as FullDocumentDiagnosticReport).items.map((d) => d.severity), [DiagnosticSeverity.Warning]);
    } finally {
      await client.stop();
    }
  });

  it('push: a settings change republishes open documents', async () => {
    const client = await TestClient.start({ pull: false, root: ws.root });
    try {
      const uri = fileUri(join(ws.root, 'scripts/launch.sh'));
      await client.open(uri, 'shellscript', 'export OPENAI_BASE_URL=https://api.openai.com/v1/v1\n', 1);
      await client.waitForPublish(uri, (p) => p.version === 1 && p.diagnostics.length === 1);
      const mark = client.published.length;
      await client.changeSettings({ rules: { 'base-url-duplicate-v1': 'off' } });
      await client.waitForPublish(uri, (p) => p.version === 1 && p.diagnostics.length === 0, mark);
    } finally {
      await client.stop();
    }
  });

  it('reports nothing when rolloutLint.enable is false', async () => {
    const client = await TestClient.start({ pull: true, root: ws.root, settings: { enable: false } });
    try {
      const uri = fileUri(join(ws.root, '.env'));
      await client.open(uri, 'dotenv', readFileSync(join(ws.root, '.env'), 'utf8'));
      assert.deepEqual(((await client.pull(uri)) as FullDocumentDiagnosticReport).items, []);
    } finally {
      await client.stop();
    }
  });

  it('uses settings from initializationOptions when the client answers no workspace/configuration, and Chinese messages for zh-cn', async () => {
    const client = await TestClient.start({ pull: false, root: ws.root, noConfiguration: true, initializationOptions: { locale: 'zh-cn', rolloutLint: { rules: { 'api-key-whitespace': 'off' } } } });
    try {
      const uri = fileUri(join(ws.root, '.env'));
      await client.open(uri, 'dotenv', readFileSync(join(ws.root, '.env'), 'utf8'));
      const { diagnostics } = await client.waitForPublish(uri, (p) => p.version === 1);
      const duplicate = diagnostics.find((d) => d.code === 'base-url-duplicate-v1');
      assert.ok(duplicate);
      assert.ok(!diagnostics.some((d) => d.code === 'api-key-whitespace'));
      assert.match(String(duplicate.message), /[\u4e00-\u9fff]/);
    } finally {
      await client.stop();
    }
  });

  it('uses initializationOptions settings when workspace/configuration answers null for the section (Neovim without settings)', async () => {
    const client = await TestClient.start({ pull: false, root: ws.root, settings: null, initializationOptions: { rolloutLint: { rules: { 'api-key-whitespace': 'off' } } } });
    try {
      const uri = fileUri(join(ws.root, '.env'));
      await client.open(uri, 'dotenv', readFileSync(join(ws.root, '.env'), 'utf8'));
      const { diagnostics } = await client.waitForPublish(uri, (p) => p.version === 1);
      assert.ok(diagnostics.some((d) => d.code === 'base-url-duplicate-v1'));
      assert.ok(!diagnostics.some((d) => d.code === 'api-key-whitespace'));
    } finally {
      await client.stop();
    }
  });

  it('keeps ranges right after Chinese text and a BOM', async () => {
    const client = await TestClient.start({ pull: true, root: ws.root });
    try {
      const uri = fileUri(join(ws.root, 'bom.env'));
      await client.open(uri, 'dotenv', '\ufeff# 中文注释：地址\r\nOPENAI_BASE_URL=https://api.openai.com/v1/v1\r\n');
      const report = (await client.pull(uri)) as FullDocumentDiagnosticReport;
      assert.deepEqual(report.items.map((d) => [d.range.start, d.range.end]), [[{ line: 1, character: 16 }, { line: 1, character: 44 }]]);
    } finally {
      await client.stop();
    }
  });

  it('does not lint JSON files that are not candidates (tsconfig.json baseUrl)', async () => {
    const client = await TestClient.start({ pull: true, root: ws.root });
    try {
      const uri = fileUri(join(ws.root, 'tsconfig.json'));
      await client.open(uri, 'json', '{ "compilerOptions": { "baseUrl": "https://x.example.com/v1/v1" } }');
      assert.deepEqual(((await client.pull(uri)) as FullDocumentDiagnosticReport).items, []);
    } finally {
      await client.stop();
    }
  });
});

describe('LSP diagnostics: notebook cells and TOML', () => {
  let ws: ReturnType<typeof isolatedCopy>;
  before(() => (ws = isolatedCopy(FIXTURE_WORKSPACE)));
  after(() => ws.cleanup());

  it('lints a vscode-notebook-cell document as IPython (magics included) on the cell text', async () => {
    const client = await TestClient.start({ pull: true, root: ws.root });
    try {
      const notebook = fileUri(join(ws.root, 'notebooks', 'rollout.ipynb'));
      const cell = `vscode-notebook-cell:${notebook.slice('file://'.length)}#W1sZmlsZQ%3D%3D`;
      const text = '%env OPENAI_BASE_URL=https://api.openai.com/v1/v1\n!ls\nclient = OpenAI(base_url="http://127.0.0.1:30000/v1/v1", api_key="EMPTY")\n';
      await client.open(cell, 'python', text);
      const report = (await client.pull(cell)) as FullDocumentDiagnosticReport;
      assert.deepEqual(report.items.map(summary), [`0:21 base-url-duplicate-v1 ${DiagnosticSeverity.Error}`, `2:26 base-url-duplicate-v1 ${DiagnosticSeverity.Error}`]);
      const markdown = `vscode-notebook-cell:${notebook.slice('file://'.length)}#W2sZmlsZQ%3D%3D`;
      await client.open(markdown, 'markdown', 'base_url = "http://x/v1/v1"\n');
      assert.deepEqual(((await client.pull(markdown)) as FullDocumentDiagnosticReport).items, []);
    } finally {
      await client.stop();
    }
  });

  for (const mode of ['push', 'pull'] as const) {
    it(`empties a notebook's own report (notebook-JSON positions) while its cells are open, and brings it back when they close (${mode})`, async () => {
      const nb = isolatedCopy(FIXTURE_WORKSPACE);
      const path = join(nb.root, 'rollout.ipynb');
      const source = ['client = OpenAI(base_url="http://127.0.0.1:30000/v1/v1", api_key="EMPTY")\n'];
      writeFileSync(path, JSON.stringify({ cells: [{ cell_type: 'code', metadata: {}, source, outputs: [], execution_count: null }], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1));
      const notebook = fileUri(path);
      const cell = `vscode-notebook-cell:${notebook.slice('file://'.length)}#W0sZmlsZQ%3D%3D`;
      const client = await TestClient.start({ pull: mode === 'pull', root: nb.root });
      try {
        const notebookItems = async (previous: { uri: string; value: string }[]) => {
          const report = await client.connection.sendRequest(WorkspaceDiagnosticRequest.type, { previousResultIds: previous });
          const item = report.items.find((i) => i.uri === notebook);
          return item && { resultId: item.resultId!, items: item.kind === 'full' ? item.items : undefined };
        };
        if (mode === 'push') assert.equal((await client.waitForPublish(notebook, (p) => p.diagnostics.length > 0)).diagnostics[0].code, 'base-url-duplicate-v1');
        let previous: { uri: string; value: string }[] = [];
        if (mode === 'pull') {
          const first = await notebookItems([]);
          assert.deepEqual(first?.items?.map((d) => d.code), ['base-url-duplicate-v1']);
          previous = [{ uri: notebook, value: first!.resultId }];
        }
        await client.open(cell, 'python', source.join(''));
        if (mode === 'push') await client.waitForPublish(notebook, (p) => p.diagnostics.length === 0);
        else {
          assert.deepEqual((await notebookItems(previous))?.items, []);
          // VS Code's client also pulls a notebook tab by its file URI
          assert.deepEqual(((await client.pull(notebook)) as FullDocumentDiagnosticReport).items, []);
          // the endpoint lists name it once too (the open cell, not the file again from disk)
          const rows = (await client.connection.sendRequest('rolloutLint/endpointRows')) as { uri: string; file: string }[];
          assert.deepEqual(rows.filter((r) => r.file === 'rollout.ipynb').map((r) => r.uri), [cell]);
          const list = (await client.connection.sendRequest('rolloutLint/endpoints', {})) as { uri: string; path: string }[];
          assert.deepEqual(list.filter((e) => e.path === 'rollout.ipynb').map((e) => e.uri), [cell]);
        }
        await client.close(cell);
        if (mode === 'push') await client.waitForPublish(notebook, (p) => p.diagnostics.length === 1);
        else assert.deepEqual((await notebookItems([]))?.items?.map((d) => d.code), ['base-url-duplicate-v1']);
      } finally {
        await client.stop();
        nb.cleanup();
      }
    });
  }

  it('lints a Codex config.toml', async () => {
    const client = await TestClient.start({ pull: true, root: ws.root });
    try {
      const uri = fileUri(join(ws.root, '.codex', 'config.toml'));
      await client.open(uri, 'toml', '[model_providers.local]\nbase_url = "http://127.0.0.1:30000/v1/v1"\n');
      assert.deepEqual(((await client.pull(uri)) as FullDocumentDiagnosticReport).items.map(summary), [`1:12 base-url-duplicate-v1 ${DiagnosticSeverity.Error}`]);
    } finally {
      await client.stop();
    }
  });
});
