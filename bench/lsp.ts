/**
 * A minimal LSP client over stdio for the benchmarks: spawns a server, answers its requests
 * (`workspace/configuration` with nulls, registrations and progress with null), and resolves when a
 * `textDocument/publishDiagnostics` for a given URI (and version, when the server sends one) arrives.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';

interface Published {
  uri: string;
  version?: number;
  diagnostics: unknown[];
}

/** A running language server and the connection to it. */
export class LspSession {
  readonly child: ChildProcess;
  readonly connection: MessageConnection;
  private waiters: { uri: string; version?: number; resolve: (p: Published) => void }[] = [];
  private versions = new Map<string, number>();

  constructor(command: string, args: string[], cwd: string) {
    this.child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    this.connection = createMessageConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.connection.onRequest((method: string, params: unknown) => {
      if (method === 'workspace/configuration') return ((params as { items: unknown[] }).items ?? []).map(() => null);
      return null;
    });
    this.connection.onNotification('textDocument/publishDiagnostics', (p: Published) => {
      this.waiters = this.waiters.filter((w) => {
        if (w.uri !== p.uri || (w.version !== undefined && p.version !== undefined && p.version < w.version)) return true;
        w.resolve(p);
        return false;
      });
    });
    this.connection.onNotification(() => undefined);
    this.connection.listen();
  }

  /** `initialize` + `initialized` with `rootDir` as the only workspace folder. */
  async initialize(rootDir: string): Promise<void> {
    const rootUri = pathToFileURL(rootDir).href;
    await this.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'bench' }],
      capabilities: { workspace: { configuration: true, workspaceFolders: true }, textDocument: { publishDiagnostics: { versionSupport: true }, synchronization: { dynamicRegistration: false } } },
    });
    await this.connection.sendNotification('initialized', {});
  }

  /** The next diagnostics published for `uri` (at `version` or later when given); rejects after 30 s. */
  diagnostics(uri: string, version?: number): Promise<Published> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} version ${version ?? 'any'} within 30 s`)), 30_000);
      this.waiters.push({ uri, version, resolve: (p) => (clearTimeout(timer), resolve(p)) });
    });
  }

  /** Opens a file from disk; resolves with its first diagnostics. */
  open(absPath: string, languageId: string, text = readFileSync(absPath, 'utf8')): Promise<Published> {
    const uri = pathToFileURL(absPath).href;
    this.versions.set(uri, 1);
    const published = this.diagnostics(uri);
    void this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    return published;
  }

  /** Replaces the whole text (full sync); resolves with the diagnostics for the new version. */
  change(absPath: string, text: string): Promise<Published> {
    const uri = pathToFileURL(absPath).href;
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    const published = this.diagnostics(uri, version);
    void this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
    return published;
  }

  /**
   * How long the server's main thread keeps a request waiting while `during` runs: a request no
   * handler takes (JSON-RPC answers "method not found" as soon as the event loop reads it) is sent
   * every `everyMs` ms, and the round trips are returned (ms). A long one means the main thread was
   * busy (indexing, a lint on the main thread) for about that long.
   */
  async roundTrips(during: Promise<unknown>, everyMs = 20): Promise<number[]> {
    const trips: number[] = [];
    let done = false;
    void during.finally(() => (done = true));
    while (!done) {
      const t = performance.now();
      await this.connection.sendRequest('rolloutLintBench/echo').catch(() => undefined);
      trips.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, everyMs));
    }
    return trips;
  }

  /** Resident set size now, MiB (Linux `/proc/<pid>/status` VmRSS). */
  rssMiB(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
  }

  /** `shutdown` + `exit`, then kills the process if it is still there after a second. */
  async close(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 1000))]);
      await this.connection.sendNotification('exit');
    } catch {
      // the server may already be gone
    }
    setTimeout(() => this.child.kill(), 1000).unref();
    this.connection.dispose();
  }
}
