import type { ConsumerId } from './types';

/**
 * What a connection probe (Test TaoToken Connection) proved about a base URL for one consumer: which
 * base answered as an API. The editor keeps these per workspace and passes them to the engine as
 * `LintOptions.verified`; rules read them to upgrade or drop findings that were only plausible.
 */
export interface VerifiedEndpoint {
  /** The base URL as configured and probed (trimmed). */
  baseUrl: string;
  consumer: ConsumerId;
  /** The base URL whose requests answered as an API; equal to `baseUrl` when the configured one works. */
  workingBaseUrl: string;
  /** The request URL that answered (for messages). */
  url: string;
  /** When the probe ran: milliseconds since the Unix epoch. */
  at: number;
  /** The model ids the probe's `GET {base}/models` listed (`data[].id`), when it listed any. */
  models?: string[];
}

/**
 * The model ids a `GET {baseUrl}/models` listed (whole lists only), kept by `rollout-lint ping` in its
 * cache folder (`server/src/node/models-cache.ts`); read by `model-not-served`.
 */
export interface ModelList {
  baseUrl: string;
  models: string[];
  /** When the list was fetched: milliseconds since the Unix epoch. */
  at: number;
}

/** `scheme://host[:port]/path` without trailing slashes, host lower-cased; `undefined` for non-URLs. */
export function normalizeBaseUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}${parsed.search}`;
  } catch {
    return undefined;
  }
}

/** The newest entry for `baseUrl` (compared normalised) and `consumer`, if any. */
export function findVerified(list: readonly VerifiedEndpoint[], baseUrl: string, consumer: ConsumerId): VerifiedEndpoint | undefined {
  const wanted = normalizeBaseUrl(baseUrl);
  if (!wanted) return undefined;
  let best: VerifiedEndpoint | undefined;
  for (const entry of list) {
    if (entry.consumer !== consumer || normalizeBaseUrl(entry.baseUrl) !== wanted) continue;
    if (!best || entry.at > best.at) best = entry;
  }
  return best;
}

/** True when the entry proves the configured base itself works. */
export function worksAsConfigured(entry: VerifiedEndpoint): boolean {
  return normalizeBaseUrl(entry.workingBaseUrl) === normalizeBaseUrl(entry.baseUrl);
}
