/**
 * Lines of `text` that hold something besides blanks and a `#` comment (one linear pass over UTF-16
 * code units): a cheap measure, taken before a parse, of the statements a line-oriented format
 * (dotenv, TOML) will yield. Lines of a multi-line value count one each.
 */
export function contentLineCount(text: string): number {
  let count = 0;
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) lineStart = true;
    else if (lineStart && c !== 32 && c !== 9 && c !== 13) {
      lineStart = false;
      if (c === 35) {
        while (i + 1 < text.length && text.charCodeAt(i + 1) !== 10) i++;
      } else count++;
    }
  }
  return count;
}
