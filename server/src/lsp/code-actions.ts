import type { CodeAction, CodeActionParams, Diagnostic, TextEdit as LspTextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { CodeActionKind } from 'vscode-languageserver';
import type { Grammars } from '../core/formats/treesitter';
import type { Locale } from '../core/messages/locale';
import { DIAGNOSTIC_SOURCE, diagnosticData } from './convert';
import { disableLineEdit, hasLineComments, rcDisableEdits, rcFileFor } from './disable';
import { safeFixAllEdits } from './fix-all';
import { logprobsAdviceActions } from './logprobs-advice';
import type { DocumentLint } from './lint-service';
import { say } from './messages';
import { pathToUri } from './workspace';

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
 */
export function codeActions(params: CodeActionParams, lint: DocumentLint, deps: CodeActionDeps): CodeAction[] {
  const only = params.context.only;
  const uri = params.textDocument.uri;
  const actions: CodeAction[] = [];
  const format = lint.outcome?.document.format;
  if (kindWanted(CodeActionKind.QuickFix, only)) {
    const perRule = new Set<string>();
    const perLine = new Set<string>();
    for (const diagnostic of params.context.diagnostics) {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE || typeof diagnostic.code !== 'string') continue;
      const ruleId = diagnostic.code;
      actions.push(...quickFixes(diagnostic, lint, uri, deps));
      if (!perRule.has(ruleId)) {
        perRule.add(ruleId);
        const fixable = lint.findings.filter((f) => f.ruleId === ruleId && f.fixes.some((x) => x.safety === 'safe')).length;
        const edits = fixable > 1 ? safeFixAllEdits(lint, deps.grammars, deps.locale, (f) => f.ruleId === ruleId) : undefined;
        if (edits) actions.push({ title: say(deps.locale, 'action.fixAllRule', { ruleId }), kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit: documentEdit(uri, lint.version, edits, deps) });
      }
      const lineKey = `${ruleId}:${diagnostic.range.start.line}`;
      if (format && !perLine.has(lineKey) && ruleId !== 'skipped-file') {
        perLine.add(lineKey);
        const disable = hasLineComments(format) ? lineDisable(diagnostic, ruleId, lint, uri, deps) : rcDisable(diagnostic, ruleId, lint, deps);
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
  return data.fixes.map((fix, i) => ({
    title: fix.safety === 'safe' ? fix.title : say(deps.locale, 'action.unsafe', { title: fix.title }),
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    isPreferred: i === 0 && fix.safety === 'safe',
    edit: documentEdit(uri, lint.version, fix.edits, deps),
  }));
}

function lineDisable(diagnostic: Diagnostic, ruleId: string, lint: DocumentLint, uri: string, deps: CodeActionDeps): CodeAction {
  const edit = disableLineEdit(lint.doc, lint.outcome!.document.format, diagnostic.range.start.line, ruleId);
  return { title: say(deps.locale, 'action.disableLine', { ruleId }), kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit: documentEdit(uri, lint.version, [edit], deps) };
}

function rcDisable(diagnostic: Diagnostic, ruleId: string, lint: DocumentLint, deps: CodeActionDeps): CodeAction | undefined {
  const root = lint.location.root;
  if (!root) return undefined;
  const path = rcFileFor(lint.config.rcFile, root);
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
