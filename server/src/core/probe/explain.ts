import { maskSecret } from '../model/secret';
import { joinList } from '../messages/locale';
import type { ErrorClass, ResponseClass } from './classify';
import type { MessageRef, ProbeStep, ProbeTarget, Verdict } from './types';
import { hasTrackingQuery, isSiteRoot, type UrlProblem } from './url';
import type { ProbeProvider } from './provider';

/** Everything the explanation of one probe needs; all strings already redacted. */
export interface ExplainInput {
  verdict: Verdict;
  /** The step that decided the verdict (the main request when `ok`). */
  step?: ProbeStep;
  response?: ResponseClass;
  error?: ErrorClass;
  /** Where the dns/connect steps went: the target's host, or the proxy's when one is used. */
  host: string;
  port: number;
  /** The host of the URL the client calls (never the proxy). */
  targetHost: string;
  target: ProbeTarget;
  /** The key as sent, or undefined when none was sent. */
  sentKey?: string;
  /** The target's key could not be put into a header and was withheld. */
  keyUnsendable: boolean;
  model?: string;
  models?: string[];
  timeoutMs: number;
  /** The JSON body of the deciding request. */
  body?: Record<string, unknown>;
  urlProblem?: { problem: UrlProblem; path: string };
  /** URLs tried as corrections that did not answer as an API. */
  failedVariants: string[];
  /** Set when chat completions answered at the same base after responses gave 404. */
  chatUrlThatWorks?: string;
  redirectLocation?: string;
  /** Redacted server message. */
  serverMessage?: string;
  /** The provider profile the target matched (`providerForProbe`). */
  provider?: ProbeProvider;
}

const PLACEHOLDER_KEY =
  /^(<[^>]*>|\[[^\]]*\]|x{3,}|\.{3,}|sk-(\.{3}|x+|your.*)|.*\byour[-_ ]?(api[-_ ]?)?key\b.*|.*(add|insert|put|paste|enter)[-_ ]?your.*|.*[-_ ]here|changeme|change[-_ ]me|replace[-_ ]?me|placeholder|todo|none|null|undefined|dummy|test)$/i;

/** What is visibly wrong with a key, as message refs (masked; the key itself never appears). */
export function keyProblems(key: string): MessageRef[] {
  if (key.trimStart().startsWith('#')) return [{ id: 'key.comment' }];
  const out: MessageRef[] = [];
  const template = /\$\{|\$[A-Za-z_]|\{\{|%[A-Za-z_]+%/.exec(key);
  if (template) out.push({ id: 'key.template', data: { template: template[0] } });
  if (/^\s*bearer\s/i.test(key)) out.push({ id: 'key.bearer' });
  if (/^\s*(["'`]).*\1\s*$/.test(key)) out.push({ id: 'key.quoted' });
  if (PLACEHOLDER_KEY.test(key.trim())) out.push({ id: 'key.placeholder' });
  if (key !== key.trim() || /[\r\n\t]/.test(key)) out.push({ id: 'key.whitespace' });
  return out;
}

/** Levenshtein distance, case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[t.length];
}

/** The listed model closest to `model`: an `org/model` form of it, else the nearest within max(2, length/3) edits. */
export function didYouMean(model: string, models: readonly string[]): string | undefined {
  const lower = model.toLowerCase();
  const qualified = models.find((m) => m.toLowerCase().endsWith(`/${lower}`) || lower.endsWith(`/${m.toLowerCase()}`));
  if (qualified) return qualified;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(model.length / 3)) + 1;
  for (const candidate of models) {
    const distance = editDistance(model, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** The explanation of a probe result as message refs, most important first. */
export function explain(input: ExplainInput): MessageRef[] {
  const step = input.step;
  const data = {
    url: step?.url ?? input.target.baseUrl,
    method: step?.method ?? '',
    status: step?.status ?? '',
    host: input.host,
    port: input.port,
    code: input.error?.code ?? '',
    message: input.serverMessage ?? '',
    model: input.model ?? '(server default)',
    timeoutMs: input.timeoutMs,
    step: step?.name ?? '',
  };
  const refs = verdictRefs(input, data);
  refs.splice(1, 0, ...providerRefs(input));
  if (input.verdict !== 'ok') refs.push(...contextRefs(input));
  if (!input.sentKey && input.target.keyNote) refs.push(input.target.keyNote);
  return refs;
}

type Data = Record<string, string | number>;

function verdictRefs(input: ExplainInput, data: Data): MessageRef[] {
  switch (input.verdict) {
    case 'ok':
      return input.response?.logprobsShape && input.response.logprobsShape !== 'not-requested'
        ? [{ id: 'ok.logprobs', data: { ...data, shape: input.response.logprobsShape } }]
        : [{ id: 'ok.notRequested', data }];
    case 'dns':
      return [{ id: 'dns', data }];
    case 'connection-refused':
      if (input.error?.flavour === 'reset') return [{ id: 'connection-reset', data }];
      if (input.error?.flavour === 'other-network') return [{ id: 'network-other', data }];
      return [{ id: 'connection-refused', data }];
    case 'tls':
      if (input.error?.flavour === 'plain-http') return [{ id: 'tls.plainHttp', data }];
      return [{ id: 'tls', data }, ...(/CERT|SELF_SIGNED|UNABLE_TO|ALTNAME/.test(String(data.code)) ? [{ id: 'tls.cert' }] : [])];
    case 'timeout':
      return [{ id: 'timeout', data }];
    case 'proxy':
      if (input.error?.flavour === 'proxy-tunnel') return [{ id: 'proxy.tunnel', data: { ...data, host: input.targetHost } }];
      return [{ id: 'proxy', data: { ...data, host: input.targetHost, evidence: input.response?.proxyEvidence ?? '' } }];
    case 'html-not-api':
      return htmlRefs(input, data);
    case 'not-found':
      return notFoundRefs(input, data);
    case 'unauthorized':
    case 'forbidden':
      return authRefs(input, data);
    case 'bad-request':
      return badRequestRefs(input, data);
    case 'model-not-found':
      return modelRefs(input, data);
    case 'no-logprobs':
      return [{ id: 'no-logprobs', data }];
    case 'paused':
      return [{ id: 'paused', data }];
    case 'rate-limited':
      return [{ id: 'rate-limited', data }, ...(input.response?.retryAfter ? [{ id: 'rateLimited.retryAfter', data: { retryAfter: input.response.retryAfter } }] : [])];
    case 'server-error':
      return [
        { id: 'server-error', data },
        ...(input.response?.retryAfter ? [{ id: 'serverError.transient', data: { retryAfter: input.response.retryAfter } }] : input.response?.transient ? [{ id: 'serverError.unavailable' }] : []),
      ];
  }
}

function htmlRefs(input: ExplainInput, data: Data): MessageRef[] {
  const refs: MessageRef[] = [{ id: input.response?.html ? 'html-not-api' : 'html.notJson', data }];
  if (safe(() => isSiteRoot(input.target.baseUrl))) refs.push({ id: 'html.siteRoot' });
  if (safe(() => hasTrackingQuery(input.target.baseUrl))) refs.push({ id: 'html.utm' });
  return refs;
}

function notFoundRefs(input: ExplainInput, data: Data): MessageRef[] {
  if (input.redirectLocation) return [{ id: 'notFound.redirect', data: { ...data, location: input.redirectLocation } }];
  const refs: MessageRef[] = [{ id: 'not-found', data }];
  if (input.serverMessage) refs.push({ id: 'serverSaid', data });
  const found = input.urlProblem;
  if (found) {
    const problem = found.problem;
    if (problem.kind === 'duplicate-segment') {
      // "The client appends /v1 itself" is true only when the doubling is the client's (base …/api/v1 + /v1/messages);
      // a base URL that already holds /v1/v1 is plainly duplicated, whatever the client.
      const inBase = safe(() => new URL(input.target.baseUrl).pathname.toLowerCase().includes(`${problem.segment}${problem.segment}`.toLowerCase())) === true;
      const version = /^\/v\d+[a-z]*$/i.test(problem.segment) && !inBase;
      refs.push({ id: version ? 'notFound.duplicateVersion' : 'notFound.duplicate', data: { segment: problem.segment, path: found.path } });
    } else if (problem.kind === 'empty-segment') {
      refs.push({ id: 'notFound.emptySegment', data: { path: found.path } });
    } else if (problem.kind === 'query-in-base') {
      refs.push({ id: 'notFound.queryInBase', data: { query: problem.query } });
    } else {
      refs.push({ id: 'notFound.endpointInBase', data: { segment: problem.segment } });
    }
  }
  if (input.chatUrlThatWorks) refs.push({ id: 'notFound.responses', data: { ...data, chatUrl: input.chatUrlThatWorks } });
  return refs;
}

function authRefs(input: ExplainInput, data: Data): MessageRef[] {
  const base = input.verdict === 'forbidden' ? 'forbidden' : 'unauthorized';
  if (!input.sentKey) {
    const refs: MessageRef[] = [{ id: `${base}.noKey`, data }];
    if (input.keyUnsendable) refs.push({ id: 'key.unsendable' });
    return refs;
  }
  const problems = keyProblems(input.sentKey);
  // A key rejection in another status (LiteLLM's 400 no_db_connection) quotes what the server said.
  const said: MessageRef[] = Number(data.status) !== 401 && Number(data.status) !== 403 && input.serverMessage ? [{ id: 'serverSaid', data }] : [];
  return [{ id: base, data: { ...data, masked: maskSecret(input.sentKey) } }, ...said, ...(problems.length ? problems : [{ id: 'key.check' }])];
}

function badRequestRefs(input: ExplainInput, data: Data): MessageRef[] {
  const refs: MessageRef[] = [{ id: 'bad-request', data }];
  if (Number(data.status) < 300) refs.push({ id: 'badRequest.notApiShape', data: { api: String(data.step) } });
  const message = input.serverMessage ?? '';
  const body = input.body ?? {};
  const cap = /(?:max(?:imum)?(?: allowed)?|at most|cap(?:ped)?|limit)\D{0,20}(\d+)/i.exec(message);
  if (/logprob/i.test(message) && cap && typeof body.top_logprobs === 'number' && body.top_logprobs > Number(cap[1])) {
    refs.push({ id: 'badRequest.topLogprobsCap', data: { cap: cap[1], requested: body.top_logprobs } });
  } else if (body.top_logprobs !== undefined && !body.logprobs && body.messages) {
    refs.push({ id: 'badRequest.topWithoutLogprobs' });
  }
  return refs;
}

function modelRefs(input: ExplainInput, data: Data): MessageRef[] {
  if (!input.model) return [{ id: 'model.needed' }];
  const refs: MessageRef[] = [{ id: 'model-not-found', data }];
  if (input.serverMessage) refs.push({ id: 'serverSaid', data });
  const models = input.models ?? [];
  if (models.length > 0) {
    refs.push({ id: 'model.available', data: { models: models.slice(0, 10).join(', ') + (models.length > 10 ? ', …' : '') } });
    const suggestion = didYouMean(input.model, models);
    if (suggestion) refs.push({ id: 'model.didYouMean', data: { suggestion } });
  }
  return refs;
}

/** Profiles of gateways that forward to an upstream and retry or wait on it (LiteLLM proxy: `num_retries`, `request_timeout`). */
const GATEWAYS = new Set(['litellm-proxy']);

/** What the provider profile adds: its name, and per verdict the documented base, models list or log-prob fact. */
function providerRefs(input: ExplainInput): MessageRef[] {
  const p = input.provider;
  if (!p) return [];
  const refs: MessageRef[] = [{ id: 'provider.named', data: { name: p.displayName, docs: p.docsUrl } }];
  switch (input.verdict) {
    case 'not-found':
    case 'html-not-api':
      if (p.websiteApiBase) refs.push({ id: 'provider.website', data: { name: p.displayName, api: p.websiteApiBase } });
      else if (p.documented.length > 0) refs.push({ id: 'provider.documented', data: { name: p.displayName, bases: { en: joinList(p.documented, 'en'), 'zh-CN': joinList(p.documented, 'zh-CN') } } });
      break;
    case 'model-not-found':
      if (p.modelsUrl) refs.push({ id: 'provider.models', data: { name: p.displayName, url: p.modelsUrl } });
      break;
    case 'no-logprobs':
      if (p.logprobs === 'no') refs.push({ id: 'provider.noLogprobs', data: { name: p.displayName, source: p.logprobsSource ?? p.docsUrl } });
      break;
    case 'timeout':
      if (GATEWAYS.has(p.id)) refs.push({ id: 'provider.gatewayTimeout', data: { name: p.displayName } });
      break;
  }
  return refs;
}

function contextRefs(input: ExplainInput): MessageRef[] {
  const refs: MessageRef[] = [];
  if (input.failedVariants.length > 0 && !input.chatUrlThatWorks) refs.push({ id: 'context.variantsFailed', data: { urls: input.failedVariants.join(', ') } });
  if (/^(0\.0\.0\.0|::)$/.test(input.targetHost)) refs.push({ id: 'context.bindAddress', data: { host: input.targetHost } });
  if (input.target.baseUrlSource === 'sdk-default') {
    const origin = safe(() => new URL(input.target.baseUrl).origin) ?? input.target.baseUrl;
    refs.push({ id: 'context.sdkDefault', data: { origin, names: (input.target.ignoredSettings ?? ['OPENAI_API_BASE']).join(', ') } });
  }
  return refs;
}

function safe<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
