import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { codeOf, describeDiagnostics, findDiagnostic, rangeInText, waitForDiagnostics, writeFile } from './support';

const DOUBLED = 'https://taotoken.net/api/v1/v1';

async function codeActions(uri: vscode.Uri, range: vscode.Range, kind: string): Promise<vscode.CodeAction[]> {
  const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', uri, range, kind);
  return (actions ?? []).filter((a): a is vscode.CodeAction => typeof (a as vscode.Command).command !== 'string');
}

async function apply(action: vscode.CodeAction): Promise<void> {
  if (action.edit) assert.ok(await vscode.workspace.applyEdit(action.edit), `applyEdit refused "${action.title}"`);
  if (action.command) await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
}

describe('fixes', () => {
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('applies the preferred quick fix and the diagnostic goes away', async () => {
    const uri = await writeFile('scratch/quick-fix/.env', `# scratch\nOPENAI_BASE_URL=${DOUBLED}\n`);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const range = rangeInText(doc.getText(), DOUBLED);
    const diagnostics = await waitForDiagnostics(uri, (ds) => ds.some((d) => codeOf(d) === 'base-url-duplicate-v1'), '[base-url-duplicate-v1]');
    const diagnostic = findDiagnostic(diagnostics, 'base-url-duplicate-v1', range);
    const actions = await codeActions(uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
    const preferred = actions.filter((a) => a.isPreferred);
    assert.equal(preferred.length, 1, `one preferred quick fix expected, got: ${actions.map((a) => `${a.title}${a.isPreferred ? ' (preferred)' : ''}`).join(' | ')}`);
    assert.ok(actions.some((a) => /disable/i.test(a.title)), `a "disable" action is offered too: ${actions.map((a) => a.title).join(' | ')}`);
    await apply(preferred[0]);
    assert.equal(doc.getText(), '# scratch\nOPENAI_BASE_URL=https://taotoken.net/api/v1\n');
    await waitForDiagnostics(uri, (ds) => !ds.some((d) => codeOf(d) === 'base-url-duplicate-v1'), 'the fixed diagnostic to go away');
    await doc.save();
  });

  it('applies safe fixes on save with source.fixAll.rollout-lint, leaving unsafe ones', async () => {
    const editorConfig = vscode.workspace.getConfiguration('editor');
    await editorConfig.update('codeActionsOnSave', { 'source.fixAll.rollout-lint': 'explicit' }, vscode.ConfigurationTarget.Workspace);
    try {
      const text = [
        '# scratch',
        `OPENAI_BASE_URL=${DOUBLED}`,
        'OPENAI_API_KEY=sk-test-0000000000000000000000000000abcd ',
        'ANTHROPIC_BASE_URL=https://taotoken.net/api/v1/chat/completions',
        '',
      ].join('\n');
      const uri = await writeFile('scratch/on-save/.env', text);
      const doc = await vscode.workspace.openTextDocument(uri);
      const editor = await vscode.window.showTextDocument(doc);
      await waitForDiagnostics(uri, (ds) => ['base-url-duplicate-v1', 'api-key-whitespace'].every((c) => ds.some((d) => codeOf(d) === c)), 'the safe-fixable findings');
      const unsafeBefore = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'rollout-lint' && codeOf(d) === 'base-url-endpoint-path');
      const fixAll = await codeActions(uri, new vscode.Range(0, 0, doc.lineCount, 0), 'source.fixAll.rollout-lint');
      assert.ok(fixAll.length > 0, 'source.fixAll.rollout-lint is offered');
      await editor.edit((b) => b.insert(new vscode.Position(0, 9), ' (edited)'));
      assert.ok(await doc.save(), 'save');
      const lines = doc.getText().split('\n');
      assert.equal(lines[1], 'OPENAI_BASE_URL=https://taotoken.net/api/v1');
      assert.equal(lines[2], 'OPENAI_API_KEY=sk-test-0000000000000000000000000000abcd');
      assert.equal(lines[3], 'ANTHROPIC_BASE_URL=https://taotoken.net/api/v1/chat/completions', 'an unsafe fix was applied on save');
      assert.equal(Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8'), doc.getText(), 'the fixed text is what was saved');
      const after = await waitForDiagnostics(uri, (ds) => !ds.some((d) => ['base-url-duplicate-v1', 'api-key-whitespace'].includes(codeOf(d) ?? '')), 'the fixed findings to go away');
      if (unsafeBefore.length > 0) {
        assert.ok(after.some((d) => codeOf(d) === 'base-url-endpoint-path'), `the unsafe finding stays: ${describeDiagnostics(after)}`);
      }
    } finally {
      await editorConfig.update('codeActionsOnSave', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
