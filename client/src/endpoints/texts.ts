import { localize } from '../l10n';

/**
 * What the Rollout Endpoints view shows, in English (`{name}` placeholders). As for every client text,
 * the English text is the key of the l10n bundles (`l10n/bundle.l10n.json`, `l10n/bundle.l10n.zh-cn.json`);
 * a test keeps them in step. The inline actions are named by their command titles (`package.nls*.json`).
 */
const EN = {
  'row.from': 'value from {file}:{line}',
  'detail.baseUrl': 'base URL {key}: {url}',
  'detail.consumer': 'client: {consumer} ({via})',
  'detail.consumerOnly': 'client: {consumer}',
  'detail.readers': 'read by: {clients}',
  'detail.call': 'request decided by {call}(…)',
  'detail.assumed': 'request assumed: no call in sight, the client default',
  'detail.noRequest': 'no request: {reason}',
  'detail.consumerUnknown': 'client: unknown (nothing visible reads this value)',
  'detail.key': 'key: {source}',
  'detail.noKey': 'key: none visible',
  'detail.model': 'model: {model}',
  'detail.noModel': 'model: not set here',
  'detail.logprobs.requested': 'log probs: requested by every request site in this file',
  'detail.logprobs.missing': 'log probs: a request site in this file does not ask for them',
  'detail.logprobs.unknown': 'log probs: no request site in this file',
  'detail.logprobs.notAsked': 'log probs: not asked for here; no rollout in sight, so nothing is reported',
  'tooltip.logprobs.notAsked': 'A chatbot or an evaluation needs no log probs. If a request in this file samples an RL rollout, it needs logprobs=True (top_logprobs also returns alternatives per token): hover the call for the action that adds it.',
  'detail.verified': 'last connection test ({time}): {url} answered',
  'detail.verifiedFix': 'last connection test ({time}): use {working} instead',
  'detail.notTested': 'not tested yet: use "Test This Endpoint"',
  'empty.none': 'No endpoint found in the workspace.',
  'empty.noServer': 'The Rollout Lint server is not running.',
  'command.goToDefinition': 'Go to Definition',
  // The client kinds of `EndpointViewRow.consumer` (server `ConsumerId`), short enough for a row's description.
  'consumer.openai-sdk': 'openai SDK',
  'consumer.openai-responses': 'Responses API',
  'consumer.anthropic': 'Anthropic',
  'consumer.v1-appending': 'appends /v1',
  'consumer.raw': 'as written',
  'consumer.sglang-native': 'SGLang native API',
  'consumer.unknown': 'unknown client',
  'tooltip.finding': '{severity}: {message}',
  'severity.error': 'error',
  'severity.warning': 'warning',
  'severity.info': 'info',
  'severity.hint': 'hint',
} as const;

/** The id of one text of the view. */
export type ViewTextId = keyof typeof EN;

/** The view's text for `id` in the UI `language` (`vscode.env.language`), through the l10n bundle of that language. */
export function viewText(language: string, id: ViewTextId, data: Record<string, string | number> = {}): string {
  return localize(language, EN[id], data);
}

/** The text of `<group>.<value>` (`consumer.openai-sdk`, `severity.error`); a value the view does not know is shown as is. */
function kindText(language: string, group: 'consumer' | 'severity', value: string): string {
  const id = `${group}.${value}`;
  return Object.prototype.hasOwnProperty.call(EN, id) ? viewText(language, id as ViewTextId) : value;
}

/** A client kind (`openai-sdk`, `v1-appending`: the server's consumer id) as the view names it. */
export function consumerText(language: string, consumer: string): string {
  return kindText(language, 'consumer', consumer);
}

/** A finding's severity (`error`, `warning`, `hint`) in the UI language. */
export function severityText(language: string, severity: string): string {
  return kindText(language, 'severity', severity);
}

/** Every English text of the view (keys the l10n bundles must hold), for the bundle test. */
export function endpointViewMessages(): string[] {
  return [...new Set(Object.values(EN))];
}
