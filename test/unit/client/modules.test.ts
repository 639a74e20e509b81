import assert from 'node:assert/strict';
import { COMMANDS, TEST_CONNECTION_COMMAND } from '../../../client/src/commands/index';
import { fixAll } from '../../../client/src/commands/fix-all';
import { restartServer } from '../../../client/src/commands/restart-server';
import { showOutput } from '../../../client/src/commands/show-output';
import { initializationOptions } from '../../../client/src/options';
import { LanguageStatus, statusView } from '../../../client/src/status';
import type { CommandContext, CommandModule, Host, StatusItem } from '../../../client/src/types';
import { fakeHost as completeHost } from './fakes';

type FakeHost = Host & { items: StatusItem[]; diagnosticsListeners: (() => void)[]; problems: number };
type FakeContext = CommandContext & { shown: number; requests: [string, unknown][]; restarts: number };

/** A fake host recording what modules ask of VS Code. */
function fakeHost(overrides: Partial<Host> = {}): FakeHost {
  const host: FakeHost = {
    ...completeHost(),
    language: 'en',
    testMode: false,
    items: [] as StatusItem[],
    diagnosticsListeners: [] as (() => void)[],
    problems: 0,
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

  it('Fix All asks the server to apply the safe fixes of the active document', async () => {
    const ctx = context(fakeHost());
    await fixAll.run(ctx);
    assert.deepEqual(ctx.requests, [['workspace/executeCommand', { command: 'rolloutLint.server.fixAll', arguments: [{ uri: 'file:///w/.env' }] }]]);
  });

  it('Fix All does nothing without an editor or a running server', async () => {
    const noEditor = context(fakeHost({ activeDocument: () => undefined }));
    await fixAll.run(noEditor);
    assert.deepEqual(noEditor.requests, []);
    const noServer = context(fakeHost(), { server: () => undefined });
    await fixAll.run(noServer);
  });

  it('Show Output shows the log; Restart Server restarts', async () => {
    const ctx = context(fakeHost());
    await showOutput.run(ctx);
    await restartServer.run(ctx);
    assert.equal(ctx.shown, 1);
    assert.equal(ctx.restarts, 1);
  });

  it('the status view gives state, problem count and slow runs, in English and Chinese', () => {
    assert.deepEqual(statusView('en', 'starting', 0), { text: 'Rollout Lint', detail: 'starting…', severity: 'information', busy: true });
    assert.deepEqual(statusView('en', 'running', 1), { text: 'Rollout Lint: 1 problem', detail: undefined, severity: 'information', busy: false });
    assert.equal(statusView('en', 'running', 3, { file: '.env', ms: 1500 }).detail, 'slow run: .env took 1500 ms');
    assert.equal(statusView('zh-cn', 'running', 3).text, 'Rollout Lint: 3 个问题');
    assert.equal(statusView('en', 'failed', 0).severity, 'error');
  });

  it('the language status item follows the server state and the diagnostics, and a click shows the log', () => {
    const host = fakeHost();
    const status = new LanguageStatus(host, 'rollout-lint', 'rolloutLint.showOutput');
    const item = host.items[0];
    assert.deepEqual(item.command, { title: 'Show log', command: 'rolloutLint.showOutput' });
    assert.equal(item.busy, true);
    status.setState('running');
    host.problems = 2;
    for (const listener of host.diagnosticsListeners) listener();
    assert.equal(item.text, 'Rollout Lint: 2 problems');
    status.reportSlowRun('file:///w/scripts/launch.sh', 2400);
    assert.equal(item.detail, 'slow run: launch.sh took 2400 ms');
    status.dispose();
  });
});
