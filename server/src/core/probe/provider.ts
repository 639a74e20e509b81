import { BUILTIN_PROVIDERS, hostMatches, matchProviders, matchWebsite, providerNames, splitDocumentedUrl, type ProviderProfile } from '../providers/profiles';
import type { Localized, ProbeConsumer } from './types';

/** What the probe knows about the provider behind a base URL, from its profile (all URLs concrete for the target). */
export interface ProbeProvider {
  id: string;
  /** Display name in English; several local servers on one port are joined (`local SGLang / OpenClaw-RL proxy`). */
  name: string;
  /** The display name in each locale (`本地 SGLang 服务器 / OpenClaw-RL 代理` in zh-CN), for messages. */
  displayName: Localized;
  docsUrl: string;
  /** The documented models list URL on the target's origin. */
  modelsUrl?: string;
  /** Bases the profile documents for the consumer on the target's origin, other than the target itself. */
  documented: string[];
  /** Set when the target is the provider's website: the API base to use instead. */
  websiteApiBase?: string;
  logprobs: ProviderProfile['logprobs'];
  /** Where the log-prob fact comes from. */
  logprobsSource?: string;
}

const trim = (url: string) => url.replace(/\/+$/, '');

/**
 * The provider profile matching a probe target (website hosts first, then API hosts, then local ports),
 * with its documented URLs made concrete for the target's origin. `undefined` when no profile matches.
 */
export function providerForProbe(baseUrl: string, consumer: ProbeConsumer, profiles: readonly ProviderProfile[] = BUILTIN_PROVIDERS): ProbeProvider | undefined {
  let target: URL;
  try {
    target = new URL(baseUrl);
  } catch {
    return undefined;
  }
  const website = matchWebsite(baseUrl, profiles);
  if (website) {
    const api = consumer === 'anthropic' && website.anthropicBase ? website.anthropicBase : website.openaiBases[0];
    return { ...facts(website, [website]), documented: [], websiteApiBase: /[{*]/.test(api) ? undefined : api };
  }
  const matched = matchProviders(baseUrl, profiles);
  if (matched.length === 0) return undefined;
  const primary = matched[0];
  const local = (primary.localPorts?.length ?? 0) > 0;
  const host = target.hostname.toLowerCase();
  const onOrigin = (url: string): string | undefined => {
    const d = splitDocumentedUrl(url);
    if (!d) return undefined;
    // Same host: keep the user's own origin (scheme, port, resource name) and take the documented path.
    return local || hostMatches(d.host, host) ? target.origin + d.path : undefined;
  };
  const bases = consumer === 'anthropic' ? (primary.anthropicBase ? [primary.anthropicBase] : []) : consumer === 'openai-sdk' || consumer === 'openai-responses' ? primary.openaiBases : [];
  const documented = [...new Set(bases.map(onOrigin).filter((u): u is string => !!u).map(trim))].filter((u) => u !== trim(baseUrl));
  return { ...facts(primary, matched), modelsUrl: onOrigin(primary.modelsUrl), documented };
}

function facts(profile: ProviderProfile, named: readonly ProviderProfile[]): Omit<ProbeProvider, 'documented'> {
  const displayName = { en: providerNames(named, 'en'), 'zh-CN': providerNames(named, 'zh-CN') };
  return { id: profile.id, name: displayName.en, displayName, docsUrl: profile.docsUrl, logprobs: profile.logprobs, logprobsSource: profile.sources?.logprobs };
}
