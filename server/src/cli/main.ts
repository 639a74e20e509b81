import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { FORMATTERS } from './format/index';
import { processIo, type CliIo } from './io';
import type { LintCommandOptions } from './lint-command';
import { VERSION } from './version';
import { redact } from '../core/redact';
import { sanitizeForTerminal } from './sanitize';

const HELP_AFTER = `
Examples:
  rollout-lint                              lint the current folder
  rollout-lint configs/ .env --fix          lint two paths and apply the safe fixes
  rollout-lint --diff                       show what --fix would change, change nothing
  rollout-lint --format sarif -o rl.sarif   SARIF for GitHub code scanning
  rollout-lint --format gitlab -o gl-code-quality-report.json
  cat .env | rollout-lint --stdin-filename .env -
  rollout-lint --statistics                 problems per rule
  rollout-lint --select base-url-duplicate-v1,api-key-placeholder
  rollout-lint --rule 'logprobs-missing: off'
  rollout-lint --baseline .rollout-lint-baseline.json --update-baseline   adopt on a big repository
  rollout-lint --baseline .rollout-lint-baseline.json                     report only new findings
  rollout-lint explain base-url-duplicate-v1
  rollout-lint ping --from .env             test the endpoint a file configures

Exit codes:
  0  no errors, and no more warnings than --max-warnings
  1  errors, too many warnings, or (with --diff) a file would change
  2  usage, configuration or internal error

Configuration: each file uses the .rolloutlintrc.json nearest to it (up to its git work tree);
--config FILE or --no-config-lookup replace that lookup; --print-config FILE shows the result.
Cache: results of unchanged files are kept in .rollout-lint-cache/ at each project root (git-ignored
by a .gitignore inside it); --no-cache turns it off, --cache-location DIR moves it; delete the folder to clear it.
Colour: --color/--no-color, else FORCE_COLOR, NO_COLOR, NODE_DISABLE_COLORS, TERM=dumb, a terminal.
Docs: https://github.com/rollout-lint/rollout-lint/tree/main/docs
`;

// The commands are required when they run, not imported: `--version`, `--help` and one command do not
// load (and initialise) the others' modules (esbuild keeps a required module lazy in the bundle).
const lintCommand = () => require('./lint-command') as typeof import('./lint-command');
const rulesCommand = () => require('./rules-command') as typeof import('./rules-command');
const endpointsCommand = () => require('./endpoints-command') as typeof import('./endpoints-command');
const pingCommand = () => require('./ping') as typeof import('./ping');
const pingFromFile = () => require('./ping-from-file') as typeof import('./ping-from-file');

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
  const io: CliIo = { ...rawIo, stderr: (text) => rawIo.stderr(sanitizeForTerminal(redact(text))), stderrControl: rawIo.stderrControl ?? rawIo.stderr };
  if (argv[0] === 'ping') {
    const ping = pingCommand();
    ping.setFromFileResolver(pingFromFile().resolveFromLintedFile);
    return ping.runPing(argv.slice(1), io);
  }
  let code = 0;
  // ruff's `--ignore ID` (rules) and ESLint's `--no-ignore` (git-ignored files) share commander's
  // attribute name `ignore`: the ids are collected here and the attribute keeps --no-ignore's `false`.
  const ignoreRules: string[] = [];
  const program = new Command('rollout-lint')
    .description('Find the configuration mistakes that stall LLM RL rollouts: base URLs, API keys, log-prob requests.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .argument('[paths...]', 'files or directories to lint (default: the current folder; "-" reads standard input, see --stdin-filename)')
    .addOption(new Option('-f, --format <format>', 'output format (gitlab: Code Quality JSON)').choices(Object.keys(FORMATTERS)).default('text'))
    .addOption(new Option('--output-format <format>', 'the same as --format (ruff\'s spelling)').choices(Object.keys(FORMATTERS)))
    .option('-o, --output-file <path>', 'write the report to this file instead of standard output')
    .option('--stdin-filename <path>', 'lint standard input as if it were this file (its type, config and globs); with --fix the fixed text goes to stdout')
    .option('--fix', 'apply safe fixes to the files ([*] marks them)')
    .option('--fix-unsafe', 'apply safe and unsafe fixes (review the result)')
    .option('--diff', 'print the changes --fix (or --fix-unsafe) would make as a unified diff; write nothing')
    .option('--statistics', 'print how many problems each rule found instead of the problems')
    .option('--exit-zero', 'exit 0 even when problems are found')
    .option('--include-hints', 'also print hints (the editor always shows them)')
    .option('--quiet', 'print errors only')
    .option('--max-warnings <n>', 'exit 1 when there are more warnings than this', integer)
    .option('--rule <id>', 'run only this rule; or ESLint\'s \'id: off|error|warning|hint\' to set its level (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--select <ids>', 'run only these rules (comma-separated, repeatable; ruff\'s --select)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--ignore <ids>', 'turn these rules off (comma-separated, repeatable; ruff\'s --ignore)', (v: string, prev: unknown) => {
      ignoreRules.push(v);
      return prev;
    })
    .option('-c, --config <file>', 'use this configuration file for every file instead of the nearest .rolloutlintrc.json')
    .option('--no-config-lookup', 'use no .rolloutlintrc.json at all (the defaults)')
    .option('--print-config <file>', 'print the configuration that applies to this file as JSON and lint nothing')
    .option('--baseline <file>', 'do not report the findings recorded in this baseline file (see --update-baseline)')
    .option('--update-baseline', 'write the findings of this run to the --baseline file (creating it), then report none of them')
    .option('--prune-baseline', 'remove entries that no finding matches any more from the --baseline file')
    .addOption(new Option('--lang <locale>', 'message language (default: from LC_ALL, LC_MESSAGES, LANG)').choices(['en', 'zh-CN', 'zh-cn', 'zh']))
    .option('--report-unused-disable-directives', 'warn about rollout-lint-disable comments that suppress nothing')
    .option('--no-ignore', 'also lint git-ignored files')
    .addOption(new Option('--index-scope <scope>', 'files read for cross-file findings: each linted file\'s whole project, or only the files linted (fast, for pre-commit)').choices(['project', 'named']).default('project'))
    .option('--no-cache', 'read and write no cache (by default results of unchanged files are kept in .rollout-lint-cache/ at the project root)')
    .option('--cache-location <dir>', 'keep the cache in this folder instead of <project root>/.rollout-lint-cache')
    .option('--candidates-only', 'lint named files only when a folder walk would (for pre-commit and tools that pass every changed file)')
    .option('--color', 'always colour the output (default: when stdout is a terminal; FORCE_COLOR and NO_COLOR are honoured)')
    .option('--no-color', 'never colour the output')
    .addHelpText('after', HELP_AFTER)
    .action(async (paths: string[], options: LintCommandOptions) => {
      code = await lintCommand().runLint(paths, { ...options, ignoreRules }, io);
    });
  program
    .command('ping')
    .description('probe an OpenAI-compatible endpoint (models list, a chat completion with log probs) and explain any failure; see "rollout-lint ping --help"');
  program
    .command('explain')
    .description('print the documentation of a rule: what it catches, why it breaks a rollout, examples, the fix')
    .argument('<rule-id>', 'a rule id (see "rollout-lint rules")')
    .action((ruleId: string) => {
      code = rulesCommand().runExplain(ruleId, io, program.opts<{ lang?: string }>().lang);
    });
  program
    .command('rules')
    .description('list every rule with its default severity, fixability and docs URL')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) => {
      code = rulesCommand().runRules({ ...options, lang: program.opts<{ lang?: string }>().lang }, io);
    });
  program
    .command('endpoints')
    .description('list every endpoint the workspace uses: client or request site, effective request URL, key source (masked), model, log probs, findings')
    .argument('[paths...]', 'files or directories (default: the whole workspace)', [])
    .option('--json', 'print JSON')
    .option('--no-ignore', 'also read git-ignored files')
    .action(async (paths: string[], options: { json?: boolean; ignore?: boolean }) => {
      code = await endpointsCommand().runEndpoints(paths, { ...options, lang: program.opts<{ lang?: string }>().lang }, io);
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
