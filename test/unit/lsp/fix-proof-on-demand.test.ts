import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_CONFIG } from '../../../server/src/core/config/config';
import { fixProofRuns } from '../../../server/src/core/fix-check';
import { loadGrammars } from '../../../server/src/node/grammars';
import { codeActions, type CodeActionDeps } from '../../../server/src/lsp/code-actions';
import { lintDiagnostics } from '../../../server/src/lsp/diagnostics';
import { LintService } from '../../../server/src/lsp/lint-service';
import type { ConfigProvider } from '../../../server/src/lsp/settings';
import { pathToUri, Workspace } from '../../../server/src/lsp/workspace';

/**
 * The language server's lint service and code actions in this process, so the fix proofs they run can
 * be counted (`fixProofRuns`): diagnostics never prove, a code action proves once per lint (issue 27 item 4).
 */
describe('LSP: fix proof only when a code action asks (issue 27 item 4)', () => {
  let root: string;
  let service: LintService;
  let deps: CodeActionDeps;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'rollout-lint-proof-'));
    const workspace = new Workspace();
    workspace.setFolders([{ uri: pathToUri(root), name: 'root' }]);
    // The two members LintService uses; settings come from the defaults.
    const configs = { generation: 1, forDocument: async () => ({ enabled: true, config: DEFAULT_CONFIG }) } as unknown as ConfigProvider;
    service = new LintService(() => loadGrammars(), configs, workspace, 'en', () => undefined);
    deps = { grammars: await loadGrammars(), locale: 'en', documentChanges: true, createFiles: true, readFile: () => undefined };
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('publishes diagnostics without a proof; the quick fix proves once and offers the fix; no diagnostic in the request, no proof', async () => {
    const uri = pathToUri(join(root, '.env'));
    const text = 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\n';
    const start = fixProofRuns.count;
    const lint = await service.lint(TextDocument.create(uri, 'dotenv', 1, text));
    const diagnostics = lintDiagnostics(lint);
    assert.equal(fixProofRuns.count, start, 'linting for diagnostics ran the proof');
    assert.deepEqual(diagnostics.map((d) => [d.code, d.data]), [['base-url-duplicate-v1', { version: 1, fixes: [], unproven: true }]]);

    // The cursor on a line without a finding: the editor asks with no diagnostics, nothing to prove.
    const elsewhere = { textDocument: { uri }, range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, context: { diagnostics: [] } };
    assert.deepEqual(codeActions(elsewhere, lint, deps), []);
    assert.equal(fixProofRuns.count, start);

    const asked = { textDocument: { uri }, range: diagnostics[0].range, context: { diagnostics } };
    const actions = codeActions(asked, lint, deps);
    assert.equal(fixProofRuns.count, start + 1, 'the code action proved the fix once');
    assert.equal(actions[0].title, 'Remove the repeated /v1');
    assert.equal(actions[0].isPreferred, true);
    assert.deepEqual(codeActions(asked, lint, deps).map((a) => a.title), actions.map((a) => a.title));
    assert.equal(fixProofRuns.count, start + 1, 'proved once per lint');
    // Diagnostics computed after the proof carry the fix itself.
    assert.equal((lintDiagnostics(lint)[0].data as { fixes: unknown[] }).fixes.length, 1);
  });
});
