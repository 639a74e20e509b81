import type { CodeAction, CodeActionParams, Diagnostic, TextEdit as LspTextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { CodeActionKind } from 'vscode-languageserver';
import type { Grammars } from '../core/formats/treesitter';
import type { Locale } from '../core/messages/locale';
import { DIAGNOSTIC_SOURCE, diagnosticData, toDiagnostic } from './convert';
import { disableLineEdit, hasLineComments, rcDisableEdits, rcFileFor } from './disable';
import { safeFixAllEdits } from './fix-all';
import { provenLint, type DocumentLint } from './lint-service';
import { logprobsAdviceActions } from './logprobs-advice';
import { say } from './messages';
import { pathToUri } from './workspace';
import { writeRefusal } from '../node/write-guard';

/** `source.fixAll.rollout-lint`: safe fixes only, for `editor.codeActionsOnSave`. */
export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.rollout-lint`;

/** Commands the server executes (`workspace/executeCommand`). */
export const SERVER_COMMANDS = {
  /** Arguments: `[{uri: string}]`. Applies every safe fix to the open document through `workspace/applyEdit`. */
  fixAll: 'rolloutLint.server.fixAll',
  /** Arguments: `[ruleId: string]`. Opens the rule's docs page with `window/showDocument` (external). */
  showDocumentation: 'rolloutLint.server.showDocumentation',
} as const;

/** What the code action builder needs besides the request. */
export interface CodeActionDeps {
  grammars: Grammars;
  locale: Locale;
  /** The client applies `documentChanges` (versioned edits). */
  documentChanges: boolean;
  /** The client can create files in a workspace edit. */
  createFiles: boolean;
  /** The client shows `CodeAction.disabled` (LSP 3.16 `codeAction.disabledSupport`) with its reason. */
  disabledActions?: boolean;
  /** Current text and version of a file: the open document's, else the disk's; `undefined` when absent. */
  readFile(path: string): { text: string; version: number | null } | undefined;
}

/** True when an action of `kind` is wanted under `only` (LSP kinds are dot-separated hierarchies). */
export function kindWanted(kind: string, only: readonly string[] | undefined): boolean {
  return !only || only.length === 0 || only.some((o) => kind === o || kind.startsWith(`${o}.`));
}

function documentEdit(uri: string, version: number | null, edits: LspTextEdit[], deps: CodeActionDeps): WorkspaceEdit {
  return deps.documentChanges ? { documentChanges: [{ textDocument: { uri, version }, edits }] } : { changes: { [uri]: edits } };
}

/**
 * Code actions for one request, from the lint of the document's current version:
 * per diagnostic its fixes (the first safe one `isPreferred`; fixes are taken from `Diagnostic.data`
 * only when it belongs to the current version), "Fix all <id> problems in this file" (safe fixes, when
 * two or more findings of the rule have one), "Disable <id> for this line" (a directive comment; for
 * JSON, `rules.<id>: "off"` in `.rolloutlintrc.json`) and "Show documentation for <id>"; and a
 * `source.fixAll.rollout-lint` action with every safe fix; and, when the user asks, the rewrite that
 * adds `logprobs=True` to a request no rule flags (`logprobsAdviceActions`).
 * No action edits a file that is a symbolic link out of its work tree (`writeRefusal`, issue 29 item 5,
 * as `--fix` and fix-all): its quick fixes and line disables come back `disabled` with the reason when
 * the client shows that, else are left out.
 */
export function codeActions(params: CodeActionParams, lint: DocumentLint, deps: CodeActionDeps): CodeAction[] {
  const only = params.context.only;
  // Fixes are proven here, on demand, not for the diagnostics (issue 27 item 4): only when an action may offer one.
  const ours = params.context.diagnostics.some((d) => d.source === DIAGNOSTIC_SOURCE);
  if ((ours && kindWanted(CodeActionKind.QuickFix, only)) || (kindWanted(FIX_ALL_KIND, only) && only?.length)) lint = provenLint(lint, deps.grammars);
  const uri = params.textDocument.uri;
  const actions: CodeAction[] = [];
  const format = lint.outcome?.document.format;
  const refused = lint.location.absPath !== undefined && writeRefusal(lint.location.absPath) !== undefined;
  /** `action` unchanged when the document may be written; else disabled with the reason, or `undefined`. */
  const guarded = (action: CodeAction): CodeAction | undefined => {
    if (!refused) return action;
    if (!deps.disabledActions) return undefined;
    const { edit: _edit, isPreferred: _preferred, ...rest } = action;
    return { ...rest, disabled: { reason: say(deps.locale, 'action.notWritten', { file: lint.location.relPath }) } };
  };
  if (kindWanted(CodeActionKind.QuickFix, only)) {
    const perRule = new Set<string>();
    const perLine = new Set<string>();
    for (const diagnostic of params.context.diagnostics) {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE || typeof diagnostic.code !== 'string') continue;
      const ruleId = diagnostic.code;
      for (const fix of quickFixes(diagnostic, lint, uri, deps)) {
        const action = guarded(fix);
        if (action) actions.push(action);
      }
      if (!perRule.has(ruleId)) {
        perRule.add(ruleId);
        const fixable = lint.findings.filter((f) => f.ruleId === ruleId && f.fixes.some((x) => x.safety === 'safe')).length;
        const edits = fixable > 1 ? safeFixAllEdits(lint, deps.grammars, deps.locale, (f) => f.ruleId === ruleId) : undefined;
        if (edits) actions.push({ title: say(deps.locale, 'action.fixAllRule', { ruleId }), kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit: documentEdit(uri, lint.version, edits, deps) });
      }
      const lineKey = `${ruleId}:${diagnostic.range.start.line}`;
      if (format && !perLine.has(lineKey) && ruleId !== 'skipped-file') {
        perLine.add(lineKey);
        const disable = hasLineComments(format) ? guarded(lineDisable(diagnostic, ruleId, lint, uri, deps)) : rcDisable(diagnostic, ruleId, lint, deps);
        if (disable) actions.push(disable);
      }
    }
    for (const ruleId of perRule) {
      actions.push({ title: say(deps.locale, 'action.showDocs', { ruleId }), kind: CodeActionKind.QuickFix, command: { title: say(deps.locale, 'action.showDocs', { ruleId }), command: SERVER_COMMANDS.showDocumentation, arguments: [ruleId] } });
    }
  }
  if (kindWanted(FIX_ALL_KIND, only) && only?.length) {
    const edits = safeFixAllEdits(lint, deps.grammars, deps.locale);
    if (edits) actions.push({ title: say(deps.locale, 'action.fixAllSafe'), kind: FIX_ALL_KIND, edit: documentEdit(uri, lint.version, edits, deps) });
  }
  actions.push(...logprobsAdviceActions(params, lint, deps.locale, (edits) => documentEdit(uri, lint.version, edits, deps)));
  return actions;
}

function quickFixes(diagnostic: Diagnostic, lint: DocumentLint, uri: string, deps: CodeActionDeps): CodeAction[] {
  const data = diagnosticData(diagnostic);
  if (!data || data.version !== lint.version) return [];
  // Published before its fixes were proven: take them from the proven lint's finding (same rule, message and range).
  const proven = data.unproven ? lint.findings.find((f) => f.ruleId === diagnostic.code && f.message === diagnostic.message && sameRange(lint.doc.range(f.range), diagnostic.range)) : undefined;
  const fixes = proven ? diagnosticData(toDiagnostic(proven, lint.doc, lint.version, true))!.fixes : data.fixes;
  return fixes.map((fix, i) => ({
    title: fix.safety === 'safe' ? fix.title : say(deps.locale, 'action.unsafe', { title: fix.title }),
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    isPreferred: i === 0 && fix.safety === 'safe',
    edit: documentEdit(uri, lint.version, fix.edits, deps),
  }));
}

function sameRange(a: Diagnostic['range'], b: Diagnostic['range']): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}

function lineDisable(diagnostic: Diagnostic, ruleId: string, lint: DocumentLint, uri: string, deps: CodeActionDeps): CodeAction {
  const edit = disableLineEdit(lint.doc, lint.outcome!.document.format, diagnostic.range.start.line, ruleId);
  return { title: say(deps.locale, 'action.disableLine', { ruleId }), kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit: documentEdit(uri, lint.version, [edit], deps) };
}

function rcDisable(diagnostic: Diagnostic, ruleId: string, lint: DocumentLint, deps: CodeActionDeps): CodeAction | undefined {
  const root = lint.location.root;
  if (!root) return undefined;
  const path = rcFileFor(lint.config.rcFile, root);
  if (writeRefusal(path)) return undefined;
  const current = deps.readFile(path);
  if (!current && !(deps.createFiles && deps.documentChanges)) return undefined;
  let planned: ReturnType<typeof rcDisableEdits>;
  try {
    planned = rcDisableEdits(current?.text, ruleId);
  } catch {
    return undefined;
  }
  const uri = pathToUri(path);
  const edit: WorkspaceEdit = planned.create
    ? { documentChanges: [{ kind: 'create', uri, options: { ignoreIfExists: true } }, { textDocument: { uri, version: null }, edits: planned.edits }] }
    : documentEdit(uri, current?.version ?? null, planned.edits, deps);
  return { title: say(deps.locale, 'action.disableInConfig', { ruleId }), kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit };
}
