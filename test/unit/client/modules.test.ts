import assert from 'node:assert/strict';
import { COMMANDS, TEST_CONNECTION_COMMAND } from '../../../client/src/commands/index';
import { fixAll, fixAllMessage } from '../../../client/src/commands/fix-all';
import { restartServer } from '../../../client/src/commands/restart-server';
import { showOutput } from '../../../client/src/commands/show-output';
import { clientSettings, diagnosticPullOptions, initializationOptions } from '../../../client/src/options';
import { LanguageStatus, statusView } from '../../../client/src/status';
import type { CommandContext, CommandModule, Host, StatusItem } from '../../../client/src/types';
import { fakeContext, fakeHost as completeHost } from './fakes';
import { showReport } from '../../../client/src/connection/run';
import { sessionOf } from '../../../client/src/connection/session';
import { enableFixOnSave } from '../../../client/src/commands/enable-fix-on-save';
import { statusDetail } from '../../../client/src/connection/report';
import { scanSummary } from '../../../server/src/lsp/workspace-scan';

type FakeHost = Host & { items: StatusItem[]; diagnosticsListeners: (() => void)[]; problems: { errors: number; warnings: number } };
type FakeContext = CommandContext & { shown: number; requests: [string, unknown][]; restarts: number };

/** A fake host recording what modules ask of VS Code. */
function fakeHost(overrides: Partial<Host> = {}): FakeHost {
  const host: FakeHost = {
    ...completeHost(),
    language: 'en',
    testMode: false,
    items: [] as StatusItem[],
    diagnosticsListeners: [] as (() => void)[],
    problems: { errors: 0, warnings: 0 },
    isTrusted: () => true,
    onDidGrantTrust: () => ({ dispose() {} }),
    registerCommand: () => ({ dispose() {} }),
    executeCommand: async <T>() => undefined as T | undefined,
    activeDocument: () => ({ uri: 'file:///w/.env', version: 4, languageId: 'dotenv' }),
    countDiagnostics: () => host.problems,
    onDidChangeDiagnostics(listener: () => void) {
      host.diagnosticsListeners.push(listener);
      return { dispose() {} };
    },
    createStatusItem() {
      const item: StatusItem = { text: '', severity: 'information', busy: false, command: undefined, dispose() {} };
      host.items.push(item);
      return item;
    },
    showWarning() {},
    ...overrides,
  };
  return host;
}

function context(host: Host, extra: Partial<CommandContext> = {}): FakeContext {
  const ctx: FakeContext = {
    shown: 0,
    requests: [] as [string, unknown][],
    restarts: 0,
    host,
    exports: {},
    log: { info() {}, warn() {}, error() {}, show: () => void ctx.shown++ },
    server: () => ({
      sendRequest: async <R>(method: string, params: unknown): Promise<R> => {
        ctx.requests.push([method, params]);
        return undefined as R;
      },
      sendNotification: async () => undefined,
    }),
    restartServer: async () => void ctx.restarts++,
    ...extra,
  };
  return ctx;
}

describe('client modules (no VS Code needed)', () => {
  it('initializationOptions pass the UI language and trust, and the lens command only when a module provides it', () => {
    const withoutLens = COMMANDS.filter((c) => c.id !== TEST_CONNECTION_COMMAND);
    assert.deepEqual(initializationOptions(fakeHost({ language: 'zh-cn', isTrusted: () => false }), withoutLens), { locale: 'zh-cn', workspaceTrusted: false });
    const withLens: CommandModule[] = [...withoutLens, { id: TEST_CONNECTION_COMMAND, run() {} }];
    assert.deepEqual(initializationOptions(fakeHost(), withLens), { locale: 'en', workspaceTrusted: true, testConnectionCommand: 'rolloutLint.testConnection' });
  });

  it('Fix All asks the server to apply the safe fixes of the active document and says what it did', async () => {
    const shown: string[] = [];
    const ctx = context(fakeHost({ relativePath: () => 'configs/.env', showMessage: async (_kind, message) => void shown.push(message) }), {
      server: () => ({
        sendRequest: async <R>(method: string, params: unknown): Promise<R> => {
          ctx.requests.push([method, params]);
          return { fixed: 2, remaining: 1 } as R;
        },
        sendNotification: async () => undefined,
      }),
    });
    assert.deepEqual(await fixAll.run(ctx), { fixed: 2, remaining: 1 });
    assert.deepEqual(ctx.requests, [['workspace/executeCommand', { command: 'rolloutLint.server.fixAll', arguments: [{ uri: 'file:///w/.env' }] }]]);
    assert.deepEqual(shown, ['Fixed 2 problems in configs/.env. 1 still needs a decision: see its quick fixes.']);
  });

  it('rolloutLint.run and rolloutLint.server.path: when the editor pulls diagnostics, which server runs (user settings only)', () => {
    const host = (effective: Record<string, unknown>, user: Record<string, unknown>) => ({ getSetting: <T>(s: string) => effective[s] as T, getUserSetting: <T>(s: string) => user[s] as T });
    assert.deepEqual(clientSettings(host({}, {})), { run: 'onType' });
    assert.deepEqual(diagnosticPullOptions(clientSettings(host({ 'rolloutLint.run': 'onSave' }, {})).run), { onChange: false, onSave: true });
    assert.deepEqual(diagnosticPullOptions('onType'), { onChange: true, onSave: false });
    assert.deepEqual(clientSettings(host({}, { 'rolloutLint.server.path': '/opt/rl/server.js' })).server, { kind: 'module', path: '/opt/rl/server.js' });
    assert.deepEqual(clientSettings(host({}, { 'rolloutLint.server.path': '/usr/local/bin/rollout-lint-server' })).server, { kind: 'executable', path: '/usr/local/bin/rollout-lint-server' });
    assert.equal(clientSettings(host({ 'rolloutLint.server.path': '/tmp/evil.sh' }, {})).server, undefined, 'a workspace value is never run');
  });

  it('Fix All messages: one, none fixable, clean, and in Chinese', () => {
    assert.equal(fixAllMessage('en', '.env', { fixed: 1, remaining: 0 }), 'Fixed 1 problem in .env.');
    assert.equal(fixAllMessage('en', '.env', { fixed: 0, remaining: 3 }), 'Nothing in .env can be fixed safely. 3 still need a decision: see their quick fixes.');
    assert.equal(fixAllMessage('en', '.env', { fixed: 0, remaining: 0 }), 'No problems in .env.');
    assert.equal(fixAllMessage('zh-cn', 'configs/.env', { fixed: 2, remaining: 1 }), '已修复 configs/.env 中的 2 个问题。还有 1 个问题需要你来决定：请查看它的快速修复。');
  });

  it('Fix All without an editor says to open a file; without a running server it does nothing', async () => {
    const shown: string[] = [];
    const noEditor = context(fakeHost({ activeDocument: () => undefined, showMessage: async (_kind, message) => void shown.push(message) }));
    await fixAll.run(noEditor);
    assert.deepEqual(noEditor.requests, []);
    assert.deepEqual(shown, ['Fix All works on the file in the active editor; open a file first.']);
    const noServer = context(fakeHost(), { server: () => undefined });
    assert.equal(await fixAll.run(noServer), undefined);
  });

  it('Show Output shows the log; Restart Server restarts', async () => {
    const ctx = context(fakeHost());
    await showOutput.run(ctx);
    await restartServer.run(ctx);
    assert.equal(ctx.shown, 1);
    assert.equal(ctx.restarts, 1);
  });

  it('the status view gives state, error and warning counts (no hints) and slow runs, in English and Chinese', () => {
    const none = { errors: 0, warnings: 0 };
    assert.deepEqual(statusView('en', 'starting', none), { text: 'Rollout Lint', detail: 'starting…', severity: 'information', busy: true });
    assert.deepEqual(statusView('en', 'running', { errors: 4, warnings: 2 }), { text: '$(error) 4 $(warning) 2', detail: 'in this workspace; hints are not counted', severity: 'information', busy: false });
    assert.equal(statusView('en', 'running', none, { file: 'scripts/launch.sh', ms: 1500 }).detail, 'slow run: scripts/launch.sh took 1500 ms');
    assert.equal(statusView('zh-cn', 'running', none).detail, '本工作区内；提示不计入');
    assert.equal(statusView('zh-cn', 'starting', none).detail, '正在启动…');
    assert.equal(statusView('en', 'failed', none).severity, 'error');
  });

  it('the language status item follows the server state and the diagnostics, and a click shows the log', () => {
    const host = fakeHost();
    const status = new LanguageStatus(host, 'rollout-lint', 'rolloutLint.showOutput');
    const item = host.items[0];
    assert.deepEqual(item.command, { title: 'Show log', command: 'rolloutLint.showOutput' });
    assert.equal(item.busy, true);
    status.setState('running');
    host.problems = { errors: 1, warnings: 1 };
    for (const listener of host.diagnosticsListeners) listener();
    assert.equal(item.text, '$(error) 1 $(warning) 1');
    status.reportSlowRun('file:///w/scripts/launch.sh', 2400);
    assert.equal(item.detail, 'slow run: scripts/launch.sh took 2400 ms');
    status.dispose();
  });
});

describe('client modules: report, fix on save, scan summary', () => {
  it('Show Last Connection Report says so before any test, and shows the last report read-only after', async () => {
    const ctx = fakeContext(completeHost());
    assert.equal(await showReport(ctx), false);
    assert.match((ctx.host as ReturnType<typeof completeHost>).record.messages[0].message, /No connection report yet: run "Rollout Lint: Test TaoToken Connection" first/);
    sessionOf(ctx).lastReport = { name: 'Rollout Lint connection report (TaoToken)', text: '# Test TaoToken Connection\n' };
    assert.equal(await showReport(ctx), true);
    assert.deepEqual((ctx.host as ReturnType<typeof completeHost>).record.untitled, [{ name: 'Rollout Lint connection report (TaoToken)', content: '# Test TaoToken Connection\n', language: 'rollout-lint-report' }]);
  });

  it('Turn On Fix on Save adds source.fixAll.rollout-lint, keeps other entries, converts a legacy array, and is idempotent', async () => {
    const host = completeHost();
    host.record.settings['editor.codeActionsOnSave'] = ['source.organizeImports'];
    const ctx = context(host);
    assert.equal(await enableFixOnSave.run(ctx), true);
    assert.deepEqual(host.record.settings['editor.codeActionsOnSave'], { 'source.organizeImports': 'explicit', 'source.fixAll.rollout-lint': 'explicit' });
    assert.equal(await enableFixOnSave.run(ctx), false);
    assert.match(host.record.messages.at(-1)!.message, /already on/);
  });

  it('the connection status detail is short: when the test ran, in the UI language', async () => {
    const at = new Date(2026, 0, 2, 9, 5);
    assert.equal(statusDetail(at, 'en'), 'tested at 09:05');
    assert.equal(statusDetail(at, 'zh-cn'), '测试于 09:05');
  });

  it('the workspace scan summary names counts, time and the slowest files, never content', async () => {
    assert.equal(
      scanSummary(8, { linted: 6, unchanged: 1, errors: 5, warnings: 2, slow: [{ file: 'a.py', ms: 600 }, { file: 'b/c.sh', ms: 900 }] }, 1234),
      'workspace scan: 8 candidate files, 6 linted, 1 unchanged, 5 errors, 2 warnings in 1234 ms; slow files: b/c.sh (900 ms), a.py (600 ms)',
    );
    assert.equal(scanSummary(0, { linted: 0, unchanged: 0, errors: 0, warnings: 0, slow: [] }, 3), 'workspace scan: 0 candidate files, 0 linted, 0 unchanged, 0 errors, 0 warnings in 3 ms');
    assert.equal(
      scanSummary(8, { linted: 6, unchanged: 1, errors: 5, warnings: 2, slow: [{ file: 'a.py', ms: 600 }] }, 1234, 'zh-CN'),
      '工作区扫描：8 个候选文件，检查了 6 个，1 个未变，5 个错误，2 个警告，用时 1234 ms；较慢的文件：a.py (600 ms)',
    );
  });
});
