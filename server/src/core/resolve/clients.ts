import type { ConsumerId, Loader, Setting } from '../model/types';
import { CONSUMER_CHAT_PATH } from './urls';

/**
 * The real clients whose request URL Rollout Lint models, each checked by the conformance suite
 * (`test/conformance`, versions pinned in its lockfile) against a recording server on 127.0.0.1.
 */
export type RequestClient =
  | 'openai-node'
  | 'langchain-js'
  | 'anthropic-node'
  | 'openai-python'
  | 'anthropic-python'
  | 'claude-code'
  | 'codex'
  | 'openclaw'
  | 'requests'
  | 'httpx'
  | 'curl';

/** The URL a client sends: `url` as it goes on the wire, or `sent: false` when it sends nothing. */
export interface SentUrl {
  url: string;
  sent: boolean;
}

function whatwg(joined: string, reencodeQuery = false): SentUrl {
  try {
    const u = new URL(joined);
    u.hash = '';
    if (reencodeQuery && u.search) u.search = new URLSearchParams(u.search).toString();
    return { url: u.href, sent: true };
  } catch {
    return { url: joined, sent: false };
  }
}

/**
 * openai-node 7: the base's query is split off and put after the joined path
 * (`…/v1?x=1` → `…/v1/chat/completions?x=1`), a fragment stays in the string and so swallows the path.
 */
function openaiNodeJoin(base: string, path: string): SentUrl {
  const q = base.indexOf('?');
  const hash = base.indexOf('#');
  if (q === -1 || (hash !== -1 && hash < q)) return whatwg(sdkConcat(base, path));
  return whatwg(`${sdkConcat(base.slice(0, q), path)}?${base.slice(q + 1)}`);
}

/** One `/` at the seam (openai-node/anthropic-node `buildURL`). */
function sdkConcat(base: string, path: string): string {
  return base + (base.endsWith('/') && path.startsWith('/') ? path.slice(1) : path);
}

/**
 * openai-python / anthropic-python on httpx: `httpx.URL(base)` (leading whitespace makes it a relative
 * URL: nothing is sent), `_enforce_trailing_slash` on `raw_path` (path + query, the fragment is not part of
 * it), then `raw_path + path.lstrip("/")` (src/openai/_base_client.py).
 */
function stainlessPythonJoin(base: string, path: string): SentUrl {
  if (/^\s/.test(base)) return { url: base + path, sent: false };
  const noFragment = base.split('#')[0];
  const withSlash = noFragment.endsWith('/') ? noFragment : `${noFragment}/`;
  return whatwg(withSlash + path.replace(/^\/+/, ''));
}

/**
 * OpenClaw 2026.9 (trimmed base): `openai-completions` goes through openai-node 7 (`OpenAI/JS` user agent),
 * `openai-responses` re-serialises the query like the Anthropic SDK, and `anthropic-messages` (query kept as
 * written) first drops a
 * trailing `/v1` (`normalizeAnthropicBaseUrl`: `baseUrl.replace(/\/v1\/?$/, '')`, applied on each
 * normalisation pass, so `/v1/v1` loses both) before the Anthropic SDK appends `/v1/messages`.
 */
function openclawJoin(base: string, path: string): SentUrl {
  if (path === '/chat/completions') return openaiNodeJoin(base, path);
  if (path === '/v1/messages') {
    let b = base;
    for (let next = b.replace(/\/v1\/?$/, ''); next !== b; next = b.replace(/\/v1\/?$/, '')) b = next;
    return whatwg(sdkConcat(b, path));
  }
  return whatwg(sdkConcat(base, path), true);
}

/**
 * How each client reads and joins a base URL. `trims`: whether the value is trimmed before use (the SDK
 * env readers of openai-node and anthropic-node, Claude Code's settings `env`, OpenClaw; LangChain JS
 * reads `OPENAI_BASE_URL` itself without trimming; `os.environ.get` in openai-python does not trim).
 * `join(base, path)`: the URL sent for a request path. All recorded by the conformance suite.
 */
export const CLIENT_URL: Record<RequestClient, { trims: boolean; join: (base: string, path: string) => SentUrl }> = {
  'openai-node': { trims: true, join: openaiNodeJoin },
  'langchain-js': { trims: false, join: openaiNodeJoin },
  // anthropic-node 1.15 re-serialises the query with URLSearchParams (`/` → `%2F`).
  'anthropic-node': { trims: true, join: (b, p) => whatwg(sdkConcat(b, p), true) },
  // Claude Code sends `POST /v1/messages?beta=true` through the Anthropic SDK.
  'claude-code': { trims: true, join: (b, p) => whatwg(sdkConcat(b, p === '/v1/messages' ? '/v1/messages?beta=true' : p), true) },
  'openai-python': { trims: false, join: stainlessPythonJoin },
  'anthropic-python': { trims: false, join: stainlessPythonJoin },
  codex: { trims: false, join: (b, p) => whatwg(sdkConcat(b, p)) },
  openclaw: { trims: true, join: openclawJoin },
  // requests' `prepare_url` strips leading whitespace; spaces elsewhere, trailing ones too, are sent as %20; the fragment is not sent.
  requests: { trims: false, join: (b, p) => whatwg((b + p).replace(/^\s+/, '').replace(/ +$/, (m) => '%20'.repeat(m.length))) },
  // httpx: leading whitespace makes a relative URL, which it refuses to send.
  httpx: { trims: false, join: (b, p) => (/^\s/.test(b) ? { url: b + p, sent: false } : whatwg((b + p).replace(/ +$/, (m) => '%20'.repeat(m.length)))) },
  // curl rejects a URL with a space in it ("Malformed input to a URL function") and sends nothing.
  curl: { trims: false, join: (b, p) => (/\s/.test(b + p) ? { url: b + p, sent: false } : whatwg(b + p)) },
};

/** A client that reads a base URL, and the `.env` loader it reads it through (dotenv files only). */
export interface ClientReading {
  client: RequestClient;
  loader?: Loader;
}

/** The clients that may read a base-URL setting for one consumer. */
export function clientsOf(setting: Setting, consumer: ConsumerId, via: string): ClientReading[] {
  const envLike = setting.kind === 'env' || setting.kind === 'envDefault';
  const dotenv = setting.format === 'dotenv';
  const node = dotenv ? 'nodeDotenv' : undefined;
  const python = dotenv ? 'pythonDotenv' : undefined;
  if (setting.format === 'json' && /providers\./.test(setting.path)) return [{ client: 'openclaw' }];
  if (setting.format === 'json' && envLike && consumer === 'anthropic') return [{ client: 'claude-code' }];
  switch (consumer) {
    case 'openai-sdk':
    case 'openai-responses':
      if (setting.format === 'python' && !envLike) return [{ client: 'openai-python' }];
      return [{ client: 'openai-node', loader: node }, { client: 'langchain-js', loader: node }, { client: 'openai-python', loader: python }];
    case 'anthropic':
      if (setting.format === 'python' && !envLike) return [{ client: 'anthropic-python' }];
      return [{ client: 'anthropic-node', loader: node }, { client: 'anthropic-python', loader: python }];
    case 'raw':
    case 'v1-appending':
      if (setting.kind === 'flag' || setting.format === 'shell') return [{ client: 'curl' }];
      if (consumer === 'v1-appending') return [{ client: 'requests' }, { client: 'httpx' }];
      return [{ client: /httpx/.test(setting.callee ?? '') ? 'httpx' : 'requests' }];
    default:
      return [];
  }
}

/** The value a client receives: the loader's value for `.env` files, trimmed when the client trims. */
export function valueFor(setting: Setting, client: RequestClient, loader?: Loader): string | undefined {
  const raw = loader && setting.loaded ? setting.loaded[loader] : setting.value;
  if (raw === undefined || raw === null) return undefined;
  return CLIENT_URL[client].trims ? raw.trim() : raw;
}

/** The request path a consumer appends (`appendedPath` for code that concatenates), `''` for a raw URL. */
export function requestPath(consumer: ConsumerId, appendedPath?: string): string {
  return appendedPath ?? CONSUMER_CHAT_PATH[consumer] ?? '';
}

/** One client's view of a resolved base URL: the value it receives and what it sends. */
export interface ClientView extends ClientReading {
  /** The value the client receives (trimmed when it trims). */
  value: string;
  /** The request path its consumer appends. */
  path: string;
  url: string;
  sent: boolean;
}

/** Every modelled client of a resolved base URL with the value it reads and the URL it sends. */
export function clientViews(base: { setting: Setting; requests: readonly { consumer: { id: ConsumerId; appendedPath?: string }; url: string; sent: boolean; clients: readonly ClientReading[] }[] }): ClientView[] {
  const out: ClientView[] = [];
  for (const r of base.requests) {
    for (const reading of r.clients) {
      const value = valueFor(base.setting, reading.client, reading.loader);
      if (value !== undefined) out.push({ ...reading, value, path: requestPath(r.consumer.id, r.consumer.appendedPath), url: r.url, sent: r.sent });
    }
  }
  return out;
}
