import type { CommandModule } from '../types';
import { enableFixOnSave } from './enable-fix-on-save';
import { fixAll } from './fix-all';
import { resetConnectionApprovals } from './reset-connection-approvals';
import { restartServer } from './restart-server';
import { setApiKey } from './set-api-key';
import { showOutput } from './show-output';
import { showReportCommand } from './show-report';
import { testConnection } from './test-connection';

export { TEST_CONNECTION_COMMAND } from '../connection/run';

/**
 * Every command the extension registers: one module per command. Add a module here and its id to
 * `package.json` `contributes.commands` (a test keeps the two in step). When a module with id
 * `rolloutLint.testConnection` is listed, the server is told so and shows "Test connection" lenses.
 */
export const COMMANDS: readonly CommandModule[] = [testConnection, setApiKey, resetConnectionApprovals, fixAll, showOutput, restartServer, showReportCommand, enableFixOnSave];
