import { runTestConnection, TEST_CONNECTION_COMMAND } from '../connection/run';
import { sessionOf } from '../connection/session';
import type { CommandModule } from '../types';

/**
 * Test TaoToken Connection: probes the base URL under the cursor, of a code lens (`[{uri, offset}]`),
 * picked from the workspace, or TaoToken's default, and explains the result. Resolves to the
 * `ProbeReport`, or `undefined` when nothing was probed. In `ExtensionMode.Test` it adds
 * `testHooks` (see `connection/session.ts`) to the extension's exports.
 */
export const testConnection: CommandModule = {
  id: TEST_CONNECTION_COMMAND,
  activate(context) {
    const session = sessionOf(context);
    if (context.host.testMode) context.exports.testHooks = session.testHooks();
    return session;
  },
  run(context, arg) {
    return runTestConnection(context, arg);
  },
};
