import type { ConsumerId } from '../model/types';

/** The parts of a base URL that rules reason about. `path` never includes the query. */
export interface ParsedBaseUrl {
  scheme: string;
  host: string;
  port: string;
  /** Path as written (percent-encoding kept), `''` when absent. */
  path: string;
  /** Query without the leading `?`, `undefined` when there is no `?`. */
  query: string | undefined;
  hash: string | undefined;
}

/**
 * Splits an absolute `scheme://host[:port]/path?query#hash` URL as written (no normalisation, so a
 * doubled slash or `/v1/v1` stays visible). Returns `undefined` for anything without a scheme and
 * host, or that WHATWG `URL` rejects.
 */
export function parseBaseUrl(value: string): ParsedBaseUrl | undefined {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value.trim());
  if (!m) return undefined;
  try {
    new URL(value.trim());
  } catch {
    return undefined;
  }
  const authority = m[2].replace(/^[^@]*@/, '');
  const hostPort = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(authority);
  return {
    scheme: m[1].toLowerCase(),
    host: (hostPort?.[1] ?? authority).toLowerCase(),
    port: hostPort?.[2] ?? '',
    path: m[3],
    query: m[4],
    hash: m[5],
  };
}

/**
 * Joins an SDK-relative path onto a base URL the way the OpenAI and Anthropic SDKs do.
 * openai-node v6 `buildURL`: `baseURL + (baseURL.endsWith('/') && path.startsWith('/') ? path.slice(1) : path)`;
 * openai-python (`_enforce_trailing_slash` then `merge_url`): base raw path + `/` if missing, then the
 * relative path without its leading `/`. Both give one `/` at the seam for a base with at most one
 * trailing slash; a query in the base ends up before the path, as both SDKs do with plain concatenation.
 */
export function sdkJoin(base: string, path: string): string {
  return base + (base.endsWith('/') && path.startsWith('/') ? path.slice(1) : path);
}

/** Paths each SDK-style consumer appends for a chat request (DESIGN "Consumers"). */
export const CONSUMER_CHAT_PATH: Partial<Record<ConsumerId, string>> = {
  'openai-sdk': '/chat/completions',
  'openai-responses': '/responses',
  anthropic: '/v1/messages',
  'sglang-native': '/generate',
};

/**
 * The URL a consumer will request for a chat call on `base`:
 * SDK consumers join with `sdkJoin`; code that appends a literal path (`v1-appending`, `raw` with
 * `appendedPath`) concatenates naively, exactly as an f-string does; `raw` without a path uses the URL as written.
 */
export function effectiveRequestUrl(base: string, consumer: ConsumerId, appendedPath?: string): string {
  if (appendedPath !== undefined) return base + appendedPath;
  const path = CONSUMER_CHAT_PATH[consumer];
  return path === undefined ? base : sdkJoin(base, path);
}

/** True for hosts that only make sense as a bind address: `0.0.0.0`, `::`, `[::]`. */
export function isBindAllHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/**
 * Rebuilds `value` (the URL `parsed` came from) with its path replaced by `newPath`, keeping the
 * scheme, authority, query and fragment exactly as written.
 */
export function withPath(value: string, parsed: ParsedBaseUrl, newPath: string): string {
  const v = value.trim();
  const tail = (parsed.query !== undefined ? parsed.query.length + 1 : 0) + (parsed.hash !== undefined ? parsed.hash.length + 1 : 0);
  const pathStart = v.length - tail - parsed.path.length;
  return v.slice(0, pathStart) + newPath + v.slice(pathStart + parsed.path.length);
}
