import type { ApiCall } from './url';
import type { LogprobsShape, Verdict } from './types';

/** Codes from Node (`err.cause.code` of undici's `fetch failed`, `net`/`tls` errors) mapped to verdicts. */
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA', 'ENODATA']);
const REFUSED_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'EADDRNOTAVAIL']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const TLS_CODES = /^(EPROTO|ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|SELF_SIGNED_CERT|DEPTH_ZERO_SELF_SIGNED_CERT|HOSTNAME_MISMATCH|ERR_OSSL_)/;

/** How a network error reads: the verdict, the code, and which explanation fits. */
export interface ErrorClass {
  verdict: Verdict;
  code: string;
  /** `reset`: the connection was closed mid-request; `plain-http`: TLS to a plain-HTTP port. */
  flavour?: 'reset' | 'plain-http' | 'other-network' | 'proxy-tunnel';
}

/** The error code on an error or its `cause` chain (undici wraps the socket error in `cause`). */
export function errorCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_ABORTED' && code !== 'ABORT_ERR') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return '';
}

function errorText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string') parts.push(message);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(' | ');
}

/** True for a TLS failure caused by a server that answered in plain HTTP. */
export function isPlainHttpTls(code: string, message = ''): boolean {
  return code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG' || /wrong version number|packet length too long|http request/i.test(message);
}

/** Classifies an error thrown by `lookup`/`fetch` or a failed `connect`, from its code (cause chain first). */
export function classifyError(error: unknown, code = errorCode(error)): ErrorClass {
  const text = errorText(error);
  if (DNS_CODES.has(code)) return { verdict: 'dns', code };
  if (REFUSED_CODES.has(code)) return { verdict: 'connection-refused', code };
  if (TIMEOUT_CODES.has(code)) return { verdict: 'timeout', code };
  if (TLS_CODES.test(code)) return { verdict: 'tls', code, flavour: isPlainHttpTls(code, text) ? 'plain-http' : undefined };
  if (/Proxy response \(\d+\)/.test(text)) return { verdict: 'proxy', code: /Proxy response \((\d+)\)/.exec(text)![1], flavour: 'proxy-tunnel' };
  if (RESET_CODES.has(code)) return { verdict: 'connection-refused', code, flavour: 'reset' };
  return { verdict: 'connection-refused', code: code || 'ERR', flavour: 'other-network' };
}

/** A response as the classifier sees it. */
export interface ResponseFacts {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
  api: ApiCall;
  /** Whether the request asked for log probs (false: do not judge them). */
  logprobsRequested: boolean;
  /** The model sent, if any. */
  model?: string;
}

export interface ResponseClass {
  verdict: Verdict;
  json?: unknown;
  /** The server's own error message (not yet redacted). */
  serverMessage?: string;
  logprobsShape?: LogprobsShape;
  /** 400 whose message names `max_tokens`: retry once with `max_completion_tokens`. */
  retryWithMaxCompletionTokens?: boolean;
  /** Evidence for `proxy`: the header or page that showed it. */
  proxyEvidence?: string;
  html?: boolean;
  retryAfter?: string;
  /**
   * A 5xx that says the service is unavailable for now (503, or a gateway's `ServiceUnavailableError`: LiteLLM
   * 1.80 answers an upstream's 503 so and drops its Retry-After, recorded in test/fixtures/gateways/litellm.json).
   */
  transient?: boolean;
  /** Model ids from a models list. */
  modelIds?: string[];
}

const PROXY_HEADERS = ['via', 'proxy-authenticate', 'proxy-connection', 'proxy-status', 'x-squid-error', 'x-cache-lookup'];
const PROXY_PAGE = /squid|proxy error|proxy authentication required|ERR_(CONNECT_FAIL|DNS_FAIL|ACCESS_DENIED|CANNOT_FORWARD)|privoxy|tinyproxy|bluecoat|zscaler/i;
const MODEL_MISSING = /model\b[^.]{0,120}\b(not found|does not exist|doesn't exist|not exist|is not available|unknown|not supported|no such|invalid)|(unknown|invalid|no such)\s+model|model_not_found/i;
const MODEL_NEEDED = /\bmodel\b[^.]{0,40}\b(required|missing|must be (given|provided|specified)|not (specified|provided|given))|\b(provide|specify|missing|requires?)\b[^.]{0,40}\bmodel\b|"loc":\["body","model"\]|model '' not found/i;
const PAUSED = /paused|weight[_ ]?update|updating weights/i;

/**
 * A gateway's rejection of the key, whatever the status: LiteLLM's proxy (1.80, master key set, no key
 * database) answers any other key with `400 {"error":{"message":"No connected db.","type":"no_db_connection"}}`
 * (it looks the key up in a database it does not have; recorded in test/fixtures/gateways/litellm.json); OpenAI-style
 * `invalid_api_key` / `authentication_error` types; "Invalid proxy server token" / "Authentication Error" texts.
 */
const KEY_REJECTED_TYPE = /^(no_db_connection|invalid_api_key|authentication_error|auth_error|invalid_request_error\.invalid_api_key)$/i;
const KEY_REJECTED_TEXT = /no connected db|invalid (api[_ ]?)?key|incorrect api key|invalid proxy server token|authentication error|api key (is )?(not valid|invalid|missing)/i;

/** True when an error answer says the key was rejected (see KEY_REJECTED_TYPE). */
function keyRejected(json: unknown, message: string | undefined): boolean {
  const error = json && typeof json === 'object' ? (json as { error?: unknown }).error : undefined;
  const type = error && typeof error === 'object' ? (error as { type?: unknown; code?: unknown }) : undefined;
  if (typeof type?.type === 'string' && KEY_REJECTED_TYPE.test(type.type)) return true;
  if (typeof type?.code === 'string' && KEY_REJECTED_TYPE.test(type.code)) return true;
  return KEY_REJECTED_TEXT.test(message ?? '');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The message an OpenAI-style, FastAPI or plain-text error body carries, at most 300 characters. */
export function serverMessage(json: unknown, text: string): string {
  let message: unknown;
  if (isRecord(json)) {
    const error = json.error;
    message = isRecord(error) ? (error.message ?? error.type) : (error ?? json.detail ?? json.message);
    if (Array.isArray(message) || isRecord(message)) message = JSON.stringify(message);
  }
  const out = typeof message === 'string' && message.trim() ? message : text;
  const flat = out.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}

function looksHtml(contentType: string, text: string): boolean {
  return /text\/html|application\/xhtml/i.test(contentType) || /^\s*(<!doctype html|<html[\s>])/i.test(text);
}

/**
 * Proxy evidence on an error answer: 407, a `Proxy-Status` header (RFC 9209), a proxy header (`Via`,
 * `Proxy-Authenticate`, `X-Squid-Error`, …) on a body that is not the API's JSON, or a proxy's error page.
 * A JSON error passed through a CDN that adds `Via` is the API's own answer, not the proxy's.
 */
function proxyEvidence(facts: ResponseFacts, json: unknown): string | undefined {
  if (facts.status === 407) return '407 Proxy Authentication Required';
  if (facts.status < 400) return undefined;
  if (facts.headers.get('proxy-status')) return `proxy-status: ${facts.headers.get('proxy-status')}`;
  const header = PROXY_HEADERS.find((h) => facts.headers.get(h));
  if (header && json === undefined) return `${header}: ${facts.headers.get(header)}`;
  if (json === undefined && PROXY_PAGE.test(facts.text.slice(0, 4000))) return PROXY_PAGE.exec(facts.text.slice(0, 4000))![0];
  return undefined;
}

function finite(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Which log-prob shape a JSON answer carries: ≥ 1 entry with a finite log prob in
 * `choices[0].logprobs.content` (chat), `choices[0].logprobs.token_logprobs` (legacy completions),
 * `meta_info.output_token_logprobs` (SGLang `/generate`: `[logprob, token_id, text]` tuples), or
 * `output[].content[].logprobs` (Responses API); else `none`.
 */
export function detectLogprobs(json: unknown): Exclude<LogprobsShape, 'not-requested'> {
  if (!isRecord(json)) return 'none';
  const choice = Array.isArray(json.choices) && isRecord(json.choices[0]) ? json.choices[0] : undefined;
  const logprobs = choice && isRecord(choice.logprobs) ? choice.logprobs : undefined;
  if (logprobs && Array.isArray(logprobs.content) && logprobs.content.some((e) => isRecord(e) && finite(e.logprob))) return 'chat';
  if (logprobs && Array.isArray(logprobs.token_logprobs) && logprobs.token_logprobs.some(finite)) return 'legacy';
  const meta = isRecord(json.meta_info) ? json.meta_info : undefined;
  if (meta && Array.isArray(meta.output_token_logprobs) && meta.output_token_logprobs.some((e) => Array.isArray(e) && finite(e[0]))) return 'sglang';
  if (Array.isArray(json.output)) {
    for (const item of json.output) {
      const content = isRecord(item) && Array.isArray(item.content) ? item.content : [];
      if (content.some((c) => isRecord(c) && Array.isArray(c.logprobs) && c.logprobs.some((e) => isRecord(e) && finite(e.logprob)))) return 'responses';
    }
  }
  return 'none';
}

/** Whether a 2xx JSON body has the shape of an answer from `api`. */
function isApiAnswer(api: ApiCall, json: unknown): boolean {
  if (!isRecord(json) || json.error) return false;
  switch (api) {
    case 'chat':
    case 'completions':
      return Array.isArray(json.choices);
    case 'responses':
      return Array.isArray(json.output) || json.object === 'response';
    case 'messages':
      return Array.isArray(json.content) || json.type === 'message';
    case 'generate':
      return 'text' in json || 'meta_info' in json || 'output_ids' in json;
    default:
      return true;
  }
}

/**
 * Classifies one HTTP answer. Signals are ranked by `VERDICTS` order: a proxy's error page beats an
 * HTML page, which beats a 404, and so on. A 400/404/422 whose message names the model that was sent
 * as unknown — or, when none was sent, asks for one — is `model-not-found` (the endpoint exists);
 * a 400/422 naming `max_tokens` is a `bad-request` that asks for the `max_completion_tokens` retry.
 */
export function classifyResponse(facts: ResponseFacts): ResponseClass {
  const contentType = facts.headers.get('content-type') ?? '';
  const json = parseJson(facts.text);
  const message = facts.status >= 300 ? serverMessage(json, facts.text) : undefined;
  const base = { json, serverMessage: message };
  const evidence = proxyEvidence(facts, json);
  if (evidence) return { ...base, verdict: 'proxy', proxyEvidence: evidence };
  if (looksHtml(contentType, facts.text)) return { ...base, verdict: 'html-not-api', html: true };
  const modelStatus = [400, 404, 422].includes(facts.status);
  const modelMissing = modelStatus && (facts.model !== undefined ? MODEL_MISSING : MODEL_NEEDED).test(message ?? '');
  const retry = (facts.status === 400 || facts.status === 422) && /max_tokens/.test(message ?? '');
  if (retry) return { ...base, verdict: 'bad-request', retryWithMaxCompletionTokens: true };
  if ([404, 405, 410].includes(facts.status) && !modelMissing) return { ...base, verdict: 'not-found' };
  if (facts.status >= 300 && facts.status < 400) return { ...base, verdict: 'not-found' };
  if (facts.status === 401 || (facts.status >= 400 && facts.status !== 403 && facts.status !== 429 && keyRejected(json, message))) return { ...base, verdict: 'unauthorized' };
  if (facts.status === 403) return { ...base, verdict: 'forbidden' };
  if ((facts.status === 400 || facts.status === 422) && !modelMissing) return { ...base, verdict: 'bad-request' };
  if (modelMissing) return { ...base, verdict: 'model-not-found' };
  if (facts.status === 503 && PAUSED.test(message ?? '')) return { ...base, verdict: 'paused' };
  if (facts.status === 429) return { ...base, verdict: 'rate-limited', retryAfter: facts.headers.get('retry-after') ?? undefined };
  // A 5xx with Retry-After is transient (RFC 9110 §10.2.3: how long the service is expected to be unavailable).
  if (facts.status >= 400) {
    const retryAfter = facts.status >= 500 ? facts.headers.get('retry-after') ?? undefined : undefined;
    const transient = retryAfter !== undefined || facts.status === 503 || /ServiceUnavailable|temporarily unavailable/i.test(message ?? '');
    return { ...base, verdict: 'server-error', ...(retryAfter ? { retryAfter } : {}), ...(facts.status >= 500 && transient ? { transient } : {}) };
  }
  return classifyAnswer(facts, json);
}

function classifyAnswer(facts: ResponseFacts, json: unknown): ResponseClass {
  if (facts.api === 'health') return { verdict: 'ok', json };
  if (facts.api === 'models') {
    const data = isRecord(json) && Array.isArray(json.data) ? json.data : isRecord(json) && Array.isArray(json.models) ? json.models : [];
    const modelIds = data.map((m) => (isRecord(m) ? (m.id ?? m.name) : m)).filter((id): id is string => typeof id === 'string');
    return { verdict: 'ok', json, modelIds };
  }
  if (json === undefined) return { verdict: 'html-not-api', json };
  if (!isApiAnswer(facts.api, json)) {
    return { verdict: 'bad-request', json, serverMessage: serverMessage(json, facts.text) };
  }
  if (!facts.logprobsRequested || facts.api === 'messages') return { verdict: 'ok', json, logprobsShape: 'not-requested' };
  const shape = detectLogprobs(json);
  return { verdict: shape === 'none' ? 'no-logprobs' : 'ok', json, logprobsShape: shape };
}
