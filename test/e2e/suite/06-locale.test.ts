import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { codeOf, fileUri, rangeInText, readText, waitForDiagnostics, ZH_TAG } from './support';

const CJK = /[\u4e00-\u9fff]/;

describe(`messages in Simplified Chinese ${ZH_TAG}`, () => {
  it('runs in a VS Code whose display language is Chinese', () => {
    assert.match(vscode.env.language, /^zh/i, `vscode.env.language is ${vscode.env.language}`);
  });

  it('reports a diagnostic message in Chinese for the same finding and range', async () => {
    const uri = fileUri('.env');
    const range = rangeInText(await readText(uri), 'https://taotoken.net/api/v1/v1');
    const diagnostics = await waitForDiagnostics(uri, (ds) => ds.some((d) => codeOf(d) === 'base-url-duplicate-v1' && d.range.isEqual(range)), '[base-url-duplicate-v1]', 60000);
    const d = diagnostics.find((x) => codeOf(x) === 'base-url-duplicate-v1')!;
    assert.match(d.message, CJK, `message is not Chinese: ${d.message}`);
    assert.ok(d.message.includes('https://taotoken.net/api/v1/v1'), `message keeps the value: ${d.message}`);
  });
});
