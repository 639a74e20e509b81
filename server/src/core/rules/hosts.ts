import type { Extraction, Setting } from '../model/types';
import { parseBaseUrl } from '../resolve/urls';
import { bareHost, ipv4 } from '../model/hosts';

/** An IPv4 CIDR range `a.b.c.d/n`, or `undefined` for anything else. */
export function parseCidr(entry: string): { base: number; bits: number } | undefined {
  const m = /^([\d.]+)\/(\d{1,2})$/.exec(entry.trim());
  const base = m ? ipv4(m[1]) : undefined;
  const bits = m ? Number(m[2]) : NaN;
  return base === undefined || bits > 32 ? undefined : { base, bits };
}

/** True for `a.b.c.d/n` and IPv6 `x::/n` entries. */
export function isCidrEntry(entry: string): boolean {
  return parseCidr(entry) !== undefined || /^[0-9a-f:]*:[0-9a-f:]*\/\d{1,3}$/i.test(entry.trim());
}

/** Whether an IPv4 host lies in an IPv4 CIDR range. */
export function inCidr(host: string, cidr: { base: number; bits: number }): boolean {
  const v4 = ipv4(bareHost(host));
  if (v4 === undefined) return false;
  const mask = cidr.bits === 0 ? 0 : (0xffffffff << (32 - cidr.bits)) >>> 0;
  return ((v4 & mask) >>> 0) === ((cidr.base & mask) >>> 0);
}

/** The comma-separated entries of a `no_proxy` value, trimmed, empty ones dropped. */
export function noProxyEntries(value: string): string[] {
  return value.split(',').map((e) => e.trim()).filter((e) => e.length > 0);
}

/**
 * Whether a `no_proxy` entry exempts `host` by name, the way urllib's `proxy_bypass_environment`
 * and httpx's `get_environment_proxies` read it: `*` matches all; an IP matches itself; a name matches
 * itself and its subdomains (a leading `.` or `*.` is ignored); a `:port` suffix is ignored. CIDR
 * ranges match nothing here (see `proxy-no-proxy-cidr`).
 */
export function noProxyMatches(entry: string, host: string): boolean {
  const e = entry.trim().toLowerCase();
  const h = bareHost(host);
  if (e === '*') return true;
  if (e.includes('/')) return false;
  const name = e.replace(/^\[(.*)\](?::\d+)?$/, '$1').replace(/^([^:]*):\d+$/, '$1').replace(/^\*?\./, '');
  if (name === '') return false;
  return h === name || h.endsWith(`.${name}`);
}

/** A place the document sends requests to: a host and the setting that names it. */
export interface Destination {
  host: string;
  /** `http` or `https`; `http` for bare host settings (router IPs are plain HTTP). */
  scheme: string;
  setting: Setting;
}

/**
 * Every destination the document names: base URLs, host-role settings (`--sglang-router-ip`,
 * `VLLM_SERVER_HOST`), and any other literal `http(s)://` value outside proxy settings
 * (`SGLANG_ROUTER_URL`, curl URLs). One entry per setting. Reads `setting.role`, so call it after `resolve`.
 */
export function destinations(extraction: Extraction): Destination[] {
  const out: Destination[] = [];
  for (const setting of extraction.settings) {
    if (setting.value === undefined || setting.role === 'proxy' || setting.role === 'noProxy') continue;
    const value = setting.value.trim();
    if (setting.role === 'host') {
      if (value && !/\s/.test(value)) out.push({ host: bareHost(value), scheme: 'http', setting });
      continue;
    }
    if (setting.role !== 'baseUrl' && !/^https?:\/\//i.test(value)) continue;
    const parsed = parseBaseUrl(value);
    if (parsed && (parsed.scheme === 'http' || parsed.scheme === 'https') && parsed.host) out.push({ host: bareHost(parsed.host), scheme: parsed.scheme, setting });
  }
  return out;
}
