import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { createNodeTransport, isLoopbackAddress, type NodeTransport } from '../../server/src/node/probe-transport';

/**
 * One scripted answer, in the form of `test/cases/manifest.json` `ping.requests`:
 * `request_body` is a subset match on the JSON body; `status: 'timeout'` never answers.
 * The query string is ignored when matching (scripts may show the query a particular client adds).
 */
export interface ScriptedRoute {
  method: string;
  path: string;
  request_body?: unknown;
  status: number | 'timeout';
  headers?: Record<string, string>;
  content_type?: string;
  body?: unknown;
  /** Informational (which host the case talks about); not matched. */
  host?: string;
}

export interface RecordedRequest {
  method: string;
  /** Path with query, exactly as received. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface ScriptedServer {
  port: number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Resolves once `count` requests have been received (for cancelling mid-request without sleeping). */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

/** True when `actual` contains everything in `expected` (objects by key, arrays and scalars exactly). */
export function subsetMatch(expected: unknown, actual: unknown): boolean {
  if (expected === null || typeof expected !== 'object') return Object.is(expected, actual);
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => subsetMatch(e, actual[i]));
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
  return Object.entries(expected).every(([k, v]) => subsetMatch(v, (actual as Record<string, unknown>)[k]));
}

function pathOnly(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function findRoute(routes: readonly ScriptedRoute[], method: string, url: string, body: string): ScriptedRoute | undefined {
  let json: unknown;
  try {
    json = body ? JSON.parse(body) : undefined;
  } catch {
    json = undefined;
  }
  return routes.find(
    (r) => r.method.toUpperCase() === method && pathOnly(r.path) === pathOnly(url) && (r.request_body === undefined || subsetMatch(r.request_body, json)),
  );
}

/**
 * Starts an HTTP (or, with `tls`, HTTPS) server on 127.0.0.1 with an OS-chosen port that answers
 * from `routes`; unlisted routes get `404 {"error": {...}}`. Bodies that are strings are sent as
 * written (`text/plain` unless `content_type`), others as JSON. `close()` also drops requests held
 * open by `'timeout'` routes.
 */
export async function startScriptedServer(routes: readonly ScriptedRoute[], tls?: { key: string; cert: string }): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const waiters: { count: number; resolve: () => void }[] = [];
  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const method = (req.method ?? 'GET').toUpperCase();
      const url = req.url ?? '/';
      requests.push({ method, url, headers: req.headers, body });
      for (const w of waiters.filter((w) => requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const route = findRoute(routes, method, url, body);
      if (!route) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no scripted route for ${method} ${pathOnly(url)}`, type: 'not_found' } }));
        return;
      }
      if (route.status === 'timeout') return;
      const text = typeof route.body === 'string' ? route.body : route.body === undefined ? '' : JSON.stringify(route.body);
      const contentType = route.content_type ?? (typeof route.body === 'string' ? 'text/plain' : 'application/json');
      res.writeHead(route.status, { 'content-type': contentType, ...route.headers });
      res.end(text);
    });
  };
  const server = tls ? https.createServer({ key: tls.key, cert: tls.cert }, handler) : http.createServer(handler);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    received: (count) => (requests.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A real Node transport whose `lookup` maps every host (public names, 0.0.0.0, 10.x, IP literals) to
 * 127.0.0.1 and which refuses any non-loopback address, so no probe traffic leaves the machine.
 * `lookups` records the names asked for.
 */
export function loopbackTransport(options: { ca?: string } = {}): NodeTransport & { lookups: string[] } {
  const lookups: string[] = [];
  const transport = createNodeTransport({
    env: {},
    ca: options.ca,
    allowAddress: isLoopbackAddress,
    lookup: async (host) => {
      lookups.push(host);
      return ['127.0.0.1'];
    },
  });
  return Object.assign(transport, { lookups });
}

/** `url` with its port replaced by the scripted server's (and its scheme by `scheme`, if given); nothing else changes. */
export function onServer(url: string, server: ScriptedServer, scheme?: 'http:' | 'https:'): string {
  const parsed = new URL(url);
  if (scheme) parsed.protocol = scheme;
  parsed.port = String(server.port);
  const text = parsed.toString();
  const hadNoPath = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+(?=[?#]|$)/i.test(url);
  return hadNoPath ? text.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#]+)\//i, '$1') : text;
}
