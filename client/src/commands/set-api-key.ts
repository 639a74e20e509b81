import { promptForApiKey } from '../connection/api-key';
import type { CommandModule } from '../types';

/**
 * Set API Key: asks for an origin (or takes `{origin}` / an origin string as argument) and its key
 * (masked input), and keeps the key in VS Code's SecretStorage for that origin only.
 */
export const setApiKey: CommandModule = {
  id: 'rolloutLint.setApiKey',
  run(context, arg) {
    const origin = typeof arg === 'string' ? arg : typeof (arg as { origin?: unknown } | undefined)?.origin === 'string' ? (arg as { origin: string }).origin : undefined;
    return promptForApiKey(context, origin);
  },
};
