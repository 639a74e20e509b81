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
  /** The cursor as a UTF-16 offset into the document's text. */
  offset?: number;
  /** `false` when the document is not one the server sees (`DOCUMENT_SELECTOR`): nothing to ask it about. */
  linted?: boolean;
}

/** A zero-based line/character range (LSP and `vscode.Range` alike). */
export interface TextRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/** A key-value store: `ExtensionContext.globalState` or `workspaceState`. */
export interface Memento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** `ExtensionContext.secrets` (the OS keychain through VS Code). */
export interface SecretStore {
  get(key: string): Thenable<string | undefined>;
  store(key: string, value: string): Thenable<void>;
  delete(key: string): Thenable<void>;
}

/** VS Code's proxy settings (`http.proxy`, `http.noProxy`, `http.proxySupport`). */
export interface ProxyConfig {
  proxy: string;
  noProxy: readonly string[];
  support: string;
}

/** One quick pick row carrying a value. */
export interface PickItem<T> {
  label: string;
  description?: string;
  detail?: string;
  value: T;
}

export interface InputOptions {
  title: string;
  prompt: string;
  value?: string;
  /** Masks what is typed. */
  password?: boolean;
  /** Returns an error text for an invalid value, else undefined. */
  validate?(value: string): string | undefined;
}

export type MessageKind = 'info' | 'warning' | 'error';

/** What client modules need from VS Code. Implemented by `host.ts` over the real API. */
export interface Host {
  /** `vscode.env.language`, e.g. `en`, `zh-cn`. */
  readonly language: string;
  /** True when the extension runs in `ExtensionMode.Test` (test hooks may be exposed). */
  readonly testMode: boolean;
  isTrusted(): boolean;
  onDidGrantTrust(listener: () => void): Disposable;
  /** Fires when a setting under `section` (e.g. `rolloutLint.run`) changes. */
  onDidChangeSetting(section: string, listener: () => void): Disposable;
  /** A setting's effective value (workspace over user over default), e.g. `rolloutLint.run`. */
  getSetting<T>(section: string): T | undefined;
  registerCommand(id: string, run: (...args: unknown[]) => unknown): Disposable;
  executeCommand<T = unknown>(id: string, ...args: unknown[]): Thenable<T | undefined>;
  activeDocument(): ActiveDocument | undefined;
  /** Errors and warnings (hints and information not counted) in the workspace whose `source` is `source`. */
  countDiagnostics(source: string): { errors: number; warnings: number };
  onDidChangeDiagnostics(listener: () => void): Disposable;
  createStatusItem(id: string, name: string): StatusItem;
  showWarning(message: string): void;
  /** A notification (or, with `modal`, a dialog) with buttons; resolves to the chosen one, `undefined` when dismissed. */
  showMessage(kind: MessageKind, message: string, options: { modal?: boolean; detail?: string }, ...items: string[]): Thenable<string | undefined>;
  showInputBox(options: InputOptions): Thenable<string | undefined>;
  /**
   * A quick pick shown at once: while `items` is pending it is busy and shows `loading` as its
   * placeholder. No row is preselected, so Enter alone chooses nothing: a row must be picked with the
   * mouse, the arrow keys or by typing. Resolves to the chosen row, `undefined` when dismissed.
   */
  showQuickPick<T>(items: PickItem<T>[] | Thenable<PickItem<T>[]>, options: { title: string; placeHolder: string; loading?: string }): Thenable<PickItem<T> | undefined>;
  /** Runs `task` under a cancellable progress notification; Cancel aborts the signal. */
  withProgress<R>(title: string, task: (signal: AbortSignal) => Promise<R>): Thenable<R>;
  /** Opens `uri` in an editor with the cursor at `offset` (UTF-16). */
  showDocument(uri: string, offset: number): Thenable<void>;
  /**
   * Shows `content` as a read-only virtual document (scheme `rollout-lint-report`, language `language`)
   * titled `name`; showing the same name again replaces its content. Never asks to be saved.
   */
  showReadOnly(name: string, content: string, language: string): Thenable<void>;
  /** `uri` relative to its workspace folder (`configs/.env`), else its file name. */
  relativePath(uri: string): string;
  /** This extension's version (`package.json` `version`). */
  readonly version: string;
  /** How many workspace folders are open. */
  workspaceFolderCount(): number;
  /** A user (global) setting, e.g. `editor.codeActionsOnSave`. */
  getUserSetting<T>(section: string): T | undefined;
  /** Writes a user (global) setting. */
  setUserSetting(section: string, value: unknown): Thenable<void>;
  /**
   * Replaces `range` of the document `uri` with `text` through a WorkspaceEdit, only while the range
   * still holds `expected` (trimmed). Resolves to whether the edit was applied.
   */
  replaceText(uri: string, range: TextRange, expected: string, text: string): Thenable<boolean>;
  /**
   * The text of `range` in the document `uri`, only while the document is at `version` (LSP
   * versions: the open editor's `TextDocument.version`); `undefined` when it is not open at that version.
   */
  readText(uri: string, range: TextRange, version: number): Thenable<string | undefined>;
  readonly secrets: SecretStore;
  readonly globalState: Memento;
  readonly workspaceState: Memento;
  /** The extension host's environment variables (`process.env`), read when called. */
  environment(): Readonly<Record<string, string | undefined>>;
  /** The extension host's `fetch`: VS Code routes it through its proxy support (`http.proxySupport`). */
  readonly fetch: typeof fetch;
  proxyConfig(): ProxyConfig;
  /** Registers a tree view contributed in `package.json` (`contributes.views`) over `source`. */
  createTreeView(id: string, source: TreeSource): TreeView;
}

/** One row of a tree view; `children` makes it collapsible (expanded when `expanded`). */
export interface TreeNode {
  id: string;
  label: string;
  description?: string;
  /** Markdown. */
  tooltip?: string;
  /** A codicon id (`error`, `warning`, `pass`, `key`, `link-external`). */
  icon?: string;
  /** `viewItem` for `menus` `when` clauses. */
  contextValue?: string;
  /** Run on click. */
  command?: { command: string; title: string; arguments?: unknown[] };
  children?: TreeNode[];
  expanded?: boolean;
}

/** What a tree view shows: its top-level rows, asked again on `refresh`. */
export interface TreeSource {
  roots(): Promise<TreeNode[]>;
}

export interface TreeView extends Disposable {
  /** Asks the source for its rows again. */
  refresh(): void;
  /** True while the view is visible (refreshing a hidden view can wait). */
  readonly visible: boolean;
  onDidChangeVisibility(listener: () => void): Disposable;
}

/** The running language client, as commands use it. */
export interface ServerConnection {
  sendRequest<R>(method: string, params: unknown): Promise<R>;
  sendNotification(method: string, params: unknown): Promise<void>;
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
  /** Called once at activation, before any `run` (e.g. to add test hooks to `exports`). */
  activate?(context: CommandContext): Disposable | undefined;
  run(context: CommandContext, ...args: unknown[]): unknown;
}
