import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { FORMATTERS } from './format/index';
import { processIo, type CliIo } from './io';
import { runLint, type LintCommandOptions } from './lint-command';
import { runRules } from './rules-command';
import { runPing, setFromFileResolver } from './ping';
import { resolveFromLintedFile } from './ping-from-file';
import { VERSION } from './version';
import { redact } from '../core/redact';
import { sanitizeForTerminal } from './sanitize';

function integer(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError('expected an integer');
  return n;
}

/**
 * Runs the CLI with `argv` (without `node` and the script path). Resolves to the exit code; never
 * calls `process.exit` itself, so tests can drive it in-process.
 */
export async function main(argv: string[], rawIo: CliIo = processIo()): Promise<number> {
  // Every message on stderr passes one redaction and terminal sanitising (paths and values come from the linted files).
  const io: CliIo = { ...rawIo, stderr: (text) => rawIo.stderr(sanitizeForTerminal(redact(text))) };
  if (argv[0] === 'ping') {
    setFromFileResolver(resolveFromLintedFile);
    return runPing(argv.slice(1), io);
  }
  let code = 0;
  const program = new Command('rollout-lint')
    .description('Find the configuration mistakes that stall LLM RL rollouts: base URLs, API keys, log-prob requests.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .argument('[paths...]', 'files or directories to lint', [])
    .addOption(new Option('-f, --format <format>', 'output format').choices(Object.keys(FORMATTERS)).default('text'))
    .option('--fix', 'apply safe fixes to the files')
    .option('--fix-unsafe', 'apply safe and unsafe fixes')
    .option('--exit-zero', 'exit 0 even when problems are found')
    .option('--include-hints', 'also print hints (the editor always shows them)')
    .option('--quiet', 'print errors only')
    .option('--max-warnings <n>', 'exit 1 when there are more warnings than this', integer)
    .option('--rule <id>', 'run only this rule (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .addOption(new Option('--lang <locale>', 'message language (default: from LC_ALL, LC_MESSAGES, LANG)').choices(['en', 'zh-CN', 'zh-cn', 'zh']))
    .option('--report-unused-disable-directives', 'warn about rollout-lint-disable comments that suppress nothing')
    .option('--no-ignore', 'also lint git-ignored files')
    .option('--no-color', 'never colour the output')
    .action(async (paths: string[], options: LintCommandOptions) => {
      const color = options.color !== false && io.isTTY && !io.env.NO_COLOR;
      code = await runLint(paths, { ...options, color }, io);
    });
  program
    .command('ping')
    .description('probe an OpenAI-compatible endpoint (models list, a chat completion with log probs) and explain any failure; see "rollout-lint ping --help"');
  program
    .command('rules')
    .description('list every rule with its default severity, fixability and docs URL')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) => {
      code = runRules(options, io);
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    io.stderr(`rollout-lint: internal error: ${error instanceof RangeError ? error.message : ((error as Error).stack ?? String(error))}\n`);
    return 2;
  }
  return code;
}

/**
 * Runs `main` on the process arguments and sets the exit code (the bin entry and `node dist/cli.js`).
 * A reader that goes away (`| head`) ends the process quietly.
 */
export function run(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`rollout-lint: internal error: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 2;
    },
  );
}

if (require.main === module) run();
