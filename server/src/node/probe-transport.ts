import net from 'node:net';
import { Agent, EnvHttpProxyAgent, buildConnector, fetch as undiciFetch, type Dispatcher } from 'undici';
import type { ProbeDeps, ProbeRequestInit, ProbeResponse } from '../core/probe/types';
import { AddressRefusedError, openSocket, proxyForUrl, proxySettings, readCapped, systemLookup } from './probe-net';

export { AddressRefusedError, isLoopbackAddress, proxyForUrl } from './probe-net';

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
