import type { ConsumerId, Loader, Setting } from '../model/types';
import { CONSUMER_CHAT_PATH } from './urls';
import { allowsMajor, type ClientPin } from '../workspace/client-pins';

/**
 * The real clients whose request URL Rollout Lint models, each checked by the conformance suite
 * (`test/conformance`, versions pinned in its lockfile) against a recording server on 127.0.0.1.
 */
export type RequestClient =
  | 'openai-node'
  | 'langchain-js'
  | 'anthropic-node'
  | 'openai-python'
  | 'openai-python-2'
  | 'anthropic-python'
  | 'claude-code'
  | 'codex'
  | 'openclaw'
  | 'requests'
  | 'httpx'
  | 'curl';

/**
 * Why a client sends nothing: `leading-space` (httpx reads `"  http://…"` as a relative URL and raises
 * UnsupportedProtocol), `no-scheme` (no `http://`/`https://`: every client raises), `space-in-url` (curl
 * refuses a URL with a space), `invalid-url` (WHATWG `URL` rejects the joined URL).
 */
export type NoRequestReason = 'leading-space' | 'no-scheme' | 'space-in-url' | 'invalid-url';

/** The URL a client sends: `url` as it goes on the wire, or `sent: false` (with the reason) when it sends nothing. */
export interface SentUrl {
  url: string;
  sent: boolean;
  reason?: NoRequestReason;
}

function whatwg(joined: string, reencodeQuery = false): SentUrl {
  if (!/^\s*[a-z][a-z0-9+.-]*:\/\//i.test(joined)) return { url: joined, sent: false, reason: 'no-scheme' };
  try {
    const u = new URL(joined);
    u.hash = '';
    if (reencodeQuery && u.search) u.search = new URLSearchParams(u.search).toString();
    return { url: u.href, sent: true };
  } catch {
    return { url: joined, sent: false, reason: 'invalid-url' };
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
  if (/^\s/.test(base)) return { url: base + path, sent: false, reason: 'leading-space' };
  if (!/^https?:\/\//i.test(base)) return { url: base + path, sent: false, reason: 'no-scheme' };
  const noFragment = base.split('#')[0];
  const withSlash = noFragment.endsWith('/') ? noFragment : `${noFragment}/`;
  return whatwg(withSlash + path.replace(/^\/+/, ''));
}

/**
 * openai-python 3.x: as 2.x, except that `_enforce_trailing_slash` splits `raw_path` on `?` first
 * (`url.raw_path.partition(b"?")`, openai 3.22.1 src/openai/_base_client.py), so a base with a query gets its
 * slash before the `?` and the path after the query: `…/v1?utm_source=x` + `chat/completions` →
 * `…/v1/?utm_source=xchat/completions` (recorded by test/conformance with openai 3.22.1; 2.54.0 sends
 * `…/v1?utm_source=x/chat/completions`).
 */
function openaiPython3Join(base: string, path: string): SentUrl {
  const noFragment = base.split('#')[0];
  const q = noFragment.indexOf('?');
  if (q === -1 || /^\s/.test(base) || !/^https?:\/\//i.test(base)) return stainlessPythonJoin(base, path);
  const head = noFragment.slice(0, q);
  return whatwg(`${head.endsWith('/') ? head : `${head}/`}?${noFragment.slice(q + 1)}${path.replace(/^\/+/, '')}`);
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
  // openai-python 3.22 and 2.54, anthropic-python 1.13: `os.environ.get(...)` untrimmed; run by test/conformance.
  'openai-python': { trims: false, join: openaiPython3Join },
  'openai-python-2': { trims: false, join: stainlessPythonJoin },
  'anthropic-python': { trims: false, join: stainlessPythonJoin },
  codex: { trims: false, join: (b, p) => whatwg(sdkConcat(b, p)) },
  openclaw: { trims: true, join: openclawJoin },
  // requests' `prepare_url` strips leading whitespace; spaces elsewhere, trailing ones too, are sent as %20; the fragment is not sent.
  requests: { trims: false, join: (b, p) => whatwg((b + p).replace(/^\s+/, '').replace(/ +$/, (m) => '%20'.repeat(m.length))) },
  // httpx: leading whitespace makes a relative URL, which it refuses to send.
  httpx: { trims: false, join: (b, p) => (/^\s/.test(b) ? { url: b + p, sent: false, reason: 'leading-space' } : whatwg((b + p).replace(/ +$/, (m) => '%20'.repeat(m.length)))) },
  // curl rejects a URL with a space in it ("Malformed input to a URL function") and sends nothing.
  curl: { trims: false, join: (b, p) => (/\s/.test(b + p) ? { url: b + p, sent: false, reason: 'space-in-url' } : whatwg(b + p)) },
};

/** A client that reads a base URL, and the `.env` loader it reads it through (dotenv files only). */
export interface ClientReading {
  client: RequestClient;
  loader?: Loader;
  /** The project's pin of the client's package, as rows show it (`openai==2.54.0 in requirements.txt`). */
  pin?: string;
}

/** The package whose version a client's facts depend on, by registry. */
const PACKAGE_OF: Partial<Record<RequestClient, Pick<ClientPin, 'ecosystem' | 'name'>>> = {
  'openai-python': { ecosystem: 'pypi', name: 'openai' },
  'openai-python-2': { ecosystem: 'pypi', name: 'openai' },
  'anthropic-python': { ecosystem: 'pypi', name: 'anthropic' },
  'openai-node': { ecosystem: 'npm', name: 'openai' },
  'anthropic-node': { ecosystem: 'npm', name: '@anthropic-ai/sdk' },
  'langchain-js': { ecosystem: 'npm', name: '@langchain/openai' },
};

/**
 * The openai-python major each modelled client stands for: the conformance suite runs 3.22.1 and 2.54.0,
 * which join a base with a query differently (see `openaiPython3Join`). No other major is recorded.
 */
const OPENAI_PYTHON_MAJOR: Partial<Record<RequestClient, number>> = { 'openai-python': 3, 'openai-python-2': 2 };

/** `openai==2.54.0 in requirements.txt`, `openai 2.54.0 in uv.lock`, `openai@^7.59.0 in package.json`. */
function pinText(pin: ClientPin): string {
  const spec = pin.locked ? ` ${pin.spec}` : pin.ecosystem === 'npm' ? `@${pin.spec}` : pin.spec;
  return `${pin.name}${pin.spec ? spec : ''} in ${pin.file}`;
}

/**
 * `readings` as the project's pins decide:
 * - a project that pins client packages of one registry only (PyPI: `openai`, `anthropic`,
 *   `langchain-openai`; npm: `openai`, `@anthropic-ai/sdk`, `@langchain/openai`) has no SDK of the other
 *   installed: readings by the other registry's SDKs are dropped (a Python project's `.env` is not read by
 *   openai-node);
 * - where the openai pin allows only majors a recorded client stands for, the other openai-python client is
 *   dropped (`openai>=2,<3` keeps `openai-python 2.x` alone); a pin to a major nothing records (0.x, 1.x), or
 *   no pin, leaves both.
 * `native`: the registry of the document's own language (a Python file's reader is a Python client whatever
 * the manifests say), never dropped. Never drops every reading. Each reading whose package is pinned names the pin.
 */
export function pinnedReadings(readings: ClientReading[], pins: readonly ClientPin[], native?: ClientPin['ecosystem']): ClientReading[] {
  if (pins.length === 0) return readings;
  const pinOf = (client: RequestClient) => {
    const pkg = PACKAGE_OF[client];
    return pkg && pins.find((p) => p.ecosystem === pkg.ecosystem && p.name === pkg.name);
  };
  const registries = new Set(pins.map((p) => p.ecosystem));
  if (native) registries.add(native);
  const installed = registries.size === 1 ? readings.filter((r) => !PACKAGE_OF[r.client] || registries.has(PACKAGE_OF[r.client]!.ecosystem)) : readings;
  const inProject = installed.length > 0 ? installed : readings;
  const openai = pins.find((p) => p.ecosystem === 'pypi' && p.name === 'openai');
  const isOpenaiPython = (r: ClientReading) => OPENAI_PYTHON_MAJOR[r.client] !== undefined;
  const allowed = inProject.filter((r) => !isOpenaiPython(r) || allowsMajor(openai, OPENAI_PYTHON_MAJOR[r.client]!));
  const kept = allowed.some(isOpenaiPython) || !inProject.some(isOpenaiPython) ? allowed : inProject;
  return kept.map((r) => {
    const pin = pinOf(r.client);
    return pin ? { ...r, pin: pinText(pin) } : r;
  });
}

/** The clients that may read a base-URL setting for one consumer (`pins`: the project's, see `pinnedReadings`). */
export function clientsOf(setting: Setting, consumer: ConsumerId, via: string, pins: readonly ClientPin[] = []): ClientReading[] {
  const native = setting.format === 'python' || setting.format === 'notebook' ? 'pypi' : setting.format === 'javascript' ? 'npm' : undefined;
  return pinnedReadings(unpinnedClientsOf(setting, consumer, via), pins, native);
}

function unpinnedClientsOf(setting: Setting, consumer: ConsumerId, via: string): ClientReading[] {
  const envLike = setting.kind === 'env' || setting.kind === 'envDefault';
  const dotenv = setting.format === 'dotenv';
  const node = dotenv ? 'nodeDotenv' : undefined;
  const python = dotenv ? 'pythonDotenv' : undefined;
  if (setting.format === 'json' && /providers\./.test(setting.path)) return [{ client: 'openclaw' }];
  if (setting.format === 'json' && envLike && consumer === 'anthropic') return [{ client: 'claude-code' }];
  switch (consumer) {
    case 'openai-sdk':
    case 'openai-responses':
      if (setting.format === 'python' && !envLike) return [{ client: 'openai-python' }, { client: 'openai-python-2' }];
      return [{ client: 'openai-node', loader: node }, { client: 'langchain-js', loader: node }, { client: 'openai-python', loader: python }, { client: 'openai-python-2', loader: python }];
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
      // Object.assign, not a spread: the same own properties in the same order, without V8's slow path for a spread of many shapes.
      if (value !== undefined) out.push(Object.assign({}, reading, { value, path: requestPath(r.consumer.id, r.consumer.appendedPath), url: r.url, sent: r.sent }));
    }
  }
  return out;
}

/** How rows and hover name a client (with the version its facts were recorded with where versions differ). */
export const CLIENT_LABEL: Record<RequestClient, string> = {
  'openai-node': 'openai-node',
  'langchain-js': 'LangChain JS',
  'anthropic-node': 'anthropic-node',
  'openai-python': 'openai-python 3.x',
  'openai-python-2': 'openai-python 2.x',
  'anthropic-python': 'anthropic-python',
  'claude-code': 'Claude Code',
  codex: 'Codex',
  openclaw: 'OpenClaw',
  requests: 'requests',
  httpx: 'httpx',
  curl: 'curl',
};

/** Why nothing is sent, in words (English and Simplified Chinese), for rows and hover. */
export const NO_REQUEST_REASON: Record<'en' | 'zh-CN', Record<NoRequestReason, string>> = {
  en: {
    'leading-space': 'the value starts with whitespace, which this client keeps: httpx reads it as a relative URL and raises UnsupportedProtocol',
    'no-scheme': 'the value has no http:// or https://: the client raises before sending',
    'space-in-url': 'curl refuses a URL with a space in it',
    'invalid-url': 'the joined URL is not a valid URL: the client raises before sending',
  },
  'zh-CN': {
    'leading-space': '取值以空白开头，而该客户端不会去掉它：httpx 把它当作相对 URL，抛出 UnsupportedProtocol',
    'no-scheme': '取值缺少 http:// 或 https://：客户端在发送前就会报错',
    'space-in-url': 'curl 拒绝含空格的 URL',
    'invalid-url': '拼接后的 URL 无效：客户端在发送前就会报错',
  },
};

/** `openai-python 3.x (python-dotenv)`, `openai-python 2.x [openai==2.54.0 in requirements.txt]`: a client reading as a row names it. */
export function readingLabel(reading: ClientReading): string {
  const loader: Partial<Record<Loader, string>> = { nodeDotenv: 'node dotenv', pythonDotenv: 'python-dotenv', posixShell: 'sh', compose: 'Compose', dockerEnvFile: 'docker --env-file' };
  const label = reading.loader ? `${CLIENT_LABEL[reading.client]} (${loader[reading.loader]})` : CLIENT_LABEL[reading.client];
  return reading.pin ? `${label} [${reading.pin}]` : label;
}
