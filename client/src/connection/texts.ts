import { normalizeLocale, type Locale } from '../../../server/src/core/messages/locale';
import { localize } from '../l10n';

/**
 * What the client shows, in English (`{name}` placeholders). The English text is the key of the
 * l10n bundles (`l10n/bundle.l10n.json`, `l10n/bundle.l10n.zh-cn.json`; a test keeps them in step).
 */
const EN = {
  title: 'Test TaoToken Connection',
  untrusted: 'Test Connection sends requests over the network, which Rollout Lint never does in an untrusted workspace. Trust this workspace (Workspaces: Manage Workspace Trust) to test the connection.',
  progress: 'Rollout Lint: testing {url}',
  'pick.placeHolder': 'Pick the base URL to test; nothing is sent until you choose one',
  'pick.loading': 'Looking for the base URLs of this workspace…',
  'pick.none': 'No base URL found in this workspace',
  'pick.default': 'TaoToken (default)',
  'pick.defaultDetail': 'the base URL the openai SDK needs for TaoToken',
  'pick.detail': '{path}:{line} · {key}',
  'consent.message': 'Send the API key {masked} from {source} to {origin}?',
  'consent.detail': 'This key is not configured for {origin}. Rollout Lint sends a key only to the origin it was configured with, unless you allow it here.',
  'consent.once': 'Send once',
  'consent.always': 'Always for this origin',
  'consent.cancelled': 'Test Connection cancelled: the key was not sent to {origin}.',
  cancelled: 'Test Connection cancelled.',
  badUrl: 'Cannot test {url}: it is not an absolute http(s) URL.',
  failed: 'Test Connection failed: {message}',
  'button.applyFix': 'Apply Fix',
  'button.setApiKey': 'Set API Key',
  'button.showOutput': 'Show Output',
  'button.showReport': 'Show Report',
  'fix.applied': 'Replaced the base URL with {url}.',
  'fix.stale': 'The base URL changed since the test; the fix was not applied. Test the connection again.',
  'source.file': 'the same block of {file} ({key})',
  'source.stored': 'VS Code secret storage (Set API Key)',
  'source.env': 'the environment variable {name}',
  'source.envApproved': 'the environment variable {name} (approved for this origin)',
  'key.none': 'none sent',
  'key.hint': 'To send a key to {origin}, store one with "Rollout Lint: Set API Key".',
  'setKey.originTitle': 'Rollout Lint: Set API Key',
  'setKey.originPrompt': 'The base URL (or origin) the key is for; the key is sent only there',
  'setKey.originInvalid': 'Enter an absolute http:// or https:// URL',
  'setKey.keyPrompt': 'API key for {origin}: kept in VS Code secret storage; leave empty to remove the stored key',
  'setKey.stored': 'Stored the API key {masked} for {origin}.',
  'setKey.removed': 'Removed the stored API key for {origin}.',
  'reset.done': 'Connection approvals reset ({count} removed); Test Connection asks again before sending a key to another origin.',
  'report.verdict': 'Verdict',
  'report.also': 'also',
  'report.provider': 'Provider',
  'report.baseUrl': 'Base URL',
  'report.consumer': 'Consumer',
  'report.setting': 'Setting',
  'report.settingAt': '{key} in {path}, line {line}',
  'report.model': 'Model',
  'report.key': 'Key',
  'report.logprobs': 'Log probs',
  'report.testedAt': 'Tested at',
  'report.steps': 'Steps',
  'report.explanation': 'Explanation',
  'report.fix': 'Fix',
  'report.verified': 'verified',
  'report.unverified': 'not verified',
  'report.useConsumer': 'configure the client for {consumer}',
  'status.name': 'Rollout Lint connection',
  'status.again': 'Test again',
  'status.testedAt': 'tested at {time}',
  'lang.starting': 'starting…',
  'lang.stopped': 'stopped',
  'lang.failed': 'the server failed; see the log',
  'lang.slow': 'slow run: {file} took {ms} ms',
  'lang.showLog': 'Show log',
  'lang.detail': 'in this workspace; hints are not counted',
  'fixAll.noEditor': 'Fix All works on the file in the active editor; open a file first.',
  'fixAll.fixed': 'Fixed {fixed} problems in {file}.',
  'fixAll.fixedOne': 'Fixed 1 problem in {file}.',
  'fixAll.left': '{left} still need a decision: see their quick fixes.',
  'fixAll.leftOne': '1 still needs a decision: see its quick fixes.',
  'fixAll.nothing': 'Nothing in {file} can be fixed safely.',
  'fixAll.clean': 'No problems in {file}.',
  'fixAll.failed': 'Fix All failed: {message}',
  'log.started': 'Rollout Lint {version} started the language server ({server}); workspace folders: {folders}; UI language: {language}.',
  'log.startFailed': 'the Rollout Lint server did not start: {message}',
  'log.restarting': 'restarting the language server',
  'log.customServer': 'running the language server set in rolloutLint.server.path: {path}',
  'log.slow': 'slow file: {file} took {ms} ms to lint',
  'log.followUpFailed': 'connection test: {error}',
  'log.requestFailed': 'the server request {request} failed: {error}',
  'fixOnSave.done': 'Fix on save is on: saving applies the safe fixes.',
  'fixOnSave.already': 'Fix on save is already on ("editor.codeActionsOnSave" has "source.fixAll.rollout-lint").',
  'report.documentName': 'Rollout Lint connection report ({provider})',
  'report.noReport': 'No connection report yet: run "Rollout Lint: Test TaoToken Connection" first.',
} as const;

export type ConnectionTextId = keyof typeof EN;

/** The probe's message locale for a VS Code UI language (`zh-cn` → `zh-CN`, otherwise `en`). */
export function probeLocale(language: string): Locale {
  return normalizeLocale(language);
}

/** Renders one text in the UI language through the l10n bundle of that language. */
export function say(language: string, id: ConnectionTextId, data: Record<string, string | number> = {}): string {
  return localize(language, EN[id], data);
}

/** Every English client text (the keys `l10n/bundle.l10n.json` must hold), for the bundle test. */
export function clientMessages(): string[] {
  return [...new Set(Object.values(EN))];
}
