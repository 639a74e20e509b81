import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

/**
 * `rollout-lint-server`: the Rollout Lint language server. The transport comes from the command
 * line as vscode-languageserver reads it: `--stdio`, `--node-ipc` (VS Code) or `--socket=<port>`.
 * Errors escaping a handler are logged to the client, never fatal.
 */
const connection = createConnection(ProposedFeatures.all);
process.on('uncaughtException', (error) => connection.console.error(`uncaught: ${error.stack ?? String(error)}`));
process.on('unhandledRejection', (reason) => connection.console.error(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`));
startServer(connection);
