import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { codeOf, extension, fileUri, findDiagnostic, rangeInText, readText, waitForDiagnostics } from './support';

const SECTION = 'rolloutLint';
const RULE = 'base-url-duplicate-v1';

describe('settings', () => {
  const config = () => vscode.workspace.getConfiguration(SECTION);

  before(() => {
    const properties = extension().packageJSON?.contributes?.configuration?.properties ?? {};
    assert.ok(`${SECTION}.rules` in properties, `package.json contributes no "${SECTION}.rules" setting; it has: ${Object.keys(properties).join(', ') || '(none)'}`);
  });

  afterEach(async () => {
    await config().update('rules', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('re-lints open and unopened files when a rule is turned off, changed and restored', async () => {
    const opened = fileUri('.env');
    const unopened = fileUri('openclaw.json');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(opened));
    const rangeOpened = rangeInText(await readText(opened), 'https://taotoken.net/api/v1/v1');
    const rangeUnopened = rangeInText(await readText(unopened), 'https://taotoken.net/api/v1/v1');
    const has = (range: vscode.Range, severity?: vscode.DiagnosticSeverity) => (ds: vscode.Diagnostic[]) =>
      ds.some((d) => codeOf(d) === RULE && d.range.isEqual(range) && (severity === undefined || d.severity === severity));
    await waitForDiagnostics(opened, has(rangeOpened, vscode.DiagnosticSeverity.Error), `[${RULE}] as error`);
    await waitForDiagnostics(unopened, has(rangeUnopened, vscode.DiagnosticSeverity.Error), `[${RULE}] as error`);

    await config().update('rules', { [RULE]: 'off' }, vscode.ConfigurationTarget.Workspace);
    await waitForDiagnostics(opened, (ds) => !ds.some((d) => codeOf(d) === RULE), `[${RULE}] to go (rule off)`);
    await waitForDiagnostics(unopened, (ds) => !ds.some((d) => codeOf(d) === RULE), `[${RULE}] to go (rule off)`);

    await config().update('rules', { [RULE]: 'warning' }, vscode.ConfigurationTarget.Workspace);
    const warned = await waitForDiagnostics(opened, has(rangeOpened, vscode.DiagnosticSeverity.Warning), `[${RULE}] as warning`);
    assert.equal(findDiagnostic(warned, RULE, rangeOpened).severity, vscode.DiagnosticSeverity.Warning);

    await config().update('rules', undefined, vscode.ConfigurationTarget.Workspace);
    await waitForDiagnostics(opened, has(rangeOpened, vscode.DiagnosticSeverity.Error), `[${RULE}] back as error`);
    await waitForDiagnostics(unopened, has(rangeUnopened, vscode.DiagnosticSeverity.Error), `[${RULE}] back as error`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
