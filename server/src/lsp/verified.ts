import { NotificationType } from 'vscode-languageserver';
import type { ConsumerId } from '../core/model/types';
import { normalizeBaseUrl, type VerifiedEndpoint } from '../core/model/verified';

/**
 * `rolloutLint/verifiedEndpoints`: the client's whole list of probe results for this workspace
 * (replaces the previous list). Also accepted as `initializationOptions.verifiedEndpoints`.
 */
export const VerifiedEndpointsNotification = new NotificationType<{ endpoints: VerifiedEndpoint[] }>('rolloutLint/verifiedEndpoints');

/** At most this many entries are kept (newest first). */
export const MAX_VERIFIED = 100;

const CONSUMERS: readonly ConsumerId[] = ['openai-sdk', 'openai-responses', 'anthropic', 'v1-appending', 'raw', 'sglang-native'];

/** Keeps the well-formed entries of what a client sent (http(s) URLs, a known consumer, a finite time), newest first. */
export function parseVerifiedEndpoints(raw: unknown): VerifiedEndpoint[] {
  if (!Array.isArray(raw)) return [];
  const out: VerifiedEndpoint[] = [];
  for (const item of raw) {
    if (!item || typeof item !== 'object') continue;
    const e = item as Record<string, unknown>;
    const strings = [e.baseUrl, e.workingBaseUrl, e.url].every((s) => typeof s === 'string' && normalizeBaseUrl(s) !== undefined);
    if (!strings || !CONSUMERS.includes(e.consumer as ConsumerId) || typeof e.at !== 'number' || !Number.isFinite(e.at)) continue;
    const models = Array.isArray(e.models) && e.models.length > 0 && e.models.every((m) => typeof m === 'string') ? { models: (e.models as string[]).slice(0, 1000) } : {};
    out.push({ baseUrl: e.baseUrl as string, consumer: e.consumer as ConsumerId, workingBaseUrl: e.workingBaseUrl as string, url: e.url as string, at: e.at, ...models });
  }
  return out.sort((a, b) => b.at - a.at).slice(0, MAX_VERIFIED);
}
