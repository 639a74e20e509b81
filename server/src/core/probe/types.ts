import type { ConsumerId } from '../model/types';

/** A consumer the probe can imitate: every lint consumer plus SGLang's native `/generate` API. */
export type ProbeConsumer = ConsumerId;

/**
 * Verdict codes, most fundamental first (DESIGN "Test TaoToken Connection"). Within one response the
 * earliest code whose signal is present wins; across steps the first failing step wins.
 */
export const VERDICTS = [
  'dns',
  'connection-refused',
  'tls',
  'timeout',
  'proxy',
  'html-not-api',
  'not-found',
  'unauthorized',
  'forbidden',
  'bad-request',
  'model-not-found',
  'no-logprobs',
  'paused',
  'rate-limited',
  'server-error',
  'ok',
] as const;

export type Verdict = (typeof VERDICTS)[number];

/** Both UI languages, rendered. */
export interface Localized {
  en: string;
  'zh-CN': string;
}

/** A message by id with its template data (see `messages.ts`); a `Localized` datum (a provider's name) is rendered in each locale's form. */
export interface MessageRef {
  id: string;
  data?: Record<string, string | number | Localized>;
}

/** The log-prob request of a request site (`--from FILE`); absent fields are left out of the body. */
export interface LogprobsRequest {
  logprobs?: boolean | number;
  top_logprobs?: number;
}

/** What to probe. `baseUrl` is joined per `consumer`; for `raw` it is the full request URL as written. */
export interface ProbeTarget {
  baseUrl: string;
  consumer: ProbeConsumer;
  /** Sent as given (bearer or `x-api-key`); never echoed. Decide with `keys.ts` which key may go where. */
  apiKey?: string;
  model?: string;
  /**
   * `openai-sdk` only: the API the file's call uses (`completions` for `client.completions.create`, `responses`),
   * probed instead of chat completions. Absent = chat completions.
   */
  api?: 'chat' | 'completions' | 'responses';
  /** Overrides the default `logprobs: true, top_logprobs: 1` with the request site's own settings. */
  logprobs?: LogprobsRequest;
  /** `sdk-default`: the SDK fell back to its built-in base because the configured variable is not read. */
  baseUrlSource?: 'configured' | 'sdk-default';
  /** Settings that the consumer ignores (`OPENAI_API_BASE`), named in the explanation. */
  ignoredSettings?: string[];
  /** Why no key is sent (from `chooseProbeKey`), appended to the explanation when `apiKey` is absent. */
  keyNote?: MessageRef;
}

/** Result of a TCP or TLS connection attempt. */
export interface ConnectResult {
  ok: boolean;
  /** Node/OpenSSL error code: `ECONNREFUSED`, `ETIMEDOUT`, `ERR_SSL_WRONG_VERSION_NUMBER`, `CERT_HAS_EXPIRED`. */
  errorCode?: string;
  /** The TLS library's message when the handshake failed. */
  tlsError?: string;
}

/** The part of a fetch `Response` the probe reads. */
export interface ProbeResponse {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface ProbeRequestInit {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  /** Always `manual`: the probe follows same-host redirects itself so a key never crosses origins. */
  redirect: 'manual';
}

/**
 * Network access, injected (core has no I/O of its own). Errors thrown by `lookup`/`fetch` are
 * classified from `err.cause.code` (or `err.code`).
 */
export interface ProbeDeps {
  /** Resolves a host name (or IP literal) to addresses; throws with `code` `ENOTFOUND`/`EAI_AGAIN` on failure. */
  lookup(host: string): Promise<string[]>;
  /** Opens (and closes) a TCP connection, with a TLS handshake when `tls`; never throws. */
  connect(host: string, port: number, tls: boolean, signal: AbortSignal): Promise<ConnectResult>;
  fetch(url: string, init: ProbeRequestInit): Promise<ProbeResponse>;
  /** Milliseconds from any fixed origin, for step timings. */
  now(): number;
  /** The proxy URL `fetch` will use for `url`, if any; DNS/connect steps then target the proxy. */
  proxyFor?(url: string): string | undefined;
}

export interface ProbeOptions {
  /** Per step, in ms; default 10000. */
  timeoutMs?: number;
  /** Cancels the probe: `probe` then rejects with a `ProbeCancelledError`. */
  signal?: AbortSignal;
}

/** Step names, in the order they run. `variant` steps try corrected URLs after a not-found. */
export type StepName =
  | 'dns'
  | 'connect'
  | 'tls'
  | 'models'
  | 'health'
  | 'chat'
  | 'responses'
  | 'messages'
  | 'completions'
  | 'generate'
  | 'request'
  | 'retry'
  | 'variant';

export interface ProbeStep {
  name: StepName;
  method?: 'GET' | 'POST';
  /** The exact URL called (for dns/connect/tls: the host or `host:port`). */
  url?: string;
  status?: number;
  /** Duration in ms (from `deps.now`). */
  ms: number;
  verdict: Verdict;
  /** Error code or short reason, never a key. */
  detail?: string;
}

/** Which log-prob shape came back: chat `choices[0].logprobs.content`, legacy `token_logprobs`, SGLang `meta_info.output_token_logprobs`, Responses `output[].content[].logprobs`. */
export type LogprobsShape = 'chat' | 'legacy' | 'sglang' | 'responses' | 'none' | 'not-requested';

/**
 * A suggested change. `verified`: the probe called the suggested URL and an API answered there;
 * otherwise the change follows from the URL alone (a duplicated segment, plain HTTP on an https URL).
 */
export interface ProbeFix {
  baseUrl: string;
  /** Set when the server speaks another API than the one configured (e.g. chat completions, not responses). */
  consumer?: ProbeConsumer;
  verified: boolean;
  reason: Localized;
}

export interface ProbeReport {
  verdict: Verdict;
  /** Verdicts of other failing steps (deduplicated, without `verdict`). */
  secondary: Verdict[];
  baseUrl: string;
  consumer: ProbeConsumer;
  steps: ProbeStep[];
  /** The model the request used (given, or the first listed by the server). */
  model?: string;
  logprobsShape?: LogprobsShape;
  /** Model ids the server listed (at most 50). */
  models?: string[];
  fix?: ProbeFix;
  /** Whether a key was sent, and its mask (`sk-…abcd (51 chars)`). */
  key: { sent: boolean; masked?: string };
  /** The provider profile the base URL matched (`server/src/core/providers`), when one did: `name` in English, `displayName` in each locale (`本地 SGLang 服务器`). */
  provider?: { id: string; name: string; displayName: Localized; docsUrl: string; modelsUrl?: string };
  explanation: Localized;
}

/** Thrown by `probe` when `options.signal` aborts. */
export class ProbeCancelledError extends Error {
  constructor() {
    super('probe cancelled');
    this.name = 'ProbeCancelledError';
  }
}

/**
 * Thrown by `probe` for a base URL it cannot call: not an absolute http(s) URL, or one carrying
 * `user:password@` credentials. `zh` is the Simplified Chinese text of the message when there is one.
 */
export class ProbeInputError extends Error {
  constructor(
    message: string,
    readonly zh?: string,
  ) {
    super(message);
    this.name = 'ProbeInputError';
  }
}
