import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extension } from './support';

/** The consent modal's answers: "Send once", "Always for this origin", "Cancel". */
export type ConsentAnswer = 'once' | 'always' | 'cancel';

/** What the consent modal would have shown. */
export interface ConsentRequest {
  /** The origin the key would go to, e.g. `http://rollout-lint-e2e.test:4321`. */
  origin: string;
  /** The modal's text (never a full key). */
  message: string;
}

/**
 * The contract between this suite and the extension for Test Connection. The extension provides it
 * only in `ExtensionMode.Test`, as `testHooks` on the object `activate()` returns:
 * - `setHostOverrides({ 'rollout-lint-e2e.test': '127.0.0.1' })`: the probe's DNS lookup and
 *   connection use these addresses for these names (the Host header keeps the name), so a
 *   non-loopback name can reach the suite's scripted server; `{}` clears them.
 * - `setConsentHandler(fn)`: instead of the modal, the extension calls `fn` and acts on its answer;
 *   `undefined` restores the modal.
 * The command `rolloutLint.testConnection`, run with the arguments of the code lens on a base URL
 * (what a click does), resolves to the probe's `ProbeReport` (server/src/core/probe/types.ts), or to
 * `undefined` when the user cancels.
 */
export interface RolloutLintTestHooks {
  setHostOverrides(map: Record<string, string>): void;
  setConsentHandler(handler: ((request: ConsentRequest) => ConsentAnswer) | undefined): void;
}

/** The subset of `ProbeReport` the suite reads. */
export interface ProbeReportView {
  verdict: string;
  baseUrl: string;
  logprobsShape?: string;
  key: { sent: boolean; masked?: string };
  explanation: { en: string; 'zh-CN': string };
}

/** The hooks, or a failure that says what is missing. */
export function testHooks(): RolloutLintTestHooks {
  const ext = extension();
  const hooks = (ext.exports as { testHooks?: RolloutLintTestHooks } | undefined)?.testHooks;
  assert.ok(
    hooks && typeof hooks.setHostOverrides === 'function' && typeof hooks.setConsentHandler === 'function',
    'activate() must return { testHooks: { setHostOverrides, setConsentHandler } } in ExtensionMode.Test (see test/e2e/suite/hooks.ts)',
  );
  return hooks;
}

/** Runs the command of the code lens on `line` (0-based) of `uri`, as a click would. */
export async function runLensCommand(uri: vscode.Uri, line: number, command: string): Promise<ProbeReportView | undefined> {
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc);
  const deadline = Date.now() + 20000;
  for (;;) {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100);
    const lens = lenses?.find((l) => l.range.start.line === line && l.command?.command === command);
    if (lens?.command) return vscode.commands.executeCommand<ProbeReportView | undefined>(lens.command.command, ...(lens.command.arguments ?? []));
    if (Date.now() > deadline) {
      throw new Error(`no code lens running ${command} on line ${line + 1} of ${vscode.workspace.asRelativePath(uri)}; lenses: ${JSON.stringify(lenses?.map((l) => [l.range.start.line + 1, l.command?.command]))}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
