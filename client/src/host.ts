import * as vscode from 'vscode';
import type { ActiveDocument, Disposable, Host, LogChannel, StatusItem } from './types';
import { DOCUMENT_SELECTOR } from './options';

/**
 * The one module that calls `vscode`: everything else in the client goes through the `Host` it
 * returns, so it can be unit-tested with a fake.
 */
export function createHost(context: vscode.ExtensionContext): Host {
  return {
    language: vscode.env.language,
    testMode: context.extensionMode === vscode.ExtensionMode.Test,
    isTrusted: () => vscode.workspace.isTrusted,
    onDidGrantTrust: (listener) => vscode.workspace.onDidGrantWorkspaceTrust(listener),
    registerCommand: (id, run) => vscode.commands.registerCommand(id, run),
    executeCommand: <T>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args),
    activeDocument: (): ActiveDocument | undefined => {
      const document = vscode.window.activeTextEditor?.document;
      return document ? { uri: document.uri.toString(), version: document.version, languageId: document.languageId } : undefined;
    },
    countDiagnostics: (source) => vscode.languages.getDiagnostics().reduce((n, [, list]) => n + list.filter((d) => d.source === source).length, 0),
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
  };
}

/** The log channel; it is also the language client's output channel. */
export function createLogChannel(name: string): vscode.LogOutputChannel & LogChannel {
  return vscode.window.createOutputChannel(name, { log: true });
}

/** Adapts `vscode.Disposable`s for `ExtensionContext.subscriptions`. */
export function track(context: vscode.ExtensionContext, ...items: Disposable[]): void {
  context.subscriptions.push(...items.map((d) => ({ dispose: () => void d.dispose() })));
}
