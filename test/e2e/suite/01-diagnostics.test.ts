import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXPECTED, FIXTURE_FILES, NEVER_OPENED } from './expectations';
import { codeOf, eventually, extension, fileUri, findDiagnostic, formatRange, isOpen, ours, rangeInText, readText, waitForDiagnostics } from './support';

describe('activation and diagnostics', () => {
  it('activates on the workspace without being asked', async () => {
    const ext = extension();
    await eventually(() => (ext.isActive ? true : undefined), 'the extension to activate on its own', 60000);
  });

  // Runs before any test opens a document: the server must lint the workspace, not only open files.
  it('reports every known mistake in files that were never opened', async () => {
    for (const file of FIXTURE_FILES) {
      assert.equal(isOpen(fileUri(file)), false, `${file} was opened before this test`);
    }
    for (const expected of EXPECTED) {
      const uri = fileUri(expected.file);
      const range = rangeInText(await readText(uri), expected.text, expected.occurrence);
      const diagnostics = await waitForDiagnostics(
        uri,
        (ds) => ds.some((d) => codeOf(d) === expected.code && d.range.isEqual(range)),
        `[${expected.code}] at ${formatRange(range)}`,
        60000,
      );
      const d = findDiagnostic(diagnostics, expected.code, range);
      assert.equal(vscode.DiagnosticSeverity[d.severity], expected.severity, `severity of [${expected.code}] in ${expected.file}`);
    }
    for (const file of FIXTURE_FILES) assert.equal(isOpen(fileUri(file)), false, `${file} got opened while waiting`);
  });

  for (const file of FIXTURE_FILES.filter((f) => f !== NEVER_OPENED)) {
    it(`keeps the same findings once ${file} is opened in an editor`, async () => {
      const uri = fileUri(file);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      for (const expected of EXPECTED.filter((e) => e.file === file)) {
        const range = rangeInText(doc.getText(), expected.text, expected.occurrence);
        await waitForDiagnostics(uri, (ds) => ds.some((d) => codeOf(d) === expected.code && d.range.isEqual(range)), `[${expected.code}] at ${formatRange(range)}`);
      }
      const d = ours(uri)[0];
      assert.equal(d.source, 'rollout-lint');
      const href = typeof d.code === 'object' ? d.code.target.toString() : '';
      assert.match(href, /rules\/[a-z0-9-]+/, `diagnostic code should link to the rule's docs page, got ${JSON.stringify(d.code)}`);
    });
  }

  it('re-lints as the document changes', async () => {
    const uri = fileUri('.env');
    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc);
    const added = 'EXTRA_BASE_URL=https://taotoken.net/api/v1/v1\n';
    await editor.edit((b) => b.insert(new vscode.Position(doc.lineCount, 0), added));
    const range = rangeInText(doc.getText(), 'https://taotoken.net/api/v1/v1', 1);
    await waitForDiagnostics(uri, (ds) => ds.some((d) => codeOf(d) === 'base-url-duplicate-v1' && d.range.isEqual(range)), 'a finding on the typed line');
    await vscode.commands.executeCommand('undo');
    await waitForDiagnostics(uri, (ds) => !ds.some((d) => d.range.start.line === range.start.line && codeOf(d) === 'base-url-duplicate-v1'), 'the finding to go with the line');
    assert.equal(doc.getText().includes(added), false);
  });
});
