import type { Consumer, Extraction, Format, Role, SdkCall, Setting } from '../model/types';
import type { LintConfig } from '../config/config';
import { BUILTIN_PROVIDERS, matchProviders, type ProviderProfile } from '../providers/profiles';
import { consumersOf } from './consumers';
import { isReferenceValue } from '../evidence/value';
import { isPlaceholderUrl } from '../rules/url-shape';
import { roleOf } from './roles';
import { effectiveRequestUrl, parseBaseUrl, sdkJoin, type ParsedBaseUrl } from './urls';
import { CLIENT_URL, clientsOf, requestPath, valueFor, type ClientReading, type NoRequestReason, type RequestClient } from './clients';
import { groupBy } from '../group-by';
import type { ClientPin } from '../workspace/client-pins';

/** The request one consumer sends on a base URL for one call (or, with no call in sight, the client's default). */
export interface EffectiveRequest {
  consumer: Consumer;
  url: string;
  /** HTTP method (`GET` for `models.list()`, else `POST`). */
  method: 'GET' | 'POST';
  /** The path the consumer appends (`/chat/completions`, `/completions`, `/models`), `''` for a URL used as written. */
  path: string;
  /** The SDK call that decides path and method (`client.completions.create`, `ChatOpenAI`), when one is in sight. */
  call?: string;
  /** The call's literal `model=`, when it has one. */
  model?: string;
  /** True when no call is in sight and the request is the client's default (a chat completion). */
  assumed?: boolean;
  /** False when the client sends nothing at all (curl refuses a URL with a space; httpx one without a scheme). */
  sent: boolean;
  /** Why nothing is sent, when `sent` is false. */
  reason?: NoRequestReason;
  /**
   * The modelled clients that send this URL, each with the `.env` loader it reads through (empty when the
   * consumer has no modelled client). Clients that send different URLs get separate requests.
   */
  clients: ClientReading[];
}

/** A base-URL setting with everything rules and hover need about it. */
export interface ResolvedBaseUrl {
  setting: Setting;
  /** `undefined` when the value is dynamic or not an absolute URL. */
  parsed: ParsedBaseUrl | undefined;
  /** Empty when no consumer is visible ("unknown"). */
  consumers: Consumer[];
  providers: ProviderProfile[];
  requests: EffectiveRequest[];
}

/** Role assignment and base-URL resolution for one document. */
export interface Resolution {
  /** Settings with a role (role filled in). */
  settings: Setting[];
  baseUrls: ResolvedBaseUrl[];
  providers: readonly ProviderProfile[];
  byRole(role: Role): Setting[];
}

/**
 * Assigns roles (built-in table + `config.extraKeys`), then resolves every literal base URL's
 * consumers, provider profiles and effective request URLs. Mutates `setting.role` in place, and
 * turns a reference value (`os.environ/NAME`, `isReferenceValue`) into a dynamic one. `pins`: the client
 * packages the project pins (`WorkspaceFacts.clientPins`), which decide which client versions the requests stand for.
 */
export function resolve(extraction: Extraction, config: LintConfig, pins: readonly ClientPin[] = []): Resolution {
  const providers = [...config.extraProviders, ...BUILTIN_PROVIDERS];
  const settings: Setting[] = [];
  for (const s of extraction.settings) {
    s.role = roleOf(s, config.extraKeys);
    if (s.role && s.value !== undefined && isReferenceValue(s.value)) {
      s.value = undefined;
      s.valueType = 'dynamic';
    }
    // A variable that code passes as a client's base (`url = "…"; OpenAI(base_url=url)`) is a base URL when its value is one, or a
    // placeholder for one (`"YOUR_ENDPOINT"`) passed as is: a placeholder joined into a string (`f"{ADDR}/v1"`) is often a
    // template slot that other code fills in by text replacement (lmdeploy eval/config.py `'http://<API_SERVER>'`).
    if (!s.role && isEvidenceTarget(s, extraction) && parseBaseUrl(s.value?.trim() ?? '')) s.role = 'baseUrl';
    else if (!s.role && s.valueType === 'string' && isPlaceholderUrl(s.value?.trim() ?? '') && isEvidenceTarget(s, extraction, true)) s.role = 'baseUrl';
    if (s.role) settings.push(s);
  }
  const groups = groupBy(extraction.settings, (s) => s.group);
  const groupOf = (group: string) => groups.get(group) ?? [];
  const baseUrls: ResolvedBaseUrl[] = [];
  for (const setting of settings) {
    if (setting.role !== 'baseUrl' || setting.value === undefined) continue;
    const value = setting.value.trim();
    const parsed = parseBaseUrl(value);
    const consumers = consumersOf(setting, groupOf, extraction.consumerEvidence);
    const calls = extraction.sdkCalls ?? [];
    baseUrls.push({
      setting,
      parsed,
      consumers,
      providers: parsed ? matchProviders(value, providers) : [],
      requests: parsed || SCHEMELESS.test(value) ? consumers.flatMap((consumer) => requestsOf(setting, value, consumer, calls, parsed !== undefined, pins)) : [],
    });
  }
  return { settings, baseUrls, providers, byRole: rolesOf(settings) };
}

/**
 * `Resolution.byRole` over `settings`: each role's list is computed once (rules ask for it per
 * setting; a fresh filter each time made a 1,000-line `.env` quadratic) and frozen, since every
 * caller shares it. Roles are final once `resolve` returns.
 */
export function rolesOf(settings: readonly Setting[]): (role: Role) => Setting[] {
  const lists = new Map<Role, Setting[]>();
  return (role) => {
    let list = lists.get(role);
    if (!list) lists.set(role, (list = Object.freeze(settings.filter((s) => s.role === role)) as Setting[]));
    return list;
  };
}

/** A host[:port][/path] written without a scheme (`127.0.0.1:8000/v1`): every client raises, so its rows say "no request". */
const SCHEMELESS = /^[a-z0-9][a-z0-9.-]*(:\d+)?(\/|$)/i;

/** Clients whose program picks the call (and so the path and method) on a base URL. */
const SDK_CLIENTS = new Set<RequestClient>(['openai-node', 'langchain-js', 'openai-python', 'openai-python-2', 'anthropic-node', 'anthropic-python']);

/** The SDK family whose calls a consumer's base URL serves. */
const FAMILY: Partial<Record<Consumer['id'], SdkCall['family']>> = { 'openai-sdk': 'openai', anthropic: 'anthropic' };

/**
 * The calls in the document that request `setting` for `consumer`: those on the client its kwarg
 * constructs (`client = OpenAI(base_url=…)` → `client.models.list()`), or, for an environment variable,
 * those on clients whose `base_url` reads it (`OpenAI(base_url=os.environ["X"])`, the read's range inside
 * the argument) and, when no client does, those built without `base_url` (the SDK reads the variable then).
 */
export function callsFor(setting: Setting, consumer: Consumer, calls: readonly SdkCall[]): SdkCall[] {
  const family = FAMILY[consumer.id];
  if (!family || consumer.appendedPath !== undefined) return [];
  const envLike = setting.kind === 'env' || setting.kind === 'envDefault';
  if (setting.kind === 'kwarg') return calls.filter((c) => c.family === family && c.clientGroup === setting.group);
  if (envLike) {
    const r = setting.valueRange;
    const passed = calls.filter((c) => c.family === family && c.clientBaseRange !== undefined && c.clientBaseRange.start <= r.start && r.end <= c.clientBaseRange.end);
    return passed.length > 0 ? passed : calls.filter((c) => c.family === family && !c.clientHasBaseUrl);
  }
  return [];
}

const PYTHON_CLIENTS: ReadonlySet<RequestClient> = new Set(['openai-python', 'openai-python-2', 'anthropic-python', 'requests', 'httpx']);
/** The clients that can run in a document of each format (a value read there is read by one of them). */
const CLIENTS_BY_FORMAT: Partial<Record<Format, ReadonlySet<RequestClient>>> = {
  python: PYTHON_CLIENTS,
  notebook: PYTHON_CLIENTS,
  javascript: new Set(['openai-node', 'langchain-js', 'anthropic-node']),
};

/**
 * The clients that may read `setting` for `consumer` (`clientsOf`). A base URL imported from another
 * file (`Setting.origin`: a `.env` value read by `OpenAI()` here; its `format` is the reader's) is read
 * by the reader's own clients only: a Python reader does not send openai-node's request. All of them
 * when none of the reader's language is among them.
 */
function readersOf(setting: Setting, consumer: Consumer, pins: readonly ClientPin[]): ClientReading[] {
  const all = clientsOf(setting, consumer.id, consumer.via, pins);
  const here = setting.origin ? CLIENTS_BY_FORMAT[setting.format] : undefined;
  if (!here) return all;
  const kept = all.filter((r) => here.has(r.client));
  return kept.length > 0 ? kept : all;
}

/**
 * The requests the clients that may read `setting` send for `consumer` (`readersOf`): per call in sight (its path and
 * method), else the client's default marked `assumed`; one request per distinct URL, labelled with the
 * clients (and `.env` loaders) that send it. Consumers without a modelled client use
 * `effectiveRequestUrl` on the trimmed value. `parsed` false: the value has no scheme, nothing is sent.
 */
function requestsOf(setting: Setting, value: string, consumer: Consumer, calls: readonly SdkCall[], parsed: boolean, pins: readonly ClientPin[]): EffectiveRequest[] {
  const decided = callsFor(setting, consumer, calls);
  // SDK method calls in sight are made by the SDK's client, not by LangChain JS (which has none of them).
  const readings = readersOf(setting, consumer, pins).filter((r) => decided.length === 0 || r.client !== 'langchain-js');
  const operationOnly = consumer.appendedPath === undefined && consumer.operationPath !== undefined;
  const shapes: { method: 'GET' | 'POST'; path: string; call?: string; model?: string; assumed?: boolean }[] = [];
  for (const c of decided) {
    const same = shapes.find((x) => x.method === c.method && x.path === c.path);
    if (same) same.model ??= c.model;
    else shapes.push({ method: c.method, path: c.path, call: c.callee, ...(c.model !== undefined ? { model: c.model } : {}) });
  }
  if (shapes.length === 0) {
    const assumed = FAMILY[consumer.id] !== undefined && consumer.appendedPath === undefined && readings.some((r) => SDK_CLIENTS.has(r.client));
    // An embeddings (or other operation) client names its own path (`/embeddings`), not chat's.
    const path = operationOnly ? consumer.operationPath! : requestPath(consumer.id, consumer.appendedPath);
    shapes.push({ method: 'POST', path, ...(assumed ? { assumed } : {}) });
  }
  const out: EffectiveRequest[] = [];
  for (const shape of shapes) {
    const before = out.length;
    for (const reading of readings) {
      const base = valueFor(setting, reading.client, reading.loader);
      if (base === undefined) continue;
      const joined = parsed ? CLIENT_URL[reading.client].join(base, shape.path) : { url: base + shape.path, sent: false, reason: 'no-scheme' as const };
      const same = out.slice(before).find((r) => r.url === joined.url && r.sent === joined.sent);
      if (same) same.clients.push(reading);
      else out.push({ consumer, ...shape, url: joined.url, sent: joined.sent, ...(joined.reason ? { reason: joined.reason } : {}), clients: [reading] });
    }
    if (out.length === before) {
      const url = operationOnly ? sdkJoin(value.trim(), shape.path) : effectiveRequestUrl(value, consumer.id, consumer.appendedPath);
      out.push({ consumer, ...shape, url: parsed ? url : value + shape.path, sent: parsed, ...(parsed ? {} : { reason: 'no-scheme' as const }), clients: [] });
    }
  }
  return out;
}

/**
 * A setting whose name code joins a path onto (`f"{ROUTER}/v1/chat/completions"`) or hands to a
 * client as its base is a base URL whatever it is called. `whole`: only a use as a client's whole base (`OpenAI(base_url=X)`), no join.
 */
function isEvidenceTarget(setting: Setting, extraction: Extraction, whole = false): boolean {
  const targets = setting.kind === 'assignment' ? [setting.path, setting.key] : setting.kind === 'env' || setting.kind === 'envDefault' ? [`env:${setting.envName ?? setting.key}`] : [];
  // A value handed whole to an HTTP call (`requests.get(db_url)`) is a URL, not a base: no promotion.
  return extraction.consumerEvidence.some(
    (e) => targets.includes(e.target) && !(e.consumer.id === 'raw' && e.consumer.appendedPath === undefined) && (!whole || (e.consumer.appendedPath === undefined && e.consumer.id !== 'raw')),
  );
}
