import { normalizeLocale, type Locale } from '../core/messages/locale';
import { readFileSync } from 'node:fs';

/** The process surface the CLI commands use, injectable for tests. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** stdout is a terminal (colours allowed unless NO_COLOR). */
  isTTY: boolean;
  /**
   * stderr without the redaction and terminal sanitising that `stderr` applies, for the progress
   * line's own `\r` and erase-line sequence only (whatever text it carries is sanitised first).
   */
  stderrControl?: (text: string) => void;
  /** stderr is a terminal (progress lines on long runs). Default `false`. */
  stderrIsTTY?: boolean;
  /** Reads all of standard input (`rollout-lint --stdin-filename F -`). */
  readStdin?: () => Promise<Uint8Array>;
  /** Milliseconds since some fixed point (progress throttling); default `Date.now`. */
  now?: () => number;
}

/** The real process. */
export function processIo(): CliIo {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
    isTTY: !!process.stdout.isTTY,
    stderrIsTTY: !!process.stderr.isTTY,
    readStdin: async () => readFileSync(0),
  };
}

/**
 * Whether to colour output: `--color`/`--no-color` first, then `FORCE_COLOR` (`0` or `false` turns
 * colour off, any other non-empty value on, as supports-color and Node read it), then `NO_COLOR`
 * (any non-empty value: no colour, per no-color.org), `NODE_DISABLE_COLORS` (any non-empty value,
 * as Node's own REPL and test runner read it) and `TERM=dumb` (a terminal without escape
 * sequences, as Node's `getColorDepth` reads it), then whether stdout is a terminal.
 */
export function useColor(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (flag !== undefined) return flag;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR || env.NODE_DISABLE_COLORS || env.TERM === 'dumb') return false;
  return isTTY;
}

/**
 * The language of the CLI's messages: `--lang` when given, else the first set of `LC_ALL`,
 * `LC_MESSAGES`, `LANG` (POSIX order; an empty one counts as unset). `zh…` is Chinese, anything else English.
 */
export function cliLocale(lang: string | undefined, env: NodeJS.ProcessEnv): Locale {
  return normalizeLocale(lang || env.LC_ALL || env.LC_MESSAGES || env.LANG);
}
