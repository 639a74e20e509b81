/**
 * Makes one path or value safe to print inside a line of a terminal or CI log: every control
 * character (C0 with line feed, carriage return and tab, DEL, C1), the Unicode line and paragraph
 * separators and the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) are shown
 * escaped (`\n`, `\r`, `\t`, `\x1b`, `\u202e`), so a file name cannot start a new line (a GitHub
 * workflow command such as `::stop-commands::`), move the cursor, retitle the window or reorder text.
 */
export function escapeForLine(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
