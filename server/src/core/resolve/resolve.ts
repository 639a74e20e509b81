import type { Consumer, Extraction, Role, Setting } from '../model/types';
import type { LintConfig } from '../config/config';
import { BUILTIN_PROVIDERS, matchProviders, type ProviderProfile } from '../providers/profiles';
import { consumersOf } from './consumers';
import { isReferenceValue } from '../evidence/value';
import { roleOf } from './roles';
import { effectiveRequestUrl, parseBaseUrl, sdkJoin, type ParsedBaseUrl } from './urls';
import { CLIENT_URL, clientsOf, requestPath, valueFor, type ClientReading } from './clients';

/** The URL one consumer will request for a chat call on a base URL. */
export interface EffectiveRequest {
  consumer: Consumer;
  url: string;
  /** False when the client sends nothing at all (curl refuses a URL with a space; httpx one without a scheme). */
  sent: boolean;
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
 * turns a reference value (`os.environ/NAME`, `isReferenceValue`) into a dynamic one.
 */
export function resolve(extraction: Extraction, config: LintConfig): Resolution {
  const providers = [...config.extraProviders, ...BUILTIN_PROVIDERS];
  const settings: Setting[] = [];
  for (const s of extraction.settings) {
    s.role = roleOf(s, config.extraKeys);
    if (s.role && s.value !== undefined && isReferenceValue(s.value)) {
      s.value = undefined;
      s.valueType = 'dynamic';
    }
    if (!s.role && isEvidenceTarget(s, extraction) && parseBaseUrl(s.value?.trim() ?? '')) s.role = 'baseUrl';
    if (s.role) settings.push(s);
  }
  const groups = new Map<string, Setting[]>();
  for (const s of extraction.settings) {
    const list = groups.get(s.group);
    if (list) list.push(s);
    else groups.set(s.group, [s]);
  }
  const groupOf = (group: string) => groups.get(group) ?? [];
  const baseUrls: ResolvedBaseUrl[] = [];
  for (const setting of settings) {
    if (setting.role !== 'baseUrl' || setting.value === undefined) continue;
    const value = setting.value.trim();
    const parsed = parseBaseUrl(value);
    const consumers = consumersOf(setting, groupOf, extraction.consumerEvidence);
    baseUrls.push({
      setting,
      parsed,
      consumers,
      providers: parsed ? matchProviders(value, providers) : [],
      requests: parsed ? consumers.flatMap((consumer) => requestsOf(setting, value, consumer)) : [],
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

/**
 * The URLs the clients that may read `setting` send for `consumer`: one request when they agree, else one
 * per client (labelled with the client and its `.env` loader). Consumers without a modelled client use
 * `effectiveRequestUrl` on the trimmed value.
 */
function requestsOf(setting: Setting, value: string, consumer: Consumer): EffectiveRequest[] {
  const path = consumer.appendedPath === undefined && consumer.operationPath !== undefined ? consumer.operationPath : requestPath(consumer.id, consumer.appendedPath);
  const out: EffectiveRequest[] = [];
  for (const reading of clientsOf(setting, consumer.id, consumer.via)) {
    const base = valueFor(setting, reading.client, reading.loader);
    if (base === undefined) continue;
    const { url, sent } = CLIENT_URL[reading.client].join(base, path);
    const same = out.find((r) => r.url === url && r.sent === sent);
    if (same) same.clients.push(reading);
    else out.push({ consumer, url, sent, clients: [reading] });
  }
  const fallback = consumer.appendedPath === undefined && consumer.operationPath !== undefined ? sdkJoin(value.trim(), consumer.operationPath) : effectiveRequestUrl(value, consumer.id, consumer.appendedPath);
  return out.length > 0 ? out : [{ consumer, url: fallback, sent: true, clients: [] }];
}

/**
 * A setting whose name code joins a path onto (`f"{ROUTER}/v1/chat/completions"`) or hands to a
 * client as its base is a base URL whatever it is called.
 */
function isEvidenceTarget(setting: Setting, extraction: Extraction): boolean {
  const targets = setting.kind === 'assignment' ? [setting.path, setting.key] : setting.kind === 'env' || setting.kind === 'envDefault' ? [`env:${setting.envName ?? setting.key}`] : [];
  // A value handed whole to an HTTP call (`requests.get(db_url)`) is a URL, not a base: no promotion.
  return extraction.consumerEvidence.some((e) => targets.includes(e.target) && !(e.consumer.id === 'raw' && e.consumer.appendedPath === undefined));
}
