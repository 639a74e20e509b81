import type { Setting } from '../model/types';
import type { Resolution } from '../resolve/resolve';
import type { LintDocument } from './rule';
import { normalizeKey } from '../resolve/roles';
import { inCidr, noProxyEntries, parseCidr } from './hosts';

/** The proxy settings of one document: proxies with a literal non-empty value, and `no_proxy`/`NO_PROXY`. */
export interface ProxySetup {
  proxies: Setting[];
  noProxy: Setting[];
  /** The entries of every literal `no_proxy`/`NO_PROXY` (clients read both spellings). */
  entries: string[];
}

export function proxySetup(resolution: Resolution): ProxySetup {
  const proxies = resolution.byRole('proxy').filter((s) => s.value !== undefined && s.value.trim() !== '');
  const noProxy = resolution.byRole('noProxy').filter((s) => s.value !== undefined);
  return { proxies, noProxy, entries: noProxy.flatMap((s) => noProxyEntries(s.value!)) };
}

/**
 * The proxy a client uses for a URL scheme (urllib `getproxies()`, which httpx and requests use):
 * `http_proxy` for http, `https_proxy` for https, `all_proxy` for either.
 */
export function proxyFor(setup: ProxySetup, scheme: string): Setting | undefined {
  const wanted = scheme === 'https' ? 'https_proxy' : 'http_proxy';
  return setup.proxies.find((s) => normalizeKey(s.key) === wanted) ?? setup.proxies.find((s) => normalizeKey(s.key) === 'all_proxy');
}

/** The `no_proxy` CIDR entries that cover `host` (IPv4 only). */
export function coveringCidrs(entries: readonly string[], host: string): string[] {
  return entries.filter((e) => {
    const cidr = parseCidr(e);
    return cidr !== undefined && inCidr(host, cidr);
  });
}

/**
 * True for a Python file whose only HTTP client is `requests`, which honours CIDR ranges in
 * `no_proxy` (requests.utils.should_bypass_proxies → address_in_network). httpx (and so the openai
 * SDK), urllib and aiohttp match `no_proxy` by name only.
 */
export function requestsOnly(document: LintDocument): boolean {
  if (document.format !== 'python') return false;
  const imports = (name: string) => new RegExp(`^\\s*(?:import|from)\\s+${name}\\b`, 'm').test(document.text);
  return imports('requests') && !['httpx', 'openai', 'urllib', 'urllib3', 'aiohttp', 'langchain\\w*', 'litellm', 'anthropic'].some(imports);
}

/**
 * An edit that appends `hosts` to a literal `no_proxy` value (after its last character, inside any
 * quotes), or `undefined` when the value is not a plain literal.
 */
export function appendToNoProxy(setting: Setting, hosts: readonly string[], text: string): { range: { start: number; end: number }; text: string } | undefined {
  if (setting.value === undefined || text.slice(setting.contentRange.start, setting.contentRange.end) !== setting.value) return undefined;
  const separator = setting.value.trim() === '' || setting.value.trimEnd().endsWith(',') ? '' : ',';
  const end = setting.contentRange.start + setting.value.trimEnd().length;
  return { range: { start: end, end }, text: separator + hosts.join(',') };
}
