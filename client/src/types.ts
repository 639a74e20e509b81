/**
 * The shapes client modules work with. Only `host.ts` imports `vscode` at run time; everything else
 * takes these interfaces, so commands and the status logic run in plain mocha with fakes.
 */

export interface Disposable {
  dispose(): unknown;
}

/** The log channel (`window.createOutputChannel(name, {log: true})`). */
export interface LogChannel {
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
  show(preserveFocus?: boolean): void;
}

/** A language status item (`languages.createLanguageStatusItem`). */
export interface StatusItem extends Disposable {
  text: string;
  detail?: string;
  severity: 'information' | 'warning' | 'error';
  busy: boolean;
  command: { title: string; command: string } | undefined;
}

/** The open document in the active editor, as the server knows it. */
export interface ActiveDocument {
  uri: string;
  version: number;
  languageId: string;
}

/** What client modules need from VS Code. Implemented by `host.ts` over the real API. */
export interface Host {
  /** `vscode.env.language`, e.g. `en`, `zh-cn`. */
  readonly language: string;
  /** True when the extension runs in `ExtensionMode.Test` (test hooks may be exposed). */
  readonly testMode: boolean;
  isTrusted(): boolean;
  onDidGrantTrust(listener: () => void): Disposable;
  registerCommand(id: string, run: (...args: unknown[]) => unknown): Disposable;
  executeCommand<T = unknown>(id: string, ...args: unknown[]): Thenable<T | undefined>;
  activeDocument(): ActiveDocument | undefined;
  /** Diagnostics in the workspace whose `source` is `source`. */
  countDiagnostics(source: string): number;
  onDidChangeDiagnostics(listener: () => void): Disposable;
  createStatusItem(id: string, name: string): StatusItem;
  showWarning(message: string): void;
}

/** The running language client, as commands use it. */
export interface ServerConnection {
  sendRequest<R>(method: string, params: unknown): Promise<R>;
}

/** What a command module receives when it runs. */
export interface CommandContext {
  host: Host;
  log: LogChannel;
  /** The language client while it runs, else `undefined`. */
  server(): ServerConnection | undefined;
  /** Stops and starts the language server. */
  restartServer(): Promise<void>;
  /** The object `activate()` returns; a command module may add to it (e.g. `testHooks` in test mode). */
  exports: Record<string, unknown>;
}

/** One command of the extension: a module in `commands/`, listed in `commands/index.ts`. */
export interface CommandModule {
  /** The command id; `package.json` `contributes.commands` lists the same ids (a test checks). */
  id: string;
  run(context: CommandContext, ...args: unknown[]): unknown;
}
