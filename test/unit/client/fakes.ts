import type { CommandContext, Host, InputOptions, Memento, MessageKind, PickItem, SecretStore, ServerConnection, StatusItem, TextRange, TreeSource, TreeView } from '../../../client/src/types';

/** A `Memento` over a Map (`data` is inspectable). */
export function fakeMemento(initial: Record<string, unknown> = {}): Memento & { data: Map<string, unknown> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    get: <T>(key: string) => data.get(key) as T | undefined,
    update: async (key: string, value: unknown) => void (value === undefined ? data.delete(key) : data.set(key, value)),
  };
}

/** A `SecretStore` over a Map. */
export function fakeSecrets(initial: Record<string, string> = {}): SecretStore & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    get: async (key) => data.get(key),
    store: async (key, value) => void data.set(key, value),
    delete: async (key) => void data.delete(key),
  };
}

/** What the fake host was asked to show or do. */
export interface HostRecord {
  messages: { kind: MessageKind; message: string; modal: boolean; detail?: string; items: string[] }[];
  inputs: InputOptions[];
  picks: PickItem<unknown>[][];
  progress: string[];
  shown: { uri: string; offset: number }[];
  /** Read-only documents shown (`showReadOnly`). */
  untitled: { name: string; content: string; language: string }[];
  edits: { uri: string; range: TextRange; expected: string; text: string }[];
  items: StatusItem[];
  fetches: string[];
  trees: (TreeView & { source: TreeSource; refreshes: number })[];
  /** User settings written (`setUserSetting`). */
  settings: Record<string, unknown>;
}

export interface FakeHostOptions {
  language?: string;
  trusted?: boolean;
  testMode?: boolean;
  env?: Record<string, string | undefined>;
  /** Answers notifications and modals (default: dismissed). */
  answer?: (kind: MessageKind, message: string, items: string[], modal: boolean) => string | undefined;
  /** Answers input boxes in order (default: dismissed). */
  inputs?: (string | undefined)[];
  /** Chooses from a quick pick (default: dismissed). */
  pick?: (items: PickItem<unknown>[]) => PickItem<unknown> | undefined;
  active?: Host['activeDocument'];
  /** Whether `replaceText` finds the expected text (default true). */
  editable?: boolean;
  /** Replaces the real `fetch` (default: the global one, recorded). */
  fetch?: typeof fetch;
  secrets?: Record<string, string>;
  /** Open documents by URI, for `readText` (default: none open). */
  documents?: Record<string, { text: string; version: number }>;
}

/** A complete fake `Host` that records what client modules ask of VS Code. */
export function fakeHost(options: FakeHostOptions = {}): Host & { record: HostRecord; globalState: ReturnType<typeof fakeMemento>; workspaceState: ReturnType<typeof fakeMemento>; secrets: ReturnType<typeof fakeSecrets> } {
  const record: HostRecord = { messages: [], inputs: [], picks: [], progress: [], shown: [], untitled: [], edits: [], items: [], fetches: [], settings: {}, trees: [] };
  const inputs = [...(options.inputs ?? [])];
  const realFetch = options.fetch ?? ((input: string | URL | Request, init?: RequestInit) => fetch(input, init));
  return {
    record,
    language: options.language ?? 'en',
    testMode: options.testMode ?? false,
    isTrusted: () => options.trusted ?? true,
    onDidGrantTrust: () => ({ dispose() {} }),
    onDidChangeSetting: () => ({ dispose() {} }),
    getSetting: <T>(section: string) => record.settings[section] as T | undefined,
    registerCommand: () => ({ dispose() {} }),
    executeCommand: async <T>() => undefined as T | undefined,
    activeDocument: options.active ?? (() => undefined),
    countDiagnostics: () => ({ errors: 0, warnings: 0 }),
    onDidChangeDiagnostics: () => ({ dispose() {} }),
    createStatusItem() {
      const item: StatusItem = { text: '', severity: 'information', busy: false, command: undefined, dispose() {} };
      record.items.push(item);
      return item;
    },
    showWarning: (message) => void record.messages.push({ kind: 'warning', message, modal: false, items: [] }),
    showMessage: async (kind, message, opts, ...items) => {
      record.messages.push({ kind, message, modal: !!opts.modal, detail: opts.detail, items });
      return options.answer?.(kind, message, items, !!opts.modal);
    },
    showInputBox: async (opts) => {
      record.inputs.push(opts);
      const value = inputs.shift();
      return value !== undefined && opts.validate?.(value) ? undefined : value;
    },
    showQuickPick: async <T>(pending: PickItem<T>[] | Thenable<PickItem<T>[]>) => {
      const items = await pending;
      record.picks.push(items as PickItem<unknown>[]);
      return options.pick?.(items as PickItem<unknown>[]) as PickItem<T> | undefined;
    },
    withProgress: async (title, task) => {
      record.progress.push(title);
      return task(new AbortController().signal);
    },
    showDocument: async (uri, offset) => void record.shown.push({ uri, offset }),
    showReadOnly: async (name, content, language) => void record.untitled.push({ name, content, language }),
    relativePath: (uri) => uri.replace(/^file:\/\/\/w\//, '').split('/').slice(-3).join('/'),
    version: '0.1.0',
    workspaceFolderCount: () => 1,
    getUserSetting: <T>(section: string) => record.settings[section] as T | undefined,
    setUserSetting: async (section, value) => void (record.settings[section] = value),
    replaceText: async (uri, range, expected, text) => {
      record.edits.push({ uri, range, expected, text });
      return options.editable ?? true;
    },
    readText: async (uri, range, version) => {
      const document = options.documents?.[uri];
      if (!document || document.version !== version) return undefined;
      const lines = document.text.split(/\r?\n|\r/);
      const offset = (p: TextRange['start']) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
      return document.text.replace(/\r\n?/g, '\n').slice(offset(range.start), offset(range.end));
    },
    secrets: fakeSecrets(options.secrets),
    globalState: fakeMemento(),
    workspaceState: fakeMemento(),
    environment: () => options.env ?? {},
    fetch: (input, init) => {
      record.fetches.push(String(input));
      return realFetch(input, init);
    },
    proxyConfig: () => ({ proxy: '', noProxy: [], support: 'override' }),
    createTreeView: (_id, source) => {
      const view = { source, refreshes: 0, visible: true, refresh: () => void view.refreshes++, onDidChangeVisibility: () => ({ dispose() {} }), dispose() {} };
      record.trees.push(view);
      return view;
    },
  };
}

/** A fake language client connection answering requests with `answers[method]`; records everything. */
export function fakeServer(answers: Record<string, (params: unknown) => unknown> = {}): ServerConnection & { requests: [string, unknown][]; notifications: [string, unknown][] } {
  const requests: [string, unknown][] = [];
  const notifications: [string, unknown][] = [];
  return {
    requests,
    notifications,
    sendRequest: async <R>(method: string, params: unknown) => {
      requests.push([method, params]);
      return (answers[method]?.(params) ?? null) as R;
    },
    sendNotification: async (method, params) => void notifications.push([method, params]),
  };
}

/** A command context over a fake host and server, with the log lines kept. */
export function fakeContext(host: Host, server?: ServerConnection): CommandContext & { logs: string[]; shownLog: number } {
  const ctx = {
    logs: [] as string[],
    shownLog: 0,
    host,
    exports: {} as Record<string, unknown>,
    log: {
      info: (m: string) => void ctx.logs.push(m),
      warn: (m: string) => void ctx.logs.push(m),
      error: (m: string | Error) => void ctx.logs.push(String(m)),
      show: () => void ctx.shownLog++,
    },
    server: () => server,
    restartServer: async () => undefined,
  };
  return ctx;
}
