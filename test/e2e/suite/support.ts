import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

/** Tests tagged with this run only in the pass where VS Code runs with `--locale zh-cn`. */
export const ZH_TAG = '@zh-cn';

/** The extension under test: found by manifest name, so a publisher change does not break the suite. */
export function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.all.find((e) => e.packageJSON?.name === 'rollout-lint');
  assert.ok(ext, 'the rollout-lint extension is not installed in this VS Code');
  return ext;
}

/** Command ids the manifest contributes (`contributes.commands`). */
export function contributedCommands(): string[] {
  const commands = extension().packageJSON?.contributes?.commands ?? [];
  return commands.map((c: { command: string }) => c.command);
}

/** The (single) workspace folder: a copy of test/e2e/workspace made by the harness. */
export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder is open');
  return folder.uri;
}

export function fileUri(relPath: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceRoot(), ...relPath.split('/'));
}

export function isOpen(uri: vscode.Uri): boolean {
  return vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
}

/** `line:col [code] severity message` (1-based), for assertion messages. */
export function describeDiagnostics(diagnostics: readonly vscode.Diagnostic[]): string {
  if (diagnostics.length === 0) return '(none)';
  return diagnostics
    .map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1} [${codeOf(d)}] ${vscode.DiagnosticSeverity[d.severity]} ${d.message}`)
    .join('\n    ');
}

/** The rule id of a diagnostic (`code` may be a string or `{value, target}`). */
export function codeOf(d: vscode.Diagnostic): string | undefined {
  const code = d.code;
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}

/** Ours only: `source === "rollout-lint"`. */
export function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'rollout-lint');
}

/**
 * Resolves when `predicate` holds for our diagnostics of `uri`, re-checking on every
 * `onDidChangeDiagnostics` for it; rejects after `timeoutMs` with what is there.
 */
export function waitForDiagnostics(
  uri: vscode.Uri,
  predicate: (diagnostics: vscode.Diagnostic[]) => boolean,
  what: string,
  timeoutMs = 30000,
): Promise<vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const diagnostics = ours(uri);
      if (!predicate(diagnostics)) return false;
      cleanup();
      resolve(diagnostics);
      return true;
    };
    const subscription = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString())) check();
    });
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what} in ${vscode.workspace.asRelativePath(uri)}; have:\n    ${describeDiagnostics(ours(uri))}`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      subscription.dispose();
    };
    check();
  });
}

/** Resolves when `probe()` returns a value other than `undefined`, re-checking every 100 ms. */
export async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 30000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The file's text read through the file system, without opening a document (no didOpen). */
export async function readText(uri: vscode.Uri): Promise<string> {
  return Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
}

/** The range of the `occurrence`-th (0-based) appearance of `needle` in `text` (LF or CRLF, no BOM). */
export function rangeInText(text: string, needle: string, occurrence = 0): vscode.Range {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    assert.ok(at >= 0, `"${needle}" (occurrence ${occurrence}) not found`);
  }
  const position = (offset: number) => {
    const before = text.slice(0, offset);
    const line = before.split('\n').length - 1;
    return new vscode.Position(line, offset - (before.lastIndexOf('\n') + 1));
  };
  return new vscode.Range(position(at), position(at + needle.length));
}

export function formatRange(r: vscode.Range): string {
  return `${r.start.line + 1}:${r.start.character + 1}-${r.end.line + 1}:${r.end.character + 1}`;
}

/** Finds our diagnostic with `code` whose range equals `range`, or fails listing what is there. */
export function findDiagnostic(diagnostics: readonly vscode.Diagnostic[], code: string, range?: vscode.Range): vscode.Diagnostic {
  const found = diagnostics.find((d) => codeOf(d) === code && (!range || d.range.isEqual(range)));
  assert.ok(found, `no [${code}]${range ? ` at ${formatRange(range)}` : ''}; have:\n    ${describeDiagnostics(diagnostics)}`);
  return found;
}

/** Writes `text` to a workspace file (creating folders) through the workspace file system. */
export async function writeFile(relPath: string, text: string): Promise<vscode.Uri> {
  const uri = fileUri(relPath);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  return uri;
}

/** Reasons for skipped tests or suites by full title, printed by the reporter (mocha's `skip()` carries none). */
export const skipReasons = new Map<string, string>();

/** Skips the running test (or, from a `before` hook, its suite) with a reason the reporter prints. */
export function skipBecause(context: Mocha.Context, reason: string): never {
  // In a hook, `context.test` is the hook itself (and `currentTest` the suite's first test).
  const runnable = context.test;
  const owner = runnable && (runnable as Mocha.Runnable & { type?: string }).type === 'hook' ? runnable.parent : runnable;
  if (owner) skipReasons.set(owner.fullTitle(), reason);
  context.skip();
  throw new Error('unreachable');
}

/** The reason recorded for `test` or the nearest enclosing suite. */
export function skipReasonOf(test: Mocha.Runnable): string | undefined {
  for (let node: Mocha.Runnable | Mocha.Suite | undefined = test; node; node = node.parent) {
    const reason = skipReasons.get(node.fullTitle());
    if (reason) return reason;
  }
  return undefined;
}
