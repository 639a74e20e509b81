import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { serverLocale, startServer } from './server';
import { say } from './messages';
import { VERSION } from '../cli/version';

const USAGE = `Usage: rollout-lint-server --stdio | --node-ipc | --socket=<port> | --pipe=<name>

The Rollout Lint language server (LSP). Editors start it; run "rollout-lint --help" for the CLI.

Options:
  --stdio            talk LSP over standard input and output (Neovim, Helix, Zed, Emacs)
  --node-ipc         talk over Node IPC (VS Code)
  --socket=<port>    connect to this TCP port on 127.0.0.1
  --pipe=<name>      connect to this named pipe or socket file
  -v, --version      print the version
  -h, --help         print this help
`;

/**
 * The command line before vscode-languageserver reads it: `--help`/`--version` print and exit 0;
 * no transport flag prints the usage and exits 2 (instead of the library's stack trace).
 */
function handleCommandLine(argv: readonly string[]): void {
  if (argv.some((a) => a === '--help' || a === '-h')) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  if (argv.some((a) => a === '--version' || a === '-v')) {
    process.stdout.write(`${VERSION}\n`);
    process.exit(0);
  }
  if (!argv.some((a) => /^--(stdio|node-ipc|socket|pipe)(=|$)/.test(a))) {
    process.stderr.write(`rollout-lint-server: no transport given\n\n${USAGE}`);
    process.exit(2);
  }
}

handleCommandLine(process.argv.slice(2));

/**
 * `rollout-lint-server`: the Rollout Lint language server. The transport comes from the command
 * line as vscode-languageserver reads it: `--stdio`, `--node-ipc` (VS Code) or `--socket=<port>`.
 * Errors escaping a handler are logged to the client, never fatal.
 */
const connection = createConnection(ProposedFeatures.all);
process.on('uncaughtException', (error) => connection.console.error(say(serverLocale(), 'log.uncaught', { error: error.stack ?? String(error) })));
process.on('unhandledRejection', (reason) => connection.console.error(say(serverLocale(), 'log.unhandled', { error: (reason as Error)?.stack ?? String(reason) })));
startServer(connection);
