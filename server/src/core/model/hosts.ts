/**
 * Facts about host names and IP literals, shared by rules, provider matching and the probe's callers.
 * Pure functions of the text; no DNS.
 */

/** A host name or IP literal without IPv6 brackets, lower-cased. */
export function bareHost(host: string): string {
  return host.trim().replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/** The 32-bit value of a dotted-quad IPv4 address, or `undefined`. */
export function ipv4(host: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0] << 24) >>> 0) + (parts[1] << 16) + (parts[2] << 8) + parts[3];
}

/** `localhost` (and `*.localhost`), 127.0.0.0/8, `::1` (RFC 6761, RFC 1122, RFC 4291). */
export function isLoopbackHost(host: string): boolean {
  const h = bareHost(host);
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1') return true;
  const v4 = ipv4(h);
  return v4 !== undefined && v4 >>> 24 === 127;
}

/** Loopback, RFC 1918 (10/8, 172.16/12, 192.168/16), link-local 169.254/16, IPv6 ULA fc00::/7 and fe80::/10. */
export function isPrivateHost(host: string): boolean {
  const h = bareHost(host);
  if (isLoopbackHost(h)) return true;
  const v4 = ipv4(h);
  if (v4 !== undefined) {
    const a = v4 >>> 24;
    const b = (v4 >>> 16) & 0xff;
    return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  return /^f[cd][0-9a-f]{0,2}:/.test(h) || /^fe[89ab][0-9a-f]?:/.test(h);
}

/**
 * True for hosts reached over plain http in practice: private hosts (above), the unspecified
 * addresses `0.0.0.0`/`::`, CGNAT 100.64/10 (Tailscale), `host.docker.internal`,
 * `.local`/`.lan`/`.internal`/`home.arpa` names and single-label names (Compose services, LAN hosts).
 */
export function isLocalHost(host: string): boolean {
  const h = bareHost(host);
  if (isPrivateHost(h) || h === '::' || h === 'host.docker.internal') return true;
  if (/\.(local|lan|internal|home\.arpa)$/.test(h)) return true;
  if (!h.includes('.') && !h.includes(':')) return true;
  const v4 = ipv4(h);
  if (v4 === undefined) return false;
  const a = v4 >>> 24;
  const b = (v4 >>> 16) & 0xff;
  return a === 0 || (a === 100 && b >= 64 && b <= 127);
}
