import { formatGithub } from './github';
import { formatGitlab } from './gitlab';
import { formatJson } from './json';
import { formatSarif } from './sarif';
import { formatText } from './text';
import type { Formatter } from './types';

/** Output formats by `--format` name. */
export const FORMATTERS = {
  text: formatText,
  json: formatJson,
  sarif: formatSarif,
  github: formatGithub,
  gitlab: formatGitlab,
} satisfies Record<string, Formatter>;

export type FormatName = keyof typeof FORMATTERS;
