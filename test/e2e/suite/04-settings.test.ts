import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { NEVER_OPENED } from './expectations';
import { codeOf, extension, fileUri, isOpen, rangeInText, readText, waitForDiagnostics } from './support';

const SECTION = 'rolloutLint';
const RULE = 'base-url-duplicate-v1';
const DOUBLED = 'https://taotoken.net/api/v1/v1';

/** Holds when `uri` has our RULE finding at `range` with `severity` (any severity when omitted). */
function has(range: vscode.Range, severity?: vscode.DiagnosticSeverity) {
  return (ds: vscode.Diagnostic[]) => ds.some((d) => codeOf(d) === RULE && d.range.isEqual(range) && (severity === undefined || d.severity === severity));
}
const gone = (ds: vscode.Diagnostic[]) => !ds.some((d) => codeOf(d) === RULE);

/** Turns RULE off, to warning, and back to its default, checking every file in `files` each time. */
async function cycle(files: { uri: vscode.Uri; label: string }[]): Promise<void> {
  const config = () => vscode.workspace.getConfiguration(SECTION);
  const targets = await Promise.all(files.map(async (f) => ({ ...f, range: rangeInText(await readText(f.uri), DOUBLED) })));
  const each = (check: (t: (typeof targets)[number]) => Promise<unknown>) => Promise.all(targets.map(check));
  await each((t) => waitForDiagnostics(t.uri, has(t.range, vscode.DiagnosticSeverity.Error), `[${RULE}] as error (${t.label})`));
  await config().update('rules', { [RULE]: 'off' }, vscode.ConfigurationTarget.Workspace);
  await each((t) => waitForDiagnostics(t.uri, gone, `[${RULE}] to go when the rule is off (${t.label})`));
  await config().update('rules', { [RULE]: 'warning' }, vscode.ConfigurationTarget.Workspace);
  await each((t) => waitForDiagnostics(t.uri, has(t.range, vscode.DiagnosticSeverity.Warning), `[${RULE}] as warning (${t.label})`));
  await config().update('rules', undefined, vscode.ConfigurationTarget.Workspace);
  await each((t) => waitForDiagnostics(t.uri, has(t.range, vscode.DiagnosticSeverity.Error), `[${RULE}] back as error (${t.label})`));
}

describe('settings', () => {
  before(() => {
    const properties = extension().packageJSON?.contributes?.configuration?.properties ?? {};
    assert.ok(`${SECTION}.rules` in properties, `package.json contributes no "${SECTION}.rules" setting; it has: ${Object.keys(properties).join(', ') || '(none)'}`);
  });

  afterEach(async () => {
    await vscode.workspace.getConfiguration(SECTION).update('rules', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('re-lints the file in the editor and a file never opened when rolloutLint.rules changes', async () => {
    const opened = fileUri('.env');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(opened));
    const neverOpened = fileUri(NEVER_OPENED);
    assert.equal(isOpen(neverOpened), false, `${NEVER_OPENED} must stay unopened`);
    await cycle([{ uri: opened, label: 'open in an editor' }, { uri: neverOpened, label: 'never opened' }]);
  });

  it('re-lints a file whose editor was closed when rolloutLint.rules changes', async () => {
    const uri = fileUri('openclaw.json');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await waitForDiagnostics(uri, (ds) => ds.some((d) => codeOf(d) === RULE), `[${RULE}]`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await cycle([{ uri, label: 'editor closed' }]);
  });
});
