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
  /** Absolute workspace root, for SARIF's base URI. */
  root: string;
  /** Message language, for the words the formatter adds itself (text format). */
  locale?: Locale;
}

/** A formatter turns results into the text printed on stdout. */
export type Formatter = (input: FormatInput) => string;
