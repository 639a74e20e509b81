import type { CodeLens, Range as LspRange } from 'vscode-languageserver';
import { redactUrlCredentials } from '../core/redact';
import { RequestType } from 'vscode-languageserver';
import type { Locale } from '../core/messages/locale';
import type { Setting } from '../core/model/types';
import type { ResolvedBaseUrl } from '../core/resolve/resolve';
import type { DocumentLint } from './lint-service';
import { say } from './messages';
import { pairedKey } from '../core/model/pairing';
import { BUILTIN_PROVIDERS } from '../core/providers/profiles';

/** The client command a "Test connection" lens runs; arguments `[{uri, offset}]` (see `TestConnectionArgs`). */
export const TEST_CONNECTION_COMMAND = 'rolloutLint.testConnection';

/** Arguments of the test-connection command: the document and the UTF-16 offset of the base URL value in the client's text. */
export interface TestConnectionArgs {
  uri: string;
  offset: number;
}

/** What `rolloutLint/endpointAt` answers: the base URL setting at an offset and what travels with it. */
export interface EndpointInfo {
  /** The key as written (`OPENAI_BASE_URL`, `base_url`, `baseUrl`). */
  key: string;
  /**
   * The value, trimmed, as the document's readers see it, with URL credentials masked
   * (`user:****@`, `?api_key=****`: `redactUrlCredentials`) so no key crosses the connection; the
   * client reads the unmasked value from its own document at `contentRange` of `version`.
   */
  baseUrl: string;
  /** The document version `range` and `contentRange` refer to. */
  version: number;
  range: LspRange;
  /** The value without its quotes (what a fix of the base URL replaces). */
  contentRange: LspRange;
  consumers: { id: string; via: string; appendedPath?: string }[];
  /** Effective chat request URL per consumer. */
  requests: { consumer: string; url: string }[];
  /** Ids of the provider profiles the URL matches, best first. */
  providers: string[];
  /**
   * Where the API key that pairs with this base URL (`pairedKey`: same block, same variable family)
   * is written, never its value: the client reads `range` of its own document at `version` (issue 13
   * item 8: no key crosses the LSP connection). Absent when no key pairs, or when the characters of
   * the document are not the key verbatim (an escape in it): the client then has no block key.
   */
  apiKey?: PairedKeyLocation;
  /** The model named in the same block, if any. */
  model?: string;
}

/** Where the paired API key's value is in the client's text. */
export interface PairedKeyLocation {
  /** The key's setting name (`OPENAI_API_KEY`, `api_key`, `apiKey`). */
  key: string;
  /** The characters that are exactly the key's value (no quotes, no surrounding whitespace). */
  range: LspRange;
  /** The document version `range` refers to; on another version the range means nothing. */
  version: number;
}

/** `rolloutLint/endpointAt`: params `TestConnectionArgs`, result `EndpointInfo | null`. */
export const EndpointAtRequest = new RequestType<TestConnectionArgs, EndpointInfo | null, void>('rolloutLint/endpointAt');

/** The base URLs of a lint whose value is a literal URL (the ones a connection can be tested for). */
export function literalBaseUrls(lint: Pick<DocumentLint, 'outcome'>): ResolvedBaseUrl[] {
  return lint.outcome?.resolution.baseUrls.filter((b) => b.parsed !== undefined) ?? [];
}

/** One "Test connection" lens above each literal base URL setting. */
export function codeLenses(lint: DocumentLint, locale: Locale, command: string): CodeLens[] {
  return literalBaseUrls(lint).map(({ setting }) => ({
    range: lint.doc.range(setting.keyRange),
    command: {
      title: say(locale, 'lens.testConnection'),
      command,
      arguments: [{ uri: lint.uri, offset: lint.doc.clientOffset(setting.valueRange.start) } satisfies TestConnectionArgs],
    },
  }));
}

/** The base URL setting whose key or value holds `clientOffset`, with its block's key and model. */
export function endpointAt(lint: DocumentLint, clientOffset: number): EndpointInfo | null {
  const offset = clientOffset - lint.doc.bomShift;
  const found = literalBaseUrls(lint).find(({ setting: s }) => (offset >= s.keyRange.start && offset <= s.keyRange.end) || (offset >= s.valueRange.start && offset <= s.valueRange.end));
  if (!found) return null;
  const { setting } = found;
  const sameGroup = lint.outcome!.resolution.settings.filter((s) => s.group === setting.group && s.value !== undefined);
  const key = pairedKey(setting, lint.outcome!.resolution.settings, BUILTIN_PROVIDERS);
  const model = sameGroup.find((s) => s.role === 'model');
  return {
    key: setting.key,
    baseUrl: redactUrlCredentials(setting.value!.trim()),
    version: lint.version,
    range: lint.doc.range(setting.valueRange),
    contentRange: lint.doc.range(setting.contentRange),
    consumers: found.consumers.map((c) => ({ id: c.id, via: c.via, appendedPath: c.appendedPath })),
    requests: found.requests.map((r) => ({ consumer: r.consumer.id, url: redactUrlCredentials(r.url) })),
    providers: found.providers.map((p) => p.id),
    apiKey: key ? keyLocation(lint, key) : undefined,
    model: model?.value,
  };
}

/** The range of `setting`'s decoded value among its written characters, when they hold it verbatim. */
function keyLocation(lint: DocumentLint, setting: Setting): PairedKeyLocation | undefined {
  const { value, contentRange } = setting;
  if (!value) return undefined;
  const at = lint.doc.coreText.slice(contentRange.start, contentRange.end).indexOf(value);
  if (at < 0) return undefined;
  const start = contentRange.start + at;
  return { key: setting.key, range: lint.doc.range({ start, end: start + value.length }), version: lint.version };
}
