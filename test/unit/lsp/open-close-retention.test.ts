import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Connection, TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_CONFIG } from '../../../server/src/core/config/config';
import { loadGrammars } from '../../../server/src/node/grammars';
import { Diagnostics } from '../../../server/src/lsp/diagnostics';
import { WorkspaceEnv } from '../../../server/src/lsp/env-index';
import { LintService } from '../../../server/src/lsp/lint-service';
import type { ConfigProvider } from '../../../server/src/lsp/settings';
import { pathToUri, Workspace } from '../../../server/src/lsp/workspace';
import type { ScanDeps } from '../../../server/src/lsp/workspace-scan';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A Python document that is a lint candidate, an env index candidate and has findings (~2 KB). */
function pythonText(i: number): string {
  const lines = ['import os', 'from openai import OpenAI', `client = OpenAI(base_url="https://api.openai.com/v1/v1", api_key=os.environ["OPENAI_API_KEY"], timeout=${i})`];
  for (let k = 0; k < 30; k++) lines.push(`value_${k} = os.getenv("SETTING_${k}", "default-${i}-${k}")`);
  lines.push('client.chat.completions.create(model="gpt-4o-mini", messages=[])');
  return `${lines.join('\n')}\n`;
}

/**
 * What an open document leaves behind once closed (issue 27, language server RSS): the server's own
 * parts in this process (lint cache, quiet times, publication state, env index pending edits) run
 * `n` open → edit → diagnostics → close cycles, each with a new file; the heap still used after a full
 * GC must not grow with `n` (two sizes compared, no timing).
 */
describe('LSP: open/close cycles retain nothing per document', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'rollout-lint-retention-'));
    writeFileSync(join(root, '.env'), 'OPENAI_API_KEY=sk-test-0000\n');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  async function retainedAfter(cycles: number): Promise<number> {
    const workspace = new Workspace();
    workspace.setFolders([{ uri: pathToUri(root), name: 'root' }]);
    const config = { enabled: true, config: DEFAULT_CONFIG };
    const configs = { generation: 1, forDocument: async () => config, forFile: async () => config, forget: () => undefined } as unknown as ConfigProvider;
    const documents = new Map<string, TextDocument>();
    const docs = { get: (u: string) => documents.get(u), all: () => [...documents.values()] } as unknown as TextDocuments<TextDocument>;
    let sent: ((uri: string) => void) | undefined;
    const connection = { sendDiagnostics: async (p: { uri: string }) => sent?.(p.uri) } as unknown as Connection;
    const grammars = () => loadGrammars();
    const lints = new LintService(grammars, configs, workspace, 'en', () => undefined, (uri, ms) => diagnostics.linted(uri, ms));
    const env = new WorkspaceEnv(workspace, configs, grammars, () => undefined, () => diagnostics.openDocumentsChanged());
    lints.env = env;
    const diagnostics = new Diagnostics(connection, docs, lints, {} as ScanDeps, false, { refreshSupport: false, workDoneProgress: false });
    await env.ensure();
    const published = (uri: string) => new Promise<void>((resolve) => (sent = (u) => u === uri && resolve()));
    for (let i = 0; i < cycles; i++) {
      const uri = pathToUri(join(root, `f${i}.py`));
      let done = published(uri);
      documents.set(uri, TextDocument.create(uri, 'python', 1, pythonText(i)));
      diagnostics.opened(uri);
      diagnostics.touched(uri);
      env.documentEdited(documents.get(uri)!, workspace.locate(uri), () => documents.get(uri));
      await done;
      done = published(uri);
      documents.set(uri, TextDocument.create(uri, 'python', 2, `${pythonText(i)}# edited\n`));
      diagnostics.touched(uri);
      env.documentEdited(documents.get(uri)!, workspace.locate(uri), () => documents.get(uri));
      await done;
      documents.delete(uri);
      await env.filesChanged([uri], () => false);
      diagnostics.closed(uri);
    }
    diagnostics.dispose();
    env.dispose();
    gc();
    gc();
    const used = process.memoryUsage().heapUsed;
    // what is still reachable from the server's parts counts: keep them alive until measured
    assert.ok(lints && env && diagnostics);
    return used;
  }

  // A document's lint alone (text, extraction, findings, line index) is well over 20 KB: 1 MB over 100 documents is ~10 KB each.
  it('the heap after 120 cycles is not more than after 20 (+1 MB)', async () => {
    await retainedAfter(5); // grammars loaded, code compiled
    gc();
    const base = process.memoryUsage().heapUsed;
    const small = (await retainedAfter(20)) - base;
    const large = (await retainedAfter(120)) - base;
    assert.ok(large - small < 1024 * 1024, `20 cycles retained ${Math.round(small / 1024)} KB, 120 cycles ${Math.round(large / 1024)} KB`);
  });
});
