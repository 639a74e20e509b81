/**
 * One variable as a dotenv loader reads it. `keyStart` is the UTF-16 offset (0-based) of the first
 * character of the key in the text the loader was given; `value` is `null` when the loader rejects
 * the statement (syntax error, invalid name) or, for python-dotenv, when a bare `KEY` has no value.
 */
export interface LoadedEntry {
  key: string;
  keyStart: number;
  value: string | null;
}

/** Offset of the first `\r` or `\n` at or after `from`, or `text.length`. */
export function lineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return text.length;
}

/** First offset at or after `from` whose character fails `test`. */
export function skipWhile(text: string, from: number, test: (ch: string) => boolean): number {
  let i = from;
  while (i < text.length && test(text[i])) i++;
  return i;
}

/** The end of `text[from, to)` once trailing characters passing `test` are dropped. */
export function trimEndWhile(text: string, from: number, to: number, test: (ch: string) => boolean): number {
  let i = to;
  while (i > from && test(text[i - 1])) i--;
  return i;
}
