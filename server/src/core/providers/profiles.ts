import type { Locale } from '../messages/locale';
import { isLocalHost } from '../model/hosts';
import { BUILTIN_PROFILES } from './builtin';

/** The facts a profile can state; each stated fact of a built-in profile names its source. */
export type ProfileFact =
  | 'hosts'
  | 'localPorts'
  | 'openaiBases'
  | 'chatUrl'
  | 'modelsUrl'
  | 'anthropicBase'
  | 'nativeBases'
  | 'websiteHosts'
  | 'keyPrefixes'
  | 'keyEnv'
  | 'baseEnv'
  | 'logprobs'
  | 'topLogprobsMax';

/**
 * Provider profiles: what each OpenAI-compatible endpoint documents. Data, each fact with its source;
 * users add more through `rolloutLint.extraProviders` / `.rolloutlintrc.json` `extraProviders`.
 * URLs may hold `{placeholders}` (`https://{resource}.openai.azure.com/openai/v1`): the user's own
 * resource or region, matched by `hostMatches`.
 */
export interface ProviderProfile {
  id: string;
  /** Display name in English (`OpenAI`, `local SGLang server`). */
  name: string;
  /**
   * Display name in Simplified Chinese, when `name` holds more than proper nouns (`local SGLang server`
   * → `本地 SGLang 服务器`, `OpenClaw-RL proxy` → `OpenClaw-RL 代理`); proper nouns stay as spelled.
   * Absent: `name` in every locale. Read it through `providerName`.
   */
  nameZh?: string;
  /**
   * Host names (lower case) that identify the provider: exact or any subdomain; a `*` stands for one
   * label (`bedrock-runtime.*.amazonaws.com`). Empty for local servers matched by port.
   */
  hosts: string[];
  /** Loopback/LAN servers: matched by port on any local or private host. */
  localPorts?: number[];
  docsUrl: string;
  /** Base URLs the provider documents for OpenAI-SDK-style clients (joined with `/chat/completions`), one per region. */
  openaiBases: string[];
  /** The documented chat completions URL. */
  chatUrl: string;
  modelsUrl: string;
  /** Base for Anthropic-style clients that append `/v1/messages` themselves, if the provider offers one. */
  anthropicBase?: string;
  /** The provider's own, non-OpenAI API bases (DashScope `…/api/v1`): wrong under an OpenAI client. */
  nativeBases?: string[];
  /** Hosts of the provider's website, docs or console (exact match): never an API base. */
  websiteHosts?: string[];
  /** Whether chat completions return `logprobs` when asked; `unknown` when the docs do not say. */
  logprobs: 'supported' | 'unknown' | 'no';
  /** The documented upper bound of `top_logprobs` for chat completions, when one is documented. */
  topLogprobsMax?: number;
  /** Key prefixes that identify this provider's keys (`sk-ant-`); the shared `sk-` is listed but never distinctive. */
  keyPrefixes?: string[];
  /** Environment variables that hold this provider's key and base URL. */
  keyEnv?: string[];
  baseEnv?: string[];
  /** Where each fact comes from: a URL of the provider's own docs page or official SDK (built-ins always). */
  sources?: Partial<Record<ProfileFact, string>>;
  /** One line naming the sources, for hover and user profiles (`.rolloutlintrc.json (path)`). */
  source: string;
}

/** Built-in profiles (`./builtin`). TaoToken first: it is the default `ping` target. */
export const BUILTIN_PROVIDERS: readonly ProviderProfile[] = BUILTIN_PROFILES;

/** The display name of `profile` in `locale`: `nameZh` under zh-CN when the profile has one, else `name`. */
export function providerName(profile: Pick<ProviderProfile, 'name' | 'nameZh'>, locale: Locale): string {
  return locale === 'zh-CN' && profile.nameZh ? profile.nameZh : profile.name;
}

/** The display names of several profiles that match one URL (local servers on one port), joined with ` / ` ("or"). */
export function providerNames(profiles: readonly Pick<ProviderProfile, 'name' | 'nameZh'>[], locale: Locale): string {
  return profiles.map((p) => providerName(p, locale)).join(' / ');
}

/** Key prefixes shared by many providers (OpenAI, DeepSeek, Moonshot, DashScope, SiliconFlow all issue `sk-…`). */
const SHARED_KEY_PREFIXES = new Set(['sk-']);

/** A host pattern (`bedrock-runtime.*.amazonaws.com`, `{resource}.openai.azure.com`) as a test on a lower-case host. */
function hostPattern(pattern: string): (host: string) => boolean {
  // Built once per pattern (the same few hundred profile hosts are tested for every base URL of every file).
  const cached = HOST_TESTS.get(pattern);
  if (cached) return cached;
  if (HOST_TESTS.size >= 4096) HOST_TESTS.clear();
  const test = hostTest(pattern);
  HOST_TESTS.set(pattern, test);
  return test;
}

/** `hostPattern`'s tests by pattern (patterns come from the built-in profiles and the config's `extraProviders`). */
const HOST_TESTS = new Map<string, (host: string) => boolean>();

function hostTest(pattern: string): (host: string) => boolean {
  if (!/[*{]/.test(pattern)) return (host) => host === pattern || host.endsWith(`.${pattern}`);
  const source = pattern
    .split('.')
    .map((label) => (label === '*' || /^\{[^}]+\}$/.test(label) ? '[a-z0-9-]+' : label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('\\.');
  const re = new RegExp(`^(?:[a-z0-9-]+\\.)*${source}$`);
  return (host) => re.test(host);
}

/** Whether `host` (lower case) is one of the profile's hosts. */
export function profileHasHost(profile: ProviderProfile, host: string): boolean {
  return profile.hosts.some((h) => hostPattern(h)(host));
}

/** Whether `host` is the host of a documented URL (`{placeholders}` match one label each). */
export function hostMatches(documentedHost: string, host: string): boolean {
  if (!/[*{]/.test(documentedHost)) return documentedHost === host;
  return hostPattern(documentedHost)(host) && host.split('.').length === documentedHost.split('.').length;
}

/** A documented URL split for comparison: `{placeholders}` kept in `host`; `path` without trailing `/`. */
export interface DocumentedUrl {
  url: string;
  host: string;
  path: string;
}

/** Splits a documented URL (`https://{resource}.openai.azure.com/openai/v1/`); `undefined` when unparsable. */
export function splitDocumentedUrl(url: string): DocumentedUrl | undefined {
  const m = /^https?:\/\/([^/?#]+)(\/[^?#]*)?/i.exec(url);
  if (!m) return undefined;
  return { url, host: m[1].toLowerCase().replace(/:(80|443)$/, ''), path: (m[2] ?? '').replace(/\/+$/, '') };
}

/**
 * A documented URL made concrete for the user's host: placeholders replaced by the host the user
 * configured (`https://{resource}.openai.azure.com/openai/v1` + `myres.openai.azure.com`).
 */
export function concreteUrl(documented: string, actualOrigin: string): string {
  if (!/[{*]/.test(documented)) return documented;
  return documented.replace(/^https?:\/\/[^/?#]+/i, actualOrigin);
}

/**
 * The profiles matching a URL: by host name (see `ProviderProfile.hosts`), or, for local/LAN hosts and
 * single-label service names (`sglang`, `vllm-server`; see `isLocalHost`), by port. Returns `[]` for unparsable URLs.
 */
export function matchProviders(url: string, profiles: readonly ProviderProfile[] = BUILTIN_PROVIDERS): ProviderProfile[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const host = parsed.hostname.toLowerCase();
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  const byHost = profiles.filter((p) => profileHasHost(p, host));
  if (byHost.length > 0) return byHost;
  if (!isLocalHost(host)) return [];
  return profiles.filter((p) => p.localPorts?.includes(port));
}

/** The profile whose website/docs/console host (exact) is the URL's host, if any. */
export function matchWebsite(url: string, profiles: readonly ProviderProfile[] = BUILTIN_PROVIDERS): ProviderProfile | undefined {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  return profiles.find((p) => p.websiteHosts?.includes(host));
}

/**
 * The provider a key belongs to by its prefix, longest distinctive prefix first (`sk-ant-` wins over
 * `sk-`); `undefined` when the key carries only a shared prefix (`sk-`) or none.
 */
export function providerOfKey(key: string, profiles: readonly ProviderProfile[] = BUILTIN_PROVIDERS): { profile: ProviderProfile; prefix: string } | undefined {
  let best: { profile: ProviderProfile; prefix: string } | undefined;
  for (const profile of profiles) {
    for (const prefix of profile.keyPrefixes ?? []) {
      if (SHARED_KEY_PREFIXES.has(prefix) || !key.startsWith(prefix)) continue;
      if (!best || prefix.length > best.prefix.length) best = { profile, prefix };
    }
  }
  return best;
}

/** The base URL a client of kind `consumer` should use for this profile, concrete for `origin` when given. */
export function documentedBaseFor(profile: ProviderProfile, consumer: string, origin?: string): string | undefined {
  const bases = consumer === 'anthropic' ? (profile.anthropicBase ? [profile.anthropicBase] : []) : profile.openaiBases;
  if (bases.length === 0) return undefined;
  const host = origin ? splitDocumentedUrl(origin)?.host : undefined;
  const sameHost = host ? bases.find((b) => hostMatches(splitDocumentedUrl(b)?.host ?? '', host)) : undefined;
  const chosen = sameHost ?? bases[0];
  return origin ? concreteUrl(chosen, origin) : chosen;
}

/**
 * Whether one of `providers` documents `path` (no trailing `/`) as a base on `host` (lower case;
 * local profiles: any host), for OpenAI-style or Anthropic-style clients.
 */
export function documentsBasePath(providers: readonly ProviderProfile[], host: string, path: string): boolean {
  return providers.some((p) =>
    [...p.openaiBases, p.anthropicBase ?? ''].some((b) => {
      const d = splitDocumentedUrl(b);
      return d !== undefined && d.path === path && ((p.localPorts?.length ?? 0) > 0 || hostMatches(d.host, host));
    }),
  );
}
