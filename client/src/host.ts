import * as vscode from 'vscode';
import type { ActiveDocument, Disposable, Host, LogChannel, PickItem, StatusItem, TextRange, TreeNode, TreeSource, TreeView } from './types';
import { DOCUMENT_SELECTOR } from './options';

/**
 * The one module that calls `vscode`: everything else in the client goes through the `Host` it
 * returns, so it can be unit-tested with a fake.
 */
export function createHost(context: vscode.ExtensionContext): Host {
  const reports = new ReadOnlyDocuments();
  context.subscriptions.push(reports, vscode.workspace.registerTextDocumentContentProvider(ReadOnlyDocuments.scheme, reports));
  return {
    language: vscode.env.language,
    testMode: context.extensionMode === vscode.ExtensionMode.Test,
    isTrusted: () => vscode.workspace.isTrusted,
    onDidGrantTrust: (listener) => vscode.workspace.onDidGrantWorkspaceTrust(listener),
    onDidChangeSetting: (section, listener) => vscode.workspace.onDidChangeConfiguration((e) => (e.affectsConfiguration(section) ? listener() : undefined)),
    getSetting: <T>(section: string) => {
      const dot = section.lastIndexOf('.');
      return vscode.workspace.getConfiguration(section.slice(0, dot)).get<T>(section.slice(dot + 1));
    },
    registerCommand: (id, run) => vscode.commands.registerCommand(id, run),
    executeCommand: <T>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args),
    activeDocument: (): ActiveDocument | undefined => {
      const editor = vscode.window.activeTextEditor;
      const document = editor?.document;
      return document ? { uri: document.uri.toString(), version: document.version, languageId: document.languageId, offset: document.offsetAt(editor.selection.active), linted: vscode.languages.match(DOCUMENT_SELECTOR, document) > 0 } : undefined;
    },
    countDiagnostics: (source) => {
      const counts = { errors: 0, warnings: 0 };
      for (const [, list] of vscode.languages.getDiagnostics()) {
        for (const d of list) {
          if (d.source !== source) continue;
          if (d.severity === vscode.DiagnosticSeverity.Error) counts.errors++;
          else if (d.severity === vscode.DiagnosticSeverity.Warning) counts.warnings++;
        }
      }
      return counts;
    },
    onDidChangeDiagnostics: (listener) => vscode.languages.onDidChangeDiagnostics(() => listener()),
    createStatusItem: (id, name): StatusItem => {
      const item = vscode.languages.createLanguageStatusItem(id, DOCUMENT_SELECTOR);
      item.name = name;
      return {
        get text() {
          return item.text;
        },
        set text(value) {
          item.text = value;
        },
        get detail() {
          return item.detail;
        },
        set detail(value) {
          item.detail = value;
        },
        get severity() {
          return item.severity === vscode.LanguageStatusSeverity.Error ? 'error' : item.severity === vscode.LanguageStatusSeverity.Warning ? 'warning' : 'information';
        },
        set severity(value) {
          item.severity = value === 'error' ? vscode.LanguageStatusSeverity.Error : value === 'warning' ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
        },
        get busy() {
          return item.busy;
        },
        set busy(value) {
          item.busy = value;
        },
        get command() {
          return item.command ? { title: item.command.title, command: item.command.command } : undefined;
        },
        set command(value) {
          item.command = value;
        },
        dispose: () => item.dispose(),
      };
    },
    showWarning: (message) => void vscode.window.showWarningMessage(message),
    showMessage: (kind, message, options, ...items) => {
      const show = kind === 'error' ? vscode.window.showErrorMessage : kind === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
      return show(message, options, ...items);
    },
    showInputBox: (options) =>
      vscode.window.showInputBox({ title: options.title, prompt: options.prompt, value: options.value, password: options.password, ignoreFocusOut: true, validateInput: options.validate }),
    showQuickPick: (items, options) => pickWithoutPreselection(items, options),
    withProgress: (title, task) =>
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) => {
        const controller = new AbortController();
        const subscription = token.onCancellationRequested(() => controller.abort());
        return task(controller.signal).finally(() => subscription.dispose());
      }),
    showDocument: async (uri, offset) => {
      const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
      const position = document.positionAt(offset);
      await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position), preview: false });
    },
    showReadOnly: async (name, content, language) => {
      const uri = reports.set(name, content);
      const document = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(document.languageId === language ? document : await vscode.languages.setTextDocumentLanguage(document, language), { preview: true });
    },
    relativePath: (uri) => vscode.workspace.asRelativePath(vscode.Uri.parse(uri), false),
    version: String((context.extension.packageJSON as { version?: unknown }).version ?? ''),
    workspaceFolderCount: () => vscode.workspace.workspaceFolders?.length ?? 0,
    getUserSetting: <T>(section: string) => {
      const dot = section.lastIndexOf('.');
      return vscode.workspace.getConfiguration(section.slice(0, dot)).inspect<T>(section.slice(dot + 1))?.globalValue;
    },
    setUserSetting: (section, value) => {
      const dot = section.lastIndexOf('.');
      return vscode.workspace.getConfiguration(section.slice(0, dot)).update(section.slice(dot + 1), value, vscode.ConfigurationTarget.Global);
    },
    replaceText: async (uri, range, expected, text) => {
      const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
      const target = toRange(range);
      if (document.getText(target).trim() !== expected.trim()) return false;
      const edit = new vscode.WorkspaceEdit();
      edit.replace(document.uri, target, text);
      return vscode.workspace.applyEdit(edit);
    },
    readText: async (uri, range, version) => {
      const wanted = vscode.Uri.parse(uri).toString();
      const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === wanted);
      return document && document.version === version ? document.getText(toRange(range)) : undefined;
    },
    secrets: context.secrets,
    globalState: context.globalState,
    workspaceState: context.workspaceState,
    environment: () => process.env,
    fetch: (input, init) => globalThis.fetch(input, init),
    proxyConfig: () => {
      const http = vscode.workspace.getConfiguration('http');
      return { proxy: http.get<string>('proxy') ?? '', noProxy: http.get<string[]>('noProxy') ?? [], support: http.get<string>('proxySupport') ?? 'override' };
    },
    createTreeView,
  };
}

/**
 * `Host.showQuickPick` on `createQuickPick`: shown before its rows are known (busy meanwhile), and with
 * no active row (`activeItems = []` after every change of rows), so a stray Enter chooses nothing.
 */
function pickWithoutPreselection<T>(items: PickItem<T>[] | Thenable<PickItem<T>[]>, options: { title: string; placeHolder: string; loading?: string }): Promise<PickItem<T> | undefined> {
  type Row = vscode.QuickPickItem & { item: PickItem<T> };
  const pick = vscode.window.createQuickPick<Row>();
  Object.assign(pick, { title: options.title, placeholder: options.loading ?? options.placeHolder, matchOnDescription: true, matchOnDetail: true, busy: true, ignoreFocusOut: false });
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: PickItem<T> | undefined) => {
      if (done) return;
      done = true;
      resolve(value);
      pick.dispose();
    };
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
      if (chosen) finish(chosen.item);
    });
    pick.onDidHide(() => finish(undefined));
    pick.show();
    Promise.resolve(items).then(
      (list) => {
        if (done) return;
        pick.items = list.map((item) => ({ label: item.label, description: item.description, detail: item.detail, item }));
        pick.activeItems = [];
        pick.placeholder = options.placeHolder;
        pick.busy = false;
      },
      () => finish(undefined),
    );
  });
}

/** Read-only documents by name, served to VS Code as `rollout-lint-report:/<name>`. */
class ReadOnlyDocuments implements vscode.TextDocumentContentProvider {
  static readonly scheme = 'rollout-lint-report';
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** Stores `content` under `name` and returns its URI (telling VS Code when an open one changed). */
  set(name: string, content: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: ReadOnlyDocuments.scheme, path: `/${name}` });
    const known = this.contents.has(uri.path);
    this.contents.set(uri.path, content);
    if (known) this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.path) ?? '';
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function toRange(range: TextRange): vscode.Range {
  return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}

/** The log channel; it is also the language client's output channel. */
export function createLogChannel(name: string): vscode.LogOutputChannel & LogChannel {
  return vscode.window.createOutputChannel(name, { log: true });
}

/** Adapts `vscode.Disposable`s for `ExtensionContext.subscriptions`. */
export function track(context: vscode.ExtensionContext, ...items: Disposable[]): void {
  context.subscriptions.push(...items.map((d) => ({ dispose: () => void d.dispose() })));
}

/** A `vscode.TreeView` over a `TreeSource` (used by `Host.createTreeView`). */
function createTreeView(id: string, source: TreeSource): TreeView {
  const changed = new vscode.EventEmitter<TreeNode | undefined>();
  const provider: vscode.TreeDataProvider<TreeNode> = {
    onDidChangeTreeData: changed.event,
    getChildren: (node) => (node ? node.children ?? [] : source.roots()),
    getTreeItem: (node) => {
      const state = node.children?.length ? (node.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed) : vscode.TreeItemCollapsibleState.None;
      const item = new vscode.TreeItem(node.label, state);
      item.id = node.id;
      item.description = node.description;
      if (node.tooltip) item.tooltip = new vscode.MarkdownString(node.tooltip);
      if (node.icon) item.iconPath = new vscode.ThemeIcon(node.icon);
      item.contextValue = node.contextValue;
      if (node.command) item.command = node.command;
      return item;
    },
  };
  const view = vscode.window.createTreeView(id, { treeDataProvider: provider, showCollapseAll: true });
  return {
    refresh: () => changed.fire(undefined),
    get visible() {
      return view.visible;
    },
    onDidChangeVisibility: (listener) => view.onDidChangeVisibility(() => listener()),
    dispose: () => {
      view.dispose();
      changed.dispose();
    },
  };
}
