import { lookup as dnsLookup } from 'node:dns/promises';
import net from 'node:net';
import tls from 'node:tls';
import { Agent, EnvHttpProxyAgent, buildConnector, fetch as undiciFetch, type Dispatcher } from 'undici';
import type { ConnectResult, ProbeDeps, ProbeRequestInit, ProbeResponse } from '../core/probe/types';

export interface NodeTransportOptions {
  /** Where proxy settings come from (`HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY`, either case); default: none. */
  env?: NodeJS.ProcessEnv;
  /** Replaces DNS (tests map every host to 127.0.0.1). Also used for IP literals, so nothing bypasses it. */
  lookup?: (host: string) => Promise<string[]>;
  /** Refuses to open a socket to any other address (tests: loopback only). Proxies are then refused too. */
  allowAddress?: (address: string) => boolean;
  /** Extra trusted CA certificates (PEM), for the TLS step and the requests. */
  ca?: string | string[];
  /** Response bodies are cut at this many bytes; default 1 MiB. */
  maxBodyBytes?: number;
}

/** `ProbeDeps` over real sockets, plus `close()` to release pooled connections. */
export interface NodeTransport extends ProbeDeps {
  close(): Promise<void>;
}

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

interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

function proxySettings(env: NodeJS.ProcessEnv): ProxySettings {
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

async function systemLookup(host: string): Promise<string[]> {
  const results = await dnsLookup(host, { all: true });
  return results.map((r) => r.address);
}

/**
 * Real network access for `probe`: `node:dns` lookup, `node:net`/`node:tls` for the connect and TLS
 * steps, undici `fetch` for requests (through `EnvHttpProxyAgent` when `env` names a proxy). Every
 * direct socket goes to an address from `lookup`, checked by `allowAddress`.
 */
export function createNodeTransport(options: NodeTransportOptions = {}): NodeTransport {
  const lookup = options.lookup ?? systemLookup;
  const settings = proxySettings(options.env ?? {});
  const usesProxy = !!(settings.httpProxy || settings.httpsProxy);
  if (usesProxy && options.allowAddress) throw new Error('a proxy cannot be combined with an address guard');
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;

  async function resolveAddress(host: string): Promise<string> {
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    const addresses = await lookup(bare);
    const address = addresses[0];
    if (address === undefined) throw Object.assign(new Error(`no address for ${bare}`), { code: 'ENOTFOUND' });
    if (options.allowAddress && !options.allowAddress(address)) throw new AddressRefusedError(bare, address);
    return address;
  }

  const direct = buildConnector({ ca: options.ca });
  const connector: buildConnector.connector = (connectOptions, callback) => {
    resolveAddress(connectOptions.hostname).then(
      (address) => {
        const bare = connectOptions.hostname.replace(/^\[(.*)\]$/, '$1');
        const servername = connectOptions.servername ?? (net.isIP(bare) ? undefined : bare);
        direct({ ...connectOptions, hostname: address, servername }, callback);
      },
      (error: Error) => callback(error, null),
    );
  };
  const dispatcher: Dispatcher = usesProxy
    ? new EnvHttpProxyAgent({ ...settings, connect: connector, requestTls: { ca: options.ca } })
    : new Agent({ connect: connector });

  return {
    lookup,
    now: () => performance.now(),
    proxyFor: (url) => proxyForUrl(url, settings),
    async connect(host, port, useTls, signal) {
      let address: string;
      try {
        address = await resolveAddress(host);
      } catch (error) {
        return { ok: false, errorCode: (error as { code?: string }).code ?? 'ENOTFOUND' };
      }
      return openSocket(address, host, port, useTls, signal, options.ca);
    },
    async fetch(url: string, init: ProbeRequestInit): Promise<ProbeResponse> {
      const response = await undiciFetch(url, { ...init, dispatcher });
      return { status: response.status, headers: response.headers, text: () => readCapped(response.body, maxBodyBytes) };
    },
    close: () => dispatcher.destroy(),
  };
}

function openSocket(address: string, host: string, port: number, useTls: boolean, signal: AbortSignal, ca?: string | string[]): Promise<ConnectResult> {
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

async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string> {
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
