import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { ProbeDeps, ProbeRequestInit, ProbeResponse } from '../../../server/src/core/probe/types';
import { AddressRefusedError, openSocket, proxyForUrl, readCapped, systemLookup, type ProxySettings } from '../../../server/src/node/probe-net';
import type { ProxyConfig } from '../types';

export interface HostTransportOptions {
  /** The extension host's `fetch` (proxy-aware in VS Code). */
  fetch: typeof fetch;
  /**
   * Test hook (ExtensionMode.Test only): host name → address. DNS and the connect step use the
   * address; requests go to it over `node:http(s)` with the name kept in the Host header.
   */
  hostOverrides?: ReadonlyMap<string, string>;
  /** Replaces DNS (default `node:dns`). */
  lookup?: (host: string) => Promise<string[]>;
  /** Refuses any request or socket to an address it rejects (tests: loopback only); default: all allowed. */
  allowAddress?: (address: string) => boolean;
  /** Where `fetch` sends requests through a proxy, so DNS/connect steps target the proxy instead. */
  proxy?: ProxySettings;
  /** Response bodies are cut at this many bytes; default 1 MiB. */
  maxBodyBytes?: number;
}

const bare = (host: string) => host.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/**
 * The proxy settings VS Code applies to the extension host's requests, as far as they are visible:
 * `http.proxy` (with `http.noProxy`) when set, else the `HTTP(S)_PROXY`/`NO_PROXY` variables; none
 * when `http.proxySupport` is `off`. A system or PAC proxy is not visible here: the DNS and connect
 * steps then go to the target directly while the request itself may still use the proxy.
 */
export function hostProxySettings(config: ProxyConfig, env: Readonly<Record<string, string | undefined>>): ProxySettings {
  if (config.support === 'off') return { httpProxy: '', httpsProxy: '', noProxy: '' };
  if (config.proxy) return { httpProxy: config.proxy, httpsProxy: config.proxy, noProxy: config.noProxy.join(',') };
  return {
    httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? '',
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? '',
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  };
}

/**
 * `ProbeDeps` for the VS Code extension host: requests through the host's `fetch` (so VS Code's
 * proxy support applies; redirects are never followed by it), DNS via `node:dns`, and the connect/TLS
 * steps via `node:net`/`node:tls` (shared with the CLI transport).
 */
export function createHostTransport(options: HostTransportOptions): ProbeDeps {
  const overrides = options.hostOverrides ?? new Map<string, string>();
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const lookup = async (host: string): Promise<string[]> => {
    const mapped = overrides.get(bare(host));
    return mapped !== undefined ? [mapped] : (options.lookup ?? systemLookup)(bare(host));
  };
  const resolveAllowed = async (host: string): Promise<string> => {
    const address = (await lookup(host))[0];
    if (address === undefined) throw Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' });
    if (options.allowAddress && !options.allowAddress(address)) throw new AddressRefusedError(host, address);
    return address;
  };
  return {
    lookup,
    now: () => performance.now(),
    proxyFor: (url) => (options.proxy && !overrides.has(bare(new URL(url).hostname)) ? proxyForUrl(url, options.proxy) : undefined),
    async connect(host, port, useTls, signal) {
      let address: string;
      try {
        address = await resolveAllowed(host);
      } catch (error) {
        return { ok: false, errorCode: (error as { code?: string }).code ?? 'ENOTFOUND' };
      }
      return openSocket(address, host, port, useTls, signal);
    },
    async fetch(url: string, init: ProbeRequestInit): Promise<ProbeResponse> {
      const parsed = new URL(url);
      const mapped = overrides.get(bare(parsed.hostname));
      if (mapped !== undefined || options.allowAddress) {
        const address = await resolveAllowed(parsed.hostname).catch((error: Error) => {
          throw Object.assign(new TypeError('fetch failed'), { cause: error });
        });
        if (mapped !== undefined) return requestAt(parsed, address, init, maxBodyBytes);
      }
      const response = await options.fetch(url, { method: init.method, headers: init.headers, body: init.body, signal: init.signal, redirect: 'manual' });
      return { status: response.status, headers: response.headers, text: () => readCapped(response.body, maxBodyBytes) };
    },
  };
}

/** One request to `address` for `url` over `node:http(s)`, Host header and TLS server name kept from `url`. */
function requestAt(url: URL, address: string, init: ProbeRequestInit, maxBytes: number): Promise<ProbeResponse> {
  const hostname = bare(url.hostname);
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      {
        host: address,
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: init.method,
        headers: { ...init.headers, host: url.host },
        servername: net.isIP(hostname) ? undefined : hostname,
        signal: init.signal,
        agent: false,
      },
      (response) => {
        const text = new Promise<string>((done, fail) => {
          const chunks: Buffer[] = [];
          let total = 0;
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            total += chunk.length;
            if (total >= maxBytes) response.destroy();
          });
          response.on('close', () => done(Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8')));
          response.on('error', (error) => (total >= maxBytes ? undefined : fail(error)));
        });
        text.catch(() => undefined);
        resolve({
          status: response.statusCode ?? 0,
          headers: {
            get: (name) => {
              const value = response.headers[name.toLowerCase()];
              return value === undefined ? null : Array.isArray(value) ? value.join(', ') : String(value);
            },
          },
          text: () => text,
        });
      },
    );
    request.on('error', (error) => reject(Object.assign(new TypeError('fetch failed'), { cause: error })));
    request.end(init.body);
  });
}
