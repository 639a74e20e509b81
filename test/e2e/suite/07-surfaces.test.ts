import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { runLensCommand } from './hooks';
import { startScriptedServer } from './scripted-server';
import { codeOf, eventually, extension, rangeInText, waitForDiagnostics, writeFile, ZH_TAG } from './support';

/** What each language expects (English: the suite pass; Chinese: the `--locale zh-cn` pass). */
const EXPECT = {
  en: {
    testConnection: 'Test TaoToken Connection',
    fixAll: 'Fix All Safely Fixable Problems in This File',
    walkthrough: 'Get your rollout endpoint right',
    rulesSetting: /^Base URL leads to a doubled version segment/,
    line: 'scratch/configs/.env, line 1',
    mask: /sk-proj-…stuv, 30 chars/,
    chat: 'Requests go to',
  },
  'zh-cn': {
    testConnection: '测试 TaoToken 连接',
    fixAll: '修复此文件中所有可安全修复的问题',
    walkthrough: '配置好你的 rollout 端点',
    rulesSetting: /^base URL 导致版本段重复/,
    line: 'scratch/configs/.env 第 1 行',
    mask: /sk-proj-…stuv，30 个字符/,
    chat: '请求会发往',
  },
} as const;

type Lang = keyof typeof EXPECT;

function hoverText(hovers: vscode.Hover[] | undefined): string {
  return (hovers ?? [])
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n');
}

/** The tests of the localised surfaces, for one UI language. */
function surfaceTests(lang: Lang): void {
  const want = EXPECT[lang];

  it('the manifest VS Code reads has the titles, setting texts and walkthrough of this language', () => {
    const pkg = extension().packageJSON as {
      contributes: { commands: { command: string; title: string; category: string }[]; walkthroughs: { title: string; steps: { title: string }[] }[]; configuration: { properties: Record<string, { properties?: Record<string, { markdownDescription: string }> }> } };
    };
    // VS Code translates a command title into `{value, original}` when the language is not English.
    const text = (t: unknown) => (typeof t === 'object' && t !== null ? (t as { value: string }).value : t);
    const title = (id: string) => text(pkg.contributes.commands.find((c) => c.command === id)?.title);
    assert.equal(title('rolloutLint.testConnection'), want.testConnection);
    assert.equal(title('rolloutLint.fixAll'), want.fixAll);
    for (const c of pkg.contributes.commands) assert.doesNotMatch(`${text(c.category)} ${text(c.title)}`, /%/, `untranslated: ${c.command}`);
    assert.equal(pkg.contributes.walkthroughs[0].title, want.walkthrough);
    assert.equal(pkg.contributes.walkthroughs[0].steps.length, 5);
    const rule = pkg.contributes.configuration.properties['rolloutLint.rules'].properties?.['base-url-duplicate-v1'];
    assert.match(rule?.markdownDescription ?? '', want.rulesSetting);
  });

  it('Fix All fixes the active file and answers with the counts it shows', async () => {
    const uri = await writeFile(`scratch/fix-all-${lang}/fix-all.env`, 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\nOPENAI_API_KEY=sk-fixall-e2e-0000000000000000000000000000 \n');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    await waitForDiagnostics(uri, (ds) => ds.some((d) => codeOf(d) === 'base-url-duplicate-v1') && ds.some((d) => codeOf(d) === 'api-key-whitespace'), 'both findings', 60000);
    const result = await vscode.commands.executeCommand<{ fixed: number; remaining: number }>('rolloutLint.fixAll');
    assert.deepEqual(result, { fixed: 2, remaining: 0 });
    assert.equal(doc.getText(), 'OPENAI_BASE_URL=https://api.openai.com/v1\nOPENAI_API_KEY=sk-fixall-e2e-0000000000000000000000000000\n');
    assert.deepEqual(await vscode.commands.executeCommand('rolloutLint.fixAll'), { fixed: 0, remaining: 0 }, 'a second run has nothing left to fix');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('the connection report opens as a read-only document naming the setting by its workspace path', async () => {
    const server = await startScriptedServer();
    try {
      const uri = await writeFile(`scratch/configs/.env`, `OPENAI_BASE_URL=http://127.0.0.1:${server.port}/ok/v1\nOPENAI_API_KEY=sk-test-e2e-0000000000000000000000000file\n`);
      const report = await runLensCommand(uri, 0, 'rolloutLint.testConnection');
      assert.equal(report?.verdict, 'ok');
      assert.equal(await vscode.commands.executeCommand('rolloutLint.showReport'), true);
      const doc = await eventually(() => {
        const d = vscode.window.activeTextEditor?.document;
        return d?.uri.scheme === 'rollout-lint-report' ? d : undefined;
      }, 'the report editor');
      assert.equal(doc.languageId, 'rollout-lint-report');
      assert.equal(doc.isUntitled, false, 'not an untitled document (those ask to be saved)');
      assert.ok(doc.getText().includes(want.line), doc.getText());
      assert.equal(doc.getText().includes('0000000000000000000000000file'), false, 'the report never holds the key');
      assert.notEqual(vscode.workspace.fs.isWritableFileSystem('rollout-lint-report'), true, 'no writable file system behind the report');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      await server.close();
    }
  });

  it('diagnostics mask keys in this language; hover names each client once', async () => {
    const uri = await writeFile(`scratch/mask-${lang}/.env`, 'OPENAI_BASE_URL=https://api.openai.com/v1\nOPENAI_API_KEY=" sk-proj-abcdefghijklmnopqrstuv"\n');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const diagnostics = await waitForDiagnostics(uri, (ds) => ds.some((d) => codeOf(d) === 'api-key-whitespace'), '[api-key-whitespace]', 60000);
    const message = diagnostics.find((d) => codeOf(d) === 'api-key-whitespace')!.message;
    assert.match(message, want.mask, message);
    assert.doesNotMatch(message, /\(\S*… \(\d+ chars\)\)/, message);
    const range = rangeInText(doc.getText(), 'https://api.openai.com/v1');
    const text = await eventually(async () => {
      const t = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, range.start.translate(0, 8)));
      return t.includes(want.chat) ? t : undefined;
    }, 'a base URL hover', 20000);
    assert.match(text, /openai SDK[ （(]+`OPENAI_BASE_URL`/, text);
    assert.doesNotMatch(text, /\(openai SDK\)`/, text);
    if (lang === 'zh-cn') assert.doesNotMatch(text, /基础 URL/, text);
  });
}

describe('localised surfaces (English)', () => {
  before(async () => {
    await extension().activate();
  });
  surfaceTests('en');

  it('Turn On Fix on Save adds the fix-all action to editor.codeActionsOnSave, keeping what is there', async () => {
    const config = vscode.workspace.getConfiguration('editor');
    const before = config.inspect('codeActionsOnSave')?.globalValue;
    try {
      await config.update('codeActionsOnSave', { 'source.organizeImports': 'explicit' }, vscode.ConfigurationTarget.Global);
      assert.equal(await vscode.commands.executeCommand('rolloutLint.enableFixOnSave'), true);
      assert.deepEqual(vscode.workspace.getConfiguration('editor').inspect('codeActionsOnSave')?.globalValue, { 'source.organizeImports': 'explicit', 'source.fixAll.rollout-lint': 'explicit' });
      assert.equal(await vscode.commands.executeCommand('rolloutLint.enableFixOnSave'), false, 'a second run changes nothing');
    } finally {
      await vscode.workspace.getConfiguration('editor').update('codeActionsOnSave', before, vscode.ConfigurationTarget.Global);
    }
  });
});

describe(`localised surfaces (Chinese) ${ZH_TAG}`, () => {
  before(async () => {
    await extension().activate();
  });
  surfaceTests('zh-cn');
});

