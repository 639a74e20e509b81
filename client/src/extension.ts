import type * as vscode from 'vscode';
import { LanguageClient, State, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { COMMANDS } from './commands/index';
import { say } from './connection/texts';
import { redactTrace } from '../../server/src/core/redact';
import { showOutput } from './commands/show-output';
import { createHost, createLogChannel, track } from './host';
import { CLIENT_ID, CLIENT_NAME, clientSettings, diagnosticPullOptions, DOCUMENT_SELECTOR, initializationOptions } from './options';
import { LanguageStatus, type ServerState } from './status';
import type { CommandContext, Host, LogChannel } from './types';

/** `Diagnostic.source` of the server's diagnostics (counted by the status item). */
const DIAGNOSTIC_SOURCE = 'rollout-lint';

const STATES: Record<State, ServerState> = { [State.Starting]: 'starting', [State.Running]: 'running', [State.Stopped]: 'stopped', [State.StartFailed]: 'failed' };

let client: LanguageClient | undefined;

/**
 * The log channel as the language client writes to it (its own messages and `trace.server` traces):
 * every string passes `redactTrace` first, so document texts and keys never reach the Output view.
 */
function redactingChannel(log: vscode.LogOutputChannel): vscode.LogOutputChannel {
  const wrapped = new Set(['append', 'appendLine', 'replace', 'trace', 'debug', 'info', 'warn']);
  return new Proxy(log, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (!wrapped.has(String(name)) && name !== 'error') return value.bind(target);
      return (first: unknown, ...rest: unknown[]) =>
        (value as (...a: unknown[]) => unknown).call(target, typeof first === 'string' ? redactTrace(first) : first instanceof Error ? redactTrace(first.message) : first, ...rest.map((r) => (typeof r === 'string' ? redactTrace(r) : r)));
    },
  });
}

function createClient(context: vscode.ExtensionContext, host: Host, log: vscode.LogOutputChannel): LanguageClient {
  const settings = clientSettings(host);
  const module = settings.server?.kind === 'module' ? settings.server.path : context.asAbsolutePath('server/dist/server.js');
  const serverOptions: ServerOptions =
    settings.server?.kind === 'executable'
      ? { command: settings.server.path, args: ['--stdio'], transport: TransportKind.stdio }
      : {
          run: { module, transport: TransportKind.ipc },
          debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
        };
  if (settings.server) log.info(say(host.language, 'log.customServer', { path: settings.server.path }));
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: redactingChannel(log),
    initializationOptions: initializationOptions(host, COMMANDS),
    diagnosticPullOptions: diagnosticPullOptions(settings.run),
  };
  return new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
}

async function startClient(context: vscode.ExtensionContext, host: Host, log: vscode.LogOutputChannel & LogChannel, status: LanguageStatus): Promise<void> {
  const next = createClient(context, host, log);
  client = next;
  next.onDidChangeState((e) => status.setState(STATES[e.newState]));
  try {
    await next.start();
    const server = next.initializeResult?.serverInfo;
    log.info(say(host.language, 'log.started', { version: host.version, server: server ? `${server.name} ${server.version ?? ''}`.trim() : '?', folders: host.workspaceFolderCount(), language: host.language }));
    next.onNotification('rolloutLint/slowRun', (p: { uri: string; ms: number }) => {
      status.reportSlowRun(p.uri, p.ms);
      log.info(say(host.language, 'log.slow', { file: host.relativePath(p.uri), ms: p.ms }));
    });
  } catch (error) {
    status.setState('failed');
    log.error(say(host.language, 'log.startFailed', { message: (error as Error).message }));
  }
}

async function stopClient(): Promise<void> {
  const current = client;
  client = undefined;
  if (current?.isRunning()) await current.stop();
  else await current?.dispose();
}

/**
 * Starts the language server (IPC), registers the commands of `commands/`, the language status item
 * and the log channel. Returns the extension's exports (command modules may add to them).
 */
export async function activate(context: vscode.ExtensionContext): Promise<Record<string, unknown>> {
  const host = createHost(context);
  const log = createLogChannel(CLIENT_NAME);
  const status = new LanguageStatus(host, DIAGNOSTIC_SOURCE, showOutput.id);
  const exports: Record<string, unknown> = {};
  const restartServer = async () => {
    await stopClient();
    status.setState('starting');
    await startClient(context, host, log, status);
  };
  const commandContext: CommandContext = {
    host,
    log,
    exports,
    restartServer,
    server: () => {
      const running = client?.isRunning() ? client : undefined;
      return running && { sendRequest: <R>(method: string, params: unknown) => running.sendRequest<R>(method, params), sendNotification: (method, params) => running.sendNotification(method, params) };
    },
  };
  track(context, log, status, ...COMMANDS.flatMap((c) => c.activate?.(commandContext) ?? []));
  track(context, ...COMMANDS.map((c) => host.registerCommand(c.id, (...args) => c.run(commandContext, ...args))));
  track(context, host.onDidGrantTrust(() => void restartServer()));
  // when to lint and which server to run are fixed when the client starts: a change restarts it
  track(context, host.onDidChangeSetting('rolloutLint.run', () => void restartServer()), host.onDidChangeSetting('rolloutLint.server.path', () => void restartServer()));
  await startClient(context, host, log, status);
  return exports;
}

export function deactivate(): Promise<void> {
  return stopClient();
}
