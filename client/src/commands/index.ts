import type { CommandModule } from '../types';
import { fixAll } from './fix-all';
import { restartServer } from './restart-server';
import { showOutput } from './show-output';

/**
 * Every command the extension registers: one module per command. Add a module here and its id to
 * `package.json` `contributes.commands` (a test keeps the two in step). When a module with id
 * `rolloutLint.testConnection` is listed, the server is told so and shows "Test connection" lenses.
 */
export const COMMANDS: readonly CommandModule[] = [fixAll, showOutput, restartServer];

/** The command the "Test connection" code lens runs, with `[{uri, offset}]`. */
export const TEST_CONNECTION_COMMAND = 'rolloutLint.testConnection';
