import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { describeDiagnostics, eventually, ours, rangeInText, writeFile } from './support';

/**
 * The TaoToken guide's demo script (a chat call without logprobs, in a file no rollout glob matches),
 * shared with the LSP test and the UI step: test/fixtures/lsp/taotoken-demo.py (this file runs from test/e2e/out/suite).
 */
const DEMO = readFileSync(join(__dirname, '..', '..', '..', 'fixtures', 'lsp', 'taotoken-demo.py'), 'utf8');
const ACTION = 'Ask for log probs for a rollout: add logprobs=True';
const KIND = vscode.CodeActionKind.RefactorRewrite.append('rollout-lint').append('logprobs');

function hoverText(hovers: vscode.Hover[] | undefined): string {
  return (hovers ?? []).flatMap((h) => h.contents).map((c) => (typeof c === 'string' ? c : c.value)).join('\n');
}

describe('demo script: log-prob advice at the call (issue 25 item 4)', () => {
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('no diagnostic; the hover on the call says a rollout needs logprobs=True; the action adds it when asked', async () => {
    const uri = await writeFile('scratch/advice/demo.py', DEMO);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const create = rangeInText(DEMO, 'create(');
    const at = create.start.translate(0, 2);
    // The hover answers once the server has linted the file: from then on, Problems is what the user sees.
    const text = await eventually(async () => {
      const found = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, at));
      return found.includes('does not ask for log probs') ? found : undefined;
    }, 'the log-prob advice on hover', 30000);
    assert.match(text, /If this call samples an RL rollout, .*add `logprobs=True`/);
    assert.match(text, /top_logprobs/);
    assert.ok(text.includes(ACTION), `the hover names the action:\n${text}`);
    assert.equal(ours(uri).length, 0, `nothing in Problems for a chat call outside rollout code; have:\n    ${describeDiagnostics(ours(uri))}`);

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, new vscode.Range(at, at));
    const action = actions?.find((a) => a.title === ACTION);
    assert.ok(action, `the action is offered when asked; got ${JSON.stringify(actions?.map((a) => a.title))}`);
    assert.equal(action.kind?.value, KIND.value);
    assert.equal(action.diagnostics?.length ?? 0, 0, 'tied to no diagnostic');
    assert.ok(action.edit && (await vscode.workspace.applyEdit(action.edit)));
    assert.match(doc.getText(), /"content": "hello"\}\],\n {4}logprobs=True,\n\)/);
    await doc.save();
    assert.equal(ours(uri).length, 0, 'still nothing in Problems');
    await eventually(async () => {
      const found = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, at));
      return found.includes('does not ask for log probs') ? undefined : true;
    }, 'the advice gone once the call asks for log probs', 30000);
    await vscode.workspace.fs.delete(uri);
  });
});
