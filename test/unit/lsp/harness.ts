import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  ApplyWorkspaceEditRequest,
  ConfigurationRequest,
  DidChangeConfigurationNotification,
  DiagnosticRefreshRequest,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticRequest,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShowDocumentRequest,
  ShutdownRequest,
  WorkDoneProgressCreateRequest,
  type ApplyWorkspaceEditParams,
  type ClientCapabilities,
  type DocumentDiagnosticReport,
  type FileEvent,
  type InitializeResult,
  type PublishDiagnosticsParams,
  type Range,
  type ShowDocumentParams,
} from 'vscode-languageserver-protocol';

/** The bundled server the tests drive (built by `npm run build` / `node server/build.mjs`). */
export const SERVER_JS = join(__dirname, '..', '..', '..', 'server', 'dist', 'server.js');

export const FIXTURE_WORKSPACE = join(__dirname, '..', '..', 'fixtures', 'lsp', 'workspace');

export function fileUri(path: string): string {
  return pathToFileURL(path).href;
}

export interface StartOptions {
  /** Declare `textDocument.diagnostic` (pull) or not (push). */
  pull: boolean;
  /** Workspace folder (absolute path). */
  root?: string;
  initializationOptions?: Record<string, unknown>;
  /** The `rolloutLint` section answered to `workspace/configuration` (`null`: the client has no such section, as Neovim answers). */
  settings?: Record<string, unknown> | null;
  /** Leave out `workspace.configuration` (a client that cannot be asked). */
  noConfiguration?: boolean;
  /** Declare `codeAction.disabledSupport` (the client shows disabled actions with their reason). */
  disabledSupport?: boolean;
}

function capabilities(options: StartOptions): ClientCapabilities {
  return {
    textDocument: {
      synchronization: { dynamicRegistration: false },
      publishDiagnostics: { versionSupport: true, codeDescriptionSupport: true, dataSupport: true },
      ...(options.pull ? { diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } } : {}),
      codeAction: { isPreferredSupport: true, dataSupport: true, codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source', 'source.fixAll'] } }, ...(options.disabledSupport ? { disabledSupport: true } : {}) },
      hover: { contentFormat: ['markdown', 'plaintext'] },
      codeLens: {},
    },
    workspace: {
      configuration: !options.noConfiguration,
      didChangeConfiguration: { dynamicRegistration: true },
      didChangeWatchedFiles: { dynamicRegistration: true },
      workspaceEdit: { documentChanges: true, resourceOperations: ['create'] },
      workspaceFolders: true,
      ...(options.pull ? { diagnostics: { refreshSupport: true } } : {}),
    },
    window: { workDoneProgress: true, showDocument: { support: true } },
  };
}

type Waiter<T> = { match: (value: T) => boolean; resolve: (value: T) => void };

/** A minimal LSP client over the real server's stdio, recording what the server sends. */
export class TestClient {
  readonly published: PublishDiagnosticsParams[] = [];
  /** `$/progress` values by token, for tokens without a registered handler (work done progress). */
  readonly progress = new Map<string | number, unknown[]>();
  readonly applied: ApplyWorkspaceEditParams[] = [];
  readonly shown: ShowDocumentParams[] = [];
  readonly logs: string[] = [];
  refreshes = 0;
  settings: Record<string, unknown> | null;
  initializeResult!: InitializeResult;
  private readonly publishWaiters = new Set<Waiter<PublishDiagnosticsParams>>();
  private readonly refreshWaiters = new Set<() => void>();
  private readonly progressWaiters = new Set<Waiter<{ token: string | number; value: unknown }>>();
  private exited: Promise<number | null>;

  private constructor(
    readonly process: ChildProcessWithoutNullStreams,
    readonly connection: MessageConnection,
  ) {
    this.settings = {};
    this.exited = new Promise((resolve) => process.on('exit', (code) => resolve(code)));
  }

  static async start(options: StartOptions): Promise<TestClient> {
    if (!existsSync(SERVER_JS)) throw new Error(`${SERVER_JS} is missing: run "node server/build.mjs" first`);
    const child = spawn(process.execPath, [SERVER_JS, '--stdio'], { stdio: 'pipe' });
    child.stderr.on('data', () => undefined);
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const client = new TestClient(child, connection);
    client.settings = options.settings === undefined ? {} : options.settings;
    connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      client.published.push(p);
      for (const w of [...client.publishWaiters]) if (w.match(p)) (client.publishWaiters.delete(w), w.resolve(p));
    });
    connection.onNotification(LogMessageNotification.type, (p) => void client.logs.push(p.message));
    connection.onUnhandledProgress((p: { token: string | number; value: unknown }) => {
      const list = client.progress.get(p.token) ?? [];
      list.push(p.value);
      client.progress.set(p.token, list);
      for (const w of [...client.progressWaiters]) if (w.match(p)) (client.progressWaiters.delete(w), w.resolve(p));
    });
    connection.onRequest(ConfigurationRequest.type, (p) => p.items.map((i) => (i.section === 'rolloutLint' ? client.settings : null)));
    connection.onRequest(RegistrationRequest.type, () => undefined);
    connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
    connection.onRequest(DiagnosticRefreshRequest.type, () => {
      client.refreshes++;
      for (const w of [...client.refreshWaiters]) (client.refreshWaiters.delete(w), w());
    });
    connection.onRequest(ApplyWorkspaceEditRequest.type, (p) => {
      client.applied.push(p);
      return { applied: true };
    });
    connection.onRequest(ShowDocumentRequest.type, (p) => {
      client.shown.push(p);
      return { success: true };
    });
    connection.listen();
    const root = options.root;
    client.initializeResult = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: root ? fileUri(root) : null,
      workspaceFolders: root ? [{ uri: fileUri(root), name: 'ws' }] : null,
      capabilities: capabilities(options),
      initializationOptions: options.initializationOptions ?? {},
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  /** Resolves with the first publication (already received or coming) for `uri` that `match` accepts. */
  waitForPublish(uri: string, match: (p: PublishDiagnosticsParams) => boolean = () => true, since = 0): Promise<PublishDiagnosticsParams> {
    const seen = this.published.slice(since).find((p) => p.uri === uri && match(p));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.publishWaiters.add({ match: (p) => p.uri === uri && match(p), resolve }));
  }

  /** Resolves once the server has asked for `workspace/diagnostic/refresh` more than `count` times. */
  waitForRefresh(count: number): Promise<void> {
    if (this.refreshes > count) return Promise.resolve();
    return new Promise((resolve) => this.refreshWaiters.add(resolve));
  }

  waitForProgress(token: string | number, match: (value: unknown) => boolean): Promise<unknown> {
    const seen = (this.progress.get(token) ?? []).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.progressWaiters.add({ match: (p) => p.token === token && match(p.value), resolve: (p) => resolve(p.value) }));
  }

  async open(uri: string, languageId: string, text: string, version = 1): Promise<void> {
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version, text } });
  }

  async replace(uri: string, version: number, text: string): Promise<void> {
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
  }

  async close(uri: string): Promise<void> {
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** Changes what `workspace/configuration` answers and tells the server. */
  async changeSettings(settings: Record<string, unknown>): Promise<void> {
    this.settings = settings;
    await this.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
  }

  async watched(changes: FileEvent[]): Promise<void> {
    await this.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes });
  }

  pull(uri: string, previousResultId?: string): Promise<DocumentDiagnosticReport> {
    return this.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri }, previousResultId });
  }

  /** True while the server process runs. */
  get alive(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  async stop(): Promise<void> {
    if (this.alive) {
      try {
        await this.connection.sendRequest(ShutdownRequest.type);
        await this.connection.sendNotification(ExitNotification.type);
      } catch {
        /* the server is gone already */
      }
    }
    const timer = setTimeout(() => this.process.kill(), 5000);
    await this.exited;
    clearTimeout(timer);
    this.connection.dispose();
  }
}

/** Applies LSP text edits (positions in `text`'s line/UTF-16 space) to `text`. */
export function applyLspEdits(text: string, edits: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\r' && text[i + 1] === '\n') continue;
    if (text[i] === '\n' || text[i] === '\r') starts.push(i + 1);
  }
  const offset = (p: { line: number; character: number }) => (starts[p.line] ?? text.length) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

/** The characters of `text` in an LSP `range` (UTF-16 positions), as an editor's `TextDocument.getText(range)` gives them. */
export function textAt(text: string, range: Range): string {
  return TextDocument.create('untitled:x', 'plaintext', 1, text).getText(range);
}

/** Polls `probe` until it returns a value (the env index is built in the background); mocha's timeout is the watchdog. */
export async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
