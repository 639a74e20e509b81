import { maskSecret, redactSecrets } from '../model/secret';
import { redact } from '../redact';
import { classifyError, classifyResponse, isPlainHttpTls, type ErrorClass, type ResponseClass } from './classify';
import { explain } from './explain';
import { providerForProbe, type ProbeProvider } from './provider';
import { renderLocalized } from './messages';
import { requestBody, requestHeaders, type BuiltRequest } from './request';
import {
  ProbeCancelledError,
  ProbeInputError,
  type ProbeDeps,
  type ProbeFix,
  type ProbeOptions,
  type ProbeReport,
  type ProbeStep,
  type ProbeTarget,
  type Localized,
  type MessageRef,
  type StepName,
  type Verdict,
} from './types';
import { diagnoseUrl, planCalls, urlVariants, type ApiCall, type CallPlan, type PlannedCall, type UrlVariant } from './url';

const DEFAULT_TIMEOUT_MS = 10_000;
/** Failures after which later steps cannot tell anything new. */
const STOPPING: ReadonlySet<Verdict> = new Set(['dns', 'connection-refused', 'tls', 'timeout']);
/** Variant answers that do not show an API at the URL. */
const NOT_AN_API: ReadonlySet<Verdict> = new Set(['not-found', 'html-not-api', 'dns', 'connection-refused', 'tls', 'timeout', 'proxy', 'server-error']);
const MAX_REDIRECTS = 3;

/** One executed step with what the classifier learned, kept beside the public `ProbeStep`. */
interface StepRecord {
  step: ProbeStep;
  /** Counts for the verdict (variant and superseded steps do not; advisory not-found/HTML do not). */
  decisive: boolean;
  /** Counts for `secondary` (advisory not-found/HTML do not: the steps table shows them). */
  reported: boolean;
  response?: ResponseClass;
  error?: ErrorClass;
  body?: Record<string, unknown>;
  redirectLocation?: string;
}

type Timed<T> = { ok: true; value: T; ms: number } | { ok: false; error: unknown; timedOut: boolean; ms: number };

/**
 * Probes an OpenAI-compatible (or Anthropic, or SGLang-native) endpoint the way `target.consumer`
 * would call it: DNS, TCP connect, TLS (https only), then the consumer's requests (see `planCalls`),
 * each bounded by `options.timeoutMs`. Never throws for network or server trouble — that is the
 * report. The key is sent only to `target.baseUrl`'s origin and never appears in the report.
 *
 * @throws ProbeInputError when `target.baseUrl` is not an absolute http(s) URL.
 * @throws ProbeCancelledError when `options.signal` aborts.
 */
export async function probe(target: ProbeTarget, deps: ProbeDeps, options: ProbeOptions = {}): Promise<ProbeReport> {
  let plan: CallPlan;
  try {
    const url = new URL(target.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported scheme ${url.protocol}`);
    plan = planCalls(target.baseUrl, target.consumer, target.api);
  } catch (error) {
    const shown = redact(target.baseUrl, target.apiKey ? [target.apiKey] : []);
    const why = redact((error as Error).message, target.apiKey ? [target.apiKey] : []);
    throw new ProbeInputError(`not an absolute http(s) URL: ${shown} (${why})`, `不是完整的 http(s) URL：${shown}（${why}）`);
  }
  if (/^[a-z]+:\/\/[^/?#]*@/i.test(target.baseUrl.trim())) {
    // Node's fetch (undici, under the openai npm SDK) throws "Request cannot be constructed from a URL
    // that includes credentials" before any connection: that is no connection-refused verdict.
    const shown = redact(target.baseUrl);
    throw new ProbeInputError(
      `the base URL ${shown} carries credentials (user:password@); fetch, which the openai npm SDK uses, refuses such URLs before connecting. Send the credential as the API key or a header instead`,
      `base URL ${shown} 中带有凭据（user:password@）；openai npm SDK 所用的 fetch 会在连接前直接拒绝这类 URL。请改用 API 密钥或请求头传递凭据`,
    );
  }
  return new ProbeRun(target, deps, options, plan).run();
}

class ProbeRun {
  private readonly records: StepRecord[] = [];
  private readonly timeoutMs: number;
  private readonly secrets: string[];
  private readonly sendKey: string | undefined;
  private readonly keyUnsendable: boolean;
  private host = '';
  private port = 0;
  private model: string | undefined;
  private models: string[] | undefined;
  private fix: ProbeFix | undefined;
  private failedVariants: string[] = [];
  private chatUrlThatWorks: string | undefined;
  private readonly provider: ProbeProvider | undefined;

  constructor(
    private readonly target: ProbeTarget,
    private readonly deps: ProbeDeps,
    private readonly options: ProbeOptions,
    private readonly plan: CallPlan,
  ) {
    this.timeoutMs = options.timeoutMs && options.timeoutMs > 0 ? options.timeoutMs : DEFAULT_TIMEOUT_MS;
    this.secrets = target.apiKey ? [target.apiKey] : [];
    this.keyUnsendable = !!target.apiKey && /[\r\n\0]|[^\x00-\xff]/.test(target.apiKey);
    this.sendKey = target.apiKey && !this.keyUnsendable ? target.apiKey : undefined;
    this.model = target.model;
    this.provider = providerForProbe(target.baseUrl, target.consumer);
  }

  async run(): Promise<ProbeReport> {
    if (await this.transportSteps()) await this.httpSteps();
    return this.report();
  }

  /** dns → connect → tls; false when one failed. Targets the proxy when `fetch` will use one. */
  private async transportSteps(): Promise<boolean> {
    const proxy = this.deps.proxyFor?.(this.plan.main.url);
    const url = new URL(proxy ?? this.plan.main.url);
    this.host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    this.port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const where = `${this.host}:${this.port}`;
    const dns = await this.timed(() => this.deps.lookup(this.host));
    let dnsError: ErrorClass | undefined;
    if (!dns.ok) dnsError = dns.timedOut ? { verdict: 'timeout', code: 'ETIMEDOUT' } : { ...classifyError(dns.error), verdict: 'dns' };
    else if (dns.value.length === 0) dnsError = { verdict: 'dns', code: 'ENOTFOUND' };
    this.push('dns', { url: this.host, ms: dns.ms, verdict: dnsError?.verdict ?? 'ok', detail: dnsError?.code || undefined }, { error: dnsError });
    if (dnsError) return false;
    if (!(await this.connectStep('connect', where, false))) return false;
    if (url.protocol === 'https:' && !proxy) return this.connectStep('tls', where, true);
    return true;
  }

  private async connectStep(name: 'connect' | 'tls', where: string, tls: boolean): Promise<boolean> {
    const result = await this.timed((signal) => this.deps.connect(this.host, this.port, tls, signal));
    if (result.ok && result.value.ok) {
      this.push(name, { url: where, ms: result.ms, verdict: 'ok' });
      return true;
    }
    let error: ErrorClass;
    if (!result.ok && result.timedOut) error = { verdict: 'timeout', code: 'ETIMEDOUT' };
    else if (!result.ok) error = classifyError(result.error);
    else {
      const { errorCode = '', tlsError } = result.value;
      error = classifyError(undefined, errorCode);
      const handshakeBroke = error.verdict === 'tls' || error.flavour === 'reset' || error.flavour === 'other-network' || tlsError !== undefined;
      if (tls && handshakeBroke) error = { verdict: 'tls', code: errorCode || 'EPROTO', flavour: isPlainHttpTls(errorCode, tlsError) ? 'plain-http' : undefined };
    }
    this.push(name, { url: where, ms: result.ms, verdict: error.verdict, detail: error.code }, { error });
    if (error.flavour === 'plain-http') this.fix = this.plainHttpFix();
    return false;
  }

  /** The same base over http on the port that answered in plain HTTP (never tried: the key would travel in clear text). */
  private plainHttpFix(): ProbeFix {
    const http = new URL(this.target.baseUrl);
    http.protocol = 'http:';
    http.port = this.port === 80 ? '' : String(this.port);
    const text = http.toString();
    return { baseUrl: this.target.baseUrl.endsWith('/') ? text : text.replace(/\/$/, ''), verified: false, reason: renderLocalized([{ id: 'fix.plainHttp' }]) };
  }

  private async httpSteps(): Promise<void> {
    const advisory = this.plan.advisory;
    if (advisory) {
      const record = await this.request(advisory.api === 'health' ? 'health' : 'models', advisory, { advisory: true });
      if (record.response?.modelIds?.length) this.models = record.response.modelIds.slice(0, 50);
      if (STOPPING.has(record.step.verdict)) return;
      if (!this.model && this.models?.length) this.model = this.models[0];
    }
    const built = requestBody(this.plan.main.api, this.model, this.target.logprobs);
    let main = await this.request(stepName(this.plan.main.api, this.target.consumer), this.plan.main, { built });
    if (main.response?.retryWithMaxCompletionTokens && 'max_tokens' in built.body) {
      main.decisive = false;
      main.reported = false;
      const { max_tokens, ...rest } = built.body;
      main = await this.request('retry', this.plan.main, { built: { ...built, body: { ...rest, max_completion_tokens: max_tokens } } });
    }
    const earlierFailure = this.records.some((r) => r.decisive && r !== main && r.step.verdict !== 'ok');
    if (!earlierFailure && (main.step.verdict === 'not-found' || main.step.verdict === 'html-not-api')) await this.tryVariants(main);
  }

  private async tryVariants(main: StepRecord): Promise<void> {
    const requestUrl = main.step.url ?? this.plan.main.url;
    const variants = urlVariants(this.target.baseUrl, this.target.consumer, requestUrl, 3, this.provider?.documented).filter((v) => safeOrigin(v.baseUrl) === new URL(this.target.baseUrl).origin);
    for (const variant of variants) {
      const call = planCalls(variant.baseUrl, variant.consumer, variant.consumer === this.target.consumer ? this.target.api : undefined).main;
      const record = await this.request('variant', call, { variant: true, built: requestBody(call.api, this.model, this.target.logprobs) });
      if (!NOT_AN_API.has(record.step.verdict)) {
        this.fix = { baseUrl: variant.baseUrl, consumer: variant.consumer === this.target.consumer ? undefined : variant.consumer, verified: true, reason: renderLocalized([fixReason(variant, this.target.baseUrl, requestUrl, this.provider?.displayName), { id: 'fix.verified', data: { url: call.url } }]) };
        if (variant.reason === 'chat-not-responses') this.chatUrlThatWorks = call.url;
        return;
      }
      this.failedVariants.push(call.url);
    }
    const structural = diagnoseUrl(this.target.baseUrl, this.target.consumer, requestUrl);
    if (structural) this.fix = { baseUrl: structural.fixedBase, verified: false, reason: renderLocalized([fixReason({ baseUrl: structural.fixedBase, consumer: this.target.consumer, reason: 'structural' }, this.target.baseUrl, requestUrl)]) };
  }

  /** Sends one request (following same-host redirects) and records its step. */
  private async request(name: StepName, call: PlannedCall, how: { advisory?: boolean; variant?: boolean; built?: BuiltRequest }): Promise<StepRecord> {
    const built = call.method === 'POST' ? how.built : undefined;
    const headers = requestHeaders(call.api, this.sendKey, call.method === 'POST');
    const result = await this.timed(async (signal) => {
      let url = call.url;
      for (let hop = 0; ; hop++) {
        const response = await this.deps.fetch(url, { method: call.method, headers, body: built ? JSON.stringify(built.body) : undefined, signal, redirect: 'manual' });
        const location = response.headers.get('location');
        const next = response.status >= 300 && response.status < 400 && location ? sameHostRedirect(url, location) : undefined;
        if (next && hop < MAX_REDIRECTS) {
          url = next;
          continue;
        }
        return { response, text: await response.text(), url, location: response.status >= 300 && response.status < 400 ? (location ?? undefined) : undefined };
      }
    });
    const stepBase = { name, method: call.method, url: this.redact(call.url), ms: result.ms };
    const record: StepRecord = { step: { ...stepBase, verdict: 'ok' }, decisive: !how.variant, reported: !how.variant, body: built?.body };
    if (!result.ok) {
      record.error = result.timedOut ? { verdict: 'timeout', code: 'ETIMEDOUT' } : classifyError(result.error);
      record.step = { ...stepBase, verdict: record.error.verdict, detail: record.error.code || undefined };
    } else {
      const { response, text, location } = result.value;
      const cls = classifyResponse({ status: response.status, headers: response.headers, text, api: call.api, logprobsRequested: built?.logprobsRequested ?? false, model: built?.body.model as string | undefined });
      cls.serverMessage = cls.serverMessage === undefined ? undefined : this.redact(cls.serverMessage);
      record.response = cls;
      record.redirectLocation = location ? this.redact(location) : undefined;
      record.step = { ...stepBase, url: this.redact(result.value.url), status: response.status, verdict: cls.verdict };
    }
    if (how.advisory && ['not-found', 'html-not-api'].includes(record.step.verdict)) {
      record.decisive = false;
      record.reported = false;
    }
    this.records.push(record);
    return record;
  }

  private push(name: StepName, step: Omit<ProbeStep, 'name'>, extra: Partial<StepRecord> = {}): void {
    this.records.push({ step: { name, ...step }, decisive: true, reported: true, ...extra });
  }

  private async timed<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<Timed<T>> {
    const cancel = this.options.signal;
    if (cancel?.aborted) throw new ProbeCancelledError();
    const controller = new AbortController();
    const start = this.deps.now();
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onCancel: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        const error = new Error(`no answer within ${this.timeoutMs} ms`);
        error.name = 'TimeoutError';
        controller.abort(error);
        reject(error);
      }, this.timeoutMs);
      onCancel = () => {
        controller.abort(new ProbeCancelledError());
        reject(new ProbeCancelledError());
      };
      cancel?.addEventListener('abort', onCancel, { once: true });
    });
    try {
      const value = await Promise.race([fn(controller.signal), stopped]);
      return { ok: true, value, ms: this.deps.now() - start };
    } catch (error) {
      if (cancel?.aborted) throw new ProbeCancelledError();
      return { ok: false, error, timedOut, ms: this.deps.now() - start };
    } finally {
      clearTimeout(timer);
      if (onCancel) cancel?.removeEventListener('abort', onCancel);
    }
  }

  private redact(text: string): string {
    return redactSecrets(text, this.secrets);
  }

  private report(): ProbeReport {
    const deciding = this.records.find((r) => r.decisive && r.step.verdict !== 'ok');
    const verdict: Verdict = deciding?.step.verdict ?? 'ok';
    const secondary = [...new Set(this.records.filter((r) => r.reported && r !== deciding && r.step.verdict !== 'ok').map((r) => r.step.verdict))].filter((v) => v !== verdict);
    const mainRecord = [...this.records].reverse().find((r) => r.decisive && !['dns', 'connect', 'tls', 'models', 'health', 'variant'].includes(r.step.name));
    const focus = deciding ?? mainRecord;
    const requestUrl = focus?.step.url;
    const problem = requestUrl && verdict === 'not-found' ? safeDiagnose(this.target, requestUrl) : undefined;
    const refs = explain({
      verdict,
      step: focus?.step,
      response: focus?.response,
      error: focus?.error,
      host: this.host,
      port: this.port,
      targetHost: new URL(this.plan.main.url).hostname.replace(/^\[(.*)\]$/, '$1'),
      target: { ...this.target, baseUrl: this.redact(this.target.baseUrl) },
      sentKey: this.sendKey,
      keyUnsendable: this.keyUnsendable,
      model: this.model,
      models: this.models,
      timeoutMs: this.timeoutMs,
      body: focus?.body,
      urlProblem: problem && requestUrl ? { problem: problem.problem, path: new URL(requestUrl).pathname } : undefined,
      failedVariants: this.failedVariants.map((u) => this.redact(u)),
      chatUrlThatWorks: this.chatUrlThatWorks,
      redirectLocation: focus?.redirectLocation,
      serverMessage: focus?.response?.serverMessage,
      provider: this.provider,
    });
    const explanation = renderLocalized(refs);
    return {
      verdict,
      secondary,
      baseUrl: this.redact(this.target.baseUrl),
      consumer: this.target.consumer,
      steps: this.records.map((r) => r.step),
      model: this.model,
      logprobsShape: mainRecord?.response?.logprobsShape ?? (mainRecord?.step.verdict === 'no-logprobs' ? 'none' : undefined),
      models: this.models,
      fix: this.fix ? { ...this.fix, baseUrl: this.redact(this.fix.baseUrl) } : undefined,
      key: { sent: this.sendKey !== undefined, masked: this.target.apiKey ? maskSecret(this.target.apiKey) : undefined },
      provider: this.provider ? { id: this.provider.id, name: this.provider.name, displayName: this.provider.displayName, docsUrl: this.provider.docsUrl, modelsUrl: this.provider.modelsUrl } : undefined,
      explanation: { en: this.redact(explanation.en), 'zh-CN': this.redact(explanation['zh-CN']) },
    };
  }
}

function stepName(api: ApiCall, consumer: ProbeTarget['consumer']): StepName {
  if (consumer === 'raw') return 'request';
  return api === 'chat' ? 'chat' : api === 'models' ? 'models' : api;
}

function fixReason(variant: UrlVariant, baseUrl: string, requestUrl: string, provider?: Localized): MessageRef {
  switch (variant.reason) {
    case 'documented':
      return { id: 'fix.documented', data: { provider: provider ?? '', base: variant.baseUrl } };
    case 'add-v1':
      return { id: 'fix.addV1' };
    case 'remove-v1':
      return { id: 'fix.removeV1' };
    case 'chat-not-responses':
      return { id: 'fix.chatNotResponses' };
    case 'structural': {
      const found = diagnoseUrl(baseUrl, variant.consumer, requestUrl)?.problem;
      if (found?.kind === 'duplicate-segment') return { id: 'fix.duplicate', data: { segment: found.segment } };
      if (found?.kind === 'endpoint-in-base') return { id: 'fix.endpointInBase', data: { segment: found.segment } };
      if (found?.kind === 'query-in-base') return { id: 'fix.queryInBase', data: { query: found.query } };
      return { id: 'fix.emptySegment' };
    }
  }
}

function safeDiagnose(target: ProbeTarget, requestUrl: string): ReturnType<typeof diagnoseUrl> {
  try {
    return diagnoseUrl(target.baseUrl, target.consumer, requestUrl);
  } catch {
    return undefined;
  }
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The redirect target when it stays on the same origin (or upgrades http:80 to https:443 on the same host), else undefined. */
function sameHostRedirect(from: string, location: string): string | undefined {
  try {
    const a = new URL(from);
    const b = new URL(location, from);
    const upgrade = a.protocol === 'http:' && b.protocol === 'https:' && a.hostname === b.hostname && a.port === '' && b.port === '';
    return a.origin === b.origin || upgrade ? b.toString() : undefined;
  } catch {
    return undefined;
  }
}
