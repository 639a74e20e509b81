// Network pieces of the probe transports that need no HTTP client, shared by the CLI's undici
// transport (probe-transport.ts) and the VS Code extension host's (client/src/connection/transport.ts).
import { lookup as dnsLookup } from 'node:dns/promises';
import net from 'node:net';
import tls from 'node:tls';
import type { ConnectResult } from '../core/probe/types';

/** Thrown (code `ERR_ROLLOUT_LINT_ADDRESS_REFUSED`) when `allowAddress` rejects the resolved address. */
export class AddressRefusedError extends Error {
  readonly code = 'ERR_ROLLOUT_LINT_ADDRESS_REFUSED';
  constructor(host: string, address: string) {
    super(`refusing to connect to ${host} (${address}): address not allowed`);
  }
}

/** True for 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
export function isLoopbackAddress(address: string): boolean {
  return /^127\.\d+\.\d+\.\d+$/.test(address) || address === '::1' || /^::ffff:127\.\d+\.\d+\.\d+$/i.test(address);
}

/** Proxy variables as undici's `EnvHttpProxyAgent` reads them. */
export interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/** The proxy variables of `env` (lower case wins, as in undici). */
export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings {
  return {
    httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? '',
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? '',
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  };
}

/**
 * The proxy undici's `EnvHttpProxyAgent` (v7) would use for `url`: `NO_PROXY` entries split on commas
 * or spaces, optional `:port`, a leading `.` or `*.` stripped, matching the host or its subdomains;
 * `*` disables proxying. CIDR ranges are not understood (as in undici and httpx).
 */
export function proxyForUrl(url: string, settings: ProxySettings): string | undefined {
  const parsed = new URL(url);
  const proxy = parsed.protocol === 'https:' ? settings.httpsProxy || settings.httpProxy : settings.httpProxy;
  if (!proxy) return undefined;
  if (settings.noProxy.trim() === '*') return undefined;
  const host = parsed.hostname.toLowerCase();
  const port = Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80);
  for (const entry of settings.noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const match = /^(.+):(\d+)$/.exec(entry);
    const name = (match ? match[1] : entry).replace(/^\*?\./, '').toLowerCase();
    if (match && Number(match[2]) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return undefined;
  }
  return proxy;
}

/** `node:dns` lookup of every address of `host` (IPv4 and IPv6, in the resolver's order). */
export async function systemLookup(host: string): Promise<string[]> {
  const results = await dnsLookup(host, { all: true });
  return results.map((r) => r.address);
}

/**
 * Opens a TCP connection to `address` (with a TLS handshake for `host` when `useTls`) and closes it
 * again; never rejects. An abort of `signal` ends the attempt as `ETIMEDOUT`.
 */
export function openSocket(address: string, host: string, port: number, useTls: boolean, signal: AbortSignal, ca?: string | string[]): Promise<ConnectResult> {
  return new Promise((resolve) => {
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    let tcpUp = false;
    const socket = useTls
      ? tls.connect({ host: address, port, servername: net.isIP(bare) ? undefined : bare, ca, ALPNProtocols: ['http/1.1'] })
      : net.connect({ host: address, port });
    const finish = (result: ConnectResult) => {
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.destroy();
      resolve(result);
    };
    const onAbort = () => finish({ ok: false, errorCode: 'ETIMEDOUT' });
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => {
      tcpUp = true;
      if (!useTls) finish({ ok: true });
    });
    if (useTls) socket.once('secureConnect', () => finish({ ok: true }));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      finish({ ok: false, errorCode: error.code, tlsError: useTls && tcpUp ? error.message : undefined });
    });
  });
}

/** Reads a response body as UTF-8, cut at `maxBytes` bytes (the rest is cancelled, not read). */
export async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.byteLength;
    if (total >= maxBytes) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks).subarray(0, maxBytes));
}
