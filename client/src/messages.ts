import { clientMessages as connectionMessages } from './connection/texts';
import { endpointViewMessages } from './endpoints/texts';

/**
 * Every English text the client shows (connection test, status, Fix All, log, the Rollout Endpoints
 * view): the keys of `l10n/bundle.l10n.json` (each mapped to itself) and of its zh-cn translation.
 * `client/scripts/manifest.ts` writes the English bundle from it; a test checks both bundles.
 */
export function allClientMessages(): string[] {
  return [...new Set([...connectionMessages(), ...endpointViewMessages()])];
}
