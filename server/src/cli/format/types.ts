import { isAbsolute, relative, sep } from 'node:path';
import type { Locale } from '../../core/messages/locale';
import type { FileResult } from '../../node/lint-file';

/** What every output formatter receives. */
export interface FormatInput {
  results: FileResult[];
  /** Show `hint` findings (`--include-hints`). */
  includeHints: boolean;
  /** Only errors (`--quiet`). */
  quiet: boolean;
  /** Use ANSI colours (stdout is a TTY and NO_COLOR is unset). */
  color: boolean;
  /**
   * Absolute root that SARIF, GitLab and GitHub paths are relative to (`%SRCROOT%`): the git work
   * tree holding the working directory, else the working directory.
   */
  root: string;
  /** Message language, for the words the formatter adds itself (text format). */
  locale?: Locale;
  /** Set after `--fix`/`--fix-unsafe`: how many fixes were applied, in how many files. */
  fixed?: { count: number; files: number };
  /** Set after `--fix`: fixable findings of the report that were left alone, by reason. */
  skipped?: { gitIgnored: number; unsafe: number };
}

/** A formatter turns results into the text printed on stdout. */
export type Formatter = (input: FormatInput) => string;

/** A result's path for CI formats: relative to `root`, `/`-separated (the absolute path when outside it). */
export function rootRelativePath(result: { absPath: string }, root: string): string {
  const rel = relative(root, result.absPath).split(sep).join('/');
  return rel.startsWith('..') || isAbsolute(rel) ? result.absPath.split(sep).join('/') : rel;
}
