import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { contributedCommands, eventually, fileUri, rangeInText, skipBecause, writeFile } from './support';

const TEST_CONNECTION = 'rolloutLint.testConnection';

function hoverText(hovers: vscode.Hover[] | undefined): string {
  return (hovers ?? [])
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n');
}

/** Hover text at the middle of `needle`, once the server answers with something that matches `want`. */
async function hoverAt(uri: vscode.Uri, needle: string, want: RegExp): Promise<string> {
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc);
  const range = rangeInText(doc.getText(), needle);
  const position = range.start.translate(0, Math.floor(needle.length / 2));
  let last = '';
  try {
    return await eventually(async () => {
      last = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position));
      return want.test(last) ? last : undefined;
    }, `a hover matching ${want}`, 20000);
  } catch (error) {
    throw new Error(`${(error as Error).message}; last hover text: ${JSON.stringify(last)}`);
  }
}

describe('hover and code lens', () => {
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('shows the effective request URL of a base URL on hover', async () => {
    const uri = await writeFile('scratch/hover/.env', 'OPENAI_BASE_URL=https://taotoken.net/api/v1\n');
    const text = await hoverAt(uri, 'https://taotoken.net/api/v1', /chat\/completions/);
    assert.ok(text.includes('https://taotoken.net/api/v1/chat/completions'), `hover names the URL the OpenAI SDK calls:\n${text}`);
  });

  it('shows the doubled URL a consumer will call for a mistaken base', async () => {
    const text = await hoverAt(fileUri('openclaw.json'), 'https://taotoken.net/api/v1/v1', /chat\/completions/);
    assert.ok(text.includes('https://taotoken.net/api/v1/v1/chat/completions'), `hover names the doubled URL:\n${text}`);
  });

  it('offers a "Test connection" code lens on a base URL', async function () {
    // The server shows these lenses only when the client has the command to run (client/src/options.ts).
    if (!contributedCommands().includes(TEST_CONNECTION)) skipBecause(this, `the lens runs ${TEST_CONNECTION}, which is not in package.json contributes.commands yet`);
    const uri = await writeFile('scratch/lens/.env', '# scratch\nOPENAI_BASE_URL=https://taotoken.net/api/v1\n');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const lenses = await eventually(async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100);
      return found?.some((l) => l.range.start.line === 1 && l.command) ? found : undefined;
    }, 'a resolved code lens on line 2', 20000);
    const lens = lenses.find((l) => l.range.start.line === 1 && l.command)!;
    assert.equal(lens.command!.command, TEST_CONNECTION, `lens command: ${JSON.stringify(lens.command)}`);
    assert.ok(lens.command!.title.trim().length > 0, 'lens has a title');
    const all = await vscode.commands.getCommands(true);
    assert.ok(all.includes(lens.command!.command), `lens command ${lens.command!.command} is registered`);
  });
});
