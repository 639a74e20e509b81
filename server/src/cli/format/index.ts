import { formatJson } from './json';
import { formatText } from './text';
import type { Formatter } from './types';

/** Output formats by `--format` name. */
export const FORMATTERS = {
  text: formatText,
  json: formatJson,
} satisfies Record<string, Formatter>;

export type FormatName = keyof typeof FORMATTERS;
