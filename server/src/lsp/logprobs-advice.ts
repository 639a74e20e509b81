import type { CodeAction, CodeActionParams, Hover, WorkspaceEdit } from 'vscode-languageserver';
import { CodeActionKind, CodeActionTriggerKind, MarkupKind } from 'vscode-languageserver';
import type { Locale } from '../core/messages/locale';
import type { RequestSite } from '../core/model/types';
import { needsSwitch } from '../core/rules/logprobs-missing';
import { enableLogprobs, logprobsKey, logprobsOn, logprobsState, parameterText, rolloutReason } from '../core/rules/requests';
import type { DocumentLint } from './lint-service';
import { code, say } from './messages';

/**
 * Kind of the "ask for log probs" action: a rewrite the user asks for (Refactor… / Quick Fix menu),
 * never a diagnostic's fix — a chat call outside rollout code is usually a chatbot or an eval, which
 * needs no log probs (test/corpus/false-positives), so nothing is reported on it (issue 25 item 4).
 */
export const LOGPROBS_ACTION_KIND = `${CodeActionKind.RefactorRewrite}.rollout-lint.logprobs`;

/** Request rules whose finding on a site already says what the advice would. */
const REQUEST_RULE = /^(top-)?logprobs-/;

/**
 * The chat and completions request sites of a lint that do not ask for log probs while no rule says
 * so: not rollout code (DESIGN "Rollout requests": no rollout glob, function, class or read), not an
 * evaluation/judge call, no `logprobs` written at all (an explicit `False` is the author's choice),
 * no log-prob finding on the site. Empty when the engine did not run.
 */
export function unflaggedRequestSites(lint: Pick<DocumentLint, 'outcome' | 'config'>): RequestSite[] {
  const outcome = lint.outcome;
  if (!outcome) return [];
  const text = outcome.document.text;
  return outcome.extraction.requestSites.filter(
    (site) =>
      (site.apiKind === 'chat' || site.apiKind === 'completions')
      && !site.auxiliaryReason
      && logprobsState(site.params[logprobsKey(site)]) === 'absent'
      && needsSwitch(site, text)
      && !rolloutReason(site, outcome.document, lint.config.config)
      && !outcome.findings.some((f) => REQUEST_RULE.test(f.ruleId) && f.range.start >= site.range.start && f.range.end <= site.range.end),
  );
}

/** The callee of a call site (`client.chat.completions.create`), else the site's anchor: where the advice hovers. Core offsets. */
function calleeRange(site: RequestSite): { start: number; end: number } {
  return site.style === 'kwarg' ? { start: site.range.start, end: site.anchorRange.end } : site.anchorRange;
}

/** The parameter the fix writes (`logprobs=True`, `"logprobs": True`, `logprobs=1` for legacy completions). */
function switchText(site: RequestSite, text: string): string {
  return parameterText(site, text, logprobsKey(site), logprobsOn(site));
}

/**
 * Hover on the callee of an unflagged request site (`unflaggedRequestSites`, core `offset`): what a
 * rollout would need from this call and why nothing is reported. `undefined` elsewhere.
 */
export function logprobsAdviceHover(lint: DocumentLint, offset: number, locale: Locale): Hover | undefined {
  const site = unflaggedRequestSites(lint).find((s) => offset >= calleeRange(s).start && offset <= calleeRange(s).end);
  if (!site) return undefined;
  const text = lint.outcome!.document.text;
  const fix = switchText(site, text);
  const value = [
    `**Rollout Lint** · ${say(locale, site.apiKind === 'completions' ? 'advice.titleCompletions' : 'advice.titleChat')}`,
    say(locale, 'advice.why'),
    say(locale, 'advice.rollout', { fix: code(fix) }),
    say(locale, 'advice.action', { action: say(locale, 'advice.actionTitle', { fix }) }),
  ].join('\n\n');
  return { contents: { kind: MarkupKind.Markdown, value }, range: lint.doc.range(calleeRange(site)) };
}

/**
 * The "Ask for log probs for a rollout: add logprobs=True" action for each unflagged request site the
 * requested range touches. Offered only when the user asks (`triggerKind` Invoked, or a client that
 * does not say), never for the automatic lightbulb request, and only when `only` admits refactors.
 */
export function logprobsAdviceActions(params: CodeActionParams, lint: DocumentLint, locale: Locale, edit: (edits: ReturnType<DocumentLint['doc']['edit']>[]) => WorkspaceEdit): CodeAction[] {
  if (params.context.triggerKind === CodeActionTriggerKind.Automatic) return [];
  const only = params.context.only;
  if (only?.length && !only.some((o) => LOGPROBS_ACTION_KIND === o || LOGPROBS_ACTION_KIND.startsWith(`${o}.`))) return [];
  const start = lint.doc.coreOffset(params.range.start);
  const end = lint.doc.coreOffset(params.range.end);
  const text = lint.outcome?.document.text ?? '';
  const actions: CodeAction[] = [];
  for (const site of unflaggedRequestSites(lint)) {
    if (end < site.range.start || start > site.range.end) continue;
    const change = enableLogprobs(site, text);
    if (!change) continue;
    actions.push({ title: say(locale, 'advice.actionTitle', { fix: switchText(site, text) }), kind: LOGPROBS_ACTION_KIND, edit: edit([lint.doc.edit(change)]) });
  }
  return actions;
}
