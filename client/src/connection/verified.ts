import { normalizeBaseUrl, type VerifiedEndpoint } from '../../../server/src/core/model/verified';
import type { ProbeReport } from '../../../server/src/core/probe/index';
import type { Memento, ServerConnection } from '../types';

/** `workspaceState` key of the probe results kept for the workspace. */
export const VERIFIED_STATE = 'rolloutLint.verifiedEndpoints';
/** The notification that hands them to the server (server/src/lsp/verified.ts). */
export const VERIFIED_NOTIFICATION = 'rolloutLint/verifiedEndpoints';
const MAX_KEPT = 100;

/** Verdicts that need a real completion answer at the configured URL: the base itself works. */
const PROVEN_OK = new Set(['ok', 'no-logprobs']);

/**
 * What a report proves, if anything: the configured base works (`ok`/`no-logprobs`), or another base
 * of the same origin answered for the same consumer (`fix.verified`). Unverified fixes, fixes that
 * change the consumer, and other failures prove nothing to keep.
 */
export function verifiedFromReport(report: ProbeReport, at: number): VerifiedEndpoint | undefined {
  if (PROVEN_OK.has(report.verdict)) {
    const main = [...report.steps].reverse().find((s) => s.url && s.method === 'POST' && s.name !== 'variant');
    // the /models list is kept only when whole: the probe keeps at most 50 ids (ProbeReport.models)
    const models = report.models && report.models.length > 0 && report.models.length < 50 ? { models: [...report.models] } : {};
    return main?.url ? { baseUrl: report.baseUrl, consumer: report.consumer, workingBaseUrl: report.baseUrl, url: main.url, at, ...models } : undefined;
  }
  const fix = report.fix;
  if (!fix?.verified || fix.consumer) return undefined;
  const answered = [...report.steps].reverse().find((s) => s.name === 'variant' && s.url);
  return answered?.url ? { baseUrl: report.baseUrl, consumer: report.consumer, workingBaseUrl: fix.baseUrl, url: answered.url, at } : undefined;
}

/** The results kept for this workspace, newest first (malformed entries dropped). */
export function loadVerified(state: Memento): VerifiedEndpoint[] {
  const value = state.get<unknown>(VERIFIED_STATE);
  if (!Array.isArray(value)) return [];
  return value.filter((e): e is VerifiedEndpoint => !!e && typeof e === 'object' && typeof e.baseUrl === 'string' && typeof e.workingBaseUrl === 'string' && typeof e.at === 'number');
}

/** Keeps `entry` (replacing an older one for the same base URL and consumer) and returns the new list. */
export async function rememberVerified(state: Memento, entry: VerifiedEndpoint): Promise<VerifiedEndpoint[]> {
  const key = (e: VerifiedEndpoint) => `${e.consumer} ${normalizeBaseUrl(e.baseUrl)}`;
  const list = [entry, ...loadVerified(state).filter((e) => key(e) !== key(entry))].slice(0, MAX_KEPT);
  await state.update(VERIFIED_STATE, list);
  return list;
}

/** Sends the whole list to the server, which re-lints with it; a server that is not running gets it at start. */
export async function sendVerified(server: ServerConnection | undefined, endpoints: readonly VerifiedEndpoint[]): Promise<void> {
  await server?.sendNotification(VERIFIED_NOTIFICATION, { endpoints });
}
