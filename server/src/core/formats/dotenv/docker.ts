import type { LoadedEntry } from './entry';

/** Go `unicode.IsSpace`. */
const GO_SPACE = /[\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/**
 * Reads `text` as `docker run --env-file` does (docker/cli `pkg/kvfile`, `parseKeyValueFile`):
 * lines split at `\n` with one trailing `\r` dropped (a lone `\r` is not a line break); a leading
 * BOM and each line's leading whitespace removed; empty lines and lines starting with `#` skipped;
 * the key is everything before the first `=` and the value everything after it, verbatim — no
 * quote, escape or comment processing, trailing whitespace kept. A key containing a space or tab
 * (`K = V`, `export K=V`) makes docker reject the whole file; this reader records that line with
 * `null` and goes on (as for an empty key, `=V`). A line without `=` passes a variable through from the caller's environment
 * and yields no entry.
 */
export function readDockerEnvFile(text: string): LoadedEntry[] {
  const entries: LoadedEntry[] = [];
  let lineStart = text.startsWith('\uFEFF') ? 1 : 0;
  while (lineStart < text.length) {
    const newline = text.indexOf('\n', lineStart);
    let end = newline === -1 ? text.length : newline;
    if (end > lineStart && text[end - 1] === '\r') end--;
    let start = lineStart;
    while (start < end && GO_SPACE.test(text[start])) start++;
    let eq = start;
    while (eq < end && text[eq] !== '=') eq++;
    if (start < end && text[start] !== '#' && eq < end) {
      const key = text.slice(start, eq);
      const rejected = key === '' || /[ \t]/.test(key);
      entries.push({ key, keyStart: start, value: rejected ? null : text.slice(eq + 1, end) });
    }
    lineStart = newline === -1 ? text.length : newline + 1;
  }
  return entries;
}
