import type { CommandContext, Disposable, StatusItem } from '../types';
import type { ConsentAnswer, ConsentRequest } from './keys';

/**
 * The hooks `activate()` returns as `exports.testHooks`, only when the extension runs in
 * `ExtensionMode.Test` (the e2e suite's contract: test/e2e/suite/hooks.ts):
 * - `setHostOverrides({ 'rollout-lint-e2e.test': '127.0.0.1' })`: the probe's DNS lookup, connect
 *   step and requests use these addresses for these names (the Host header keeps the name); `{}` clears.
 * - `setConsentHandler(fn)`: the consent modal is not shown; `fn({origin, message})` answers it
 *   (`'once' | 'always' | 'cancel'`); `undefined` restores the modal.
 */
export interface TestHooks {
  setHostOverrides(map: Record<string, string>): void;
  setConsentHandler(handler: ((request: ConsentRequest) => ConsentAnswer) | undefined): void;
}

/** State of the connection commands for one activation. */
export class ConnectionSession implements Disposable {
  /** Test hook: host name (lower case) → address. Empty outside tests. */
  readonly hostOverrides = new Map<string, string>();
  /** Test hook: answers the consent modal instead of the user. */
  consentHandler: ((request: ConsentRequest) => ConsentAnswer) | undefined;
  /** The language status item with the last probe result (created on the first result). */
  statusItem: StatusItem | undefined;
  /** The last connection report (the read-only document Show Report opens). */
  lastReport: { name: string; text: string } | undefined;
  /** The origin of the last probe (Set API Key offers it). */
  lastOrigin: string | undefined;
  /** The handling of the last result notification's button (awaited by tests). */
  followUp: Promise<unknown> = Promise.resolve();

  testHooks(): TestHooks {
    return {
      setHostOverrides: (map) => {
        this.hostOverrides.clear();
        for (const [name, address] of Object.entries(map ?? {})) this.hostOverrides.set(name.toLowerCase(), address);
      },
      setConsentHandler: (handler) => {
        this.consentHandler = handler;
      },
    };
  }

  dispose(): void {
    this.statusItem?.dispose();
    this.statusItem = undefined;
  }
}

const sessions = new WeakMap<object, ConnectionSession>();

/** The session of a command context (one per activation: every command module gets the same context). */
export function sessionOf(context: CommandContext): ConnectionSession {
  let session = sessions.get(context);
  if (!session) {
    session = new ConnectionSession();
    sessions.set(context, session);
  }
  return session;
}
