import type { Comment, ParseProblem, Range } from '../../model/types';
import { lineEnd } from './entry';

/**
 * One `KEY=value` statement, delimited the way npm dotenv's `parse()` delimits it (its `LINE`
 * regex in `lib/main.js`). All offsets are UTF-16 code units, 0-based, half-open.
 */
export interface DotenvStatement {
  key: string;
  keyRange: Range;
  /**
   * The value as written. Quoted: from the opening to the closing quote. Unquoted: everything after
   * the separator up to an inline comment or the end of the line, leading and trailing whitespace
   * included (`K=  v  # c` → `  v  `); empty and zero-width right after the separator for `K=`.
   */
  valueRange: Range;
  /** Inside the quotes; equal to `valueRange` when unquoted. */
  contentRange: Range;
  quote: '"' | "'" | '`' | '';
  /** From the start of the key's line to the end of the value's last line, line break excluded. */
  statementRange: Range;
}

/** What the scanner finds: statements, every `#` comment (full-line and inline), and malformed lines. */
export interface DotenvScan {
  statements: DotenvStatement[];
  comments: Comment[];
  problems: ParseProblem[];
}

const KEY_CHAR = /[\w.-]/;
const SPACE = /\s/;

/** JS `\s` other than a line break: what node dotenv's `\s*` skips inside a line. */
function isBlank(ch: string | undefined): boolean {
  return ch !== undefined && ch !== '\n' && ch !== '\r' && SPACE.test(ch);
}

function skipBlanks(text: string, from: number): number {
  let i = from;
  while (isBlank(text[i])) i++;
  return i;
}

function nextLineStart(text: string, end: number): number {
  if (text.startsWith('\r\n', end)) return end + 2;
  return Math.min(end + 1, text.length);
}

/** True when only blanks and an optional `#` comment follow `from` on its line (node's `\s*(?:#.*)?$`). */
function restIsBlankOrComment(text: string, from: number): boolean {
  const i = skipBlanks(text, from);
  return i >= text.length || text[i] === '\n' || text[i] === '\r' || text[i] === '#';
}

/**
 * The closing quote node dotenv settles on for a value opened at `open`: its regex
 * `q(?:\\q|[^q])*q` must be followed by the end of the line or a comment; it tries the first
 * quote not preceded by a backslash, then (backtracking) each escaped one from the last to the
 * first. -1 when none fits, and node reads the line as an unquoted value instead.
 */
function closingQuote(text: string, open: number): number {
  const q = text[open];
  const escaped: number[] = [];
  for (let p = text.indexOf(q, open + 1); p !== -1; p = text.indexOf(q, p + 1)) {
    if (text[p - 1] === '\\') {
      escaped.push(p);
      continue;
    }
    if (restIsBlankOrComment(text, p + 1)) return p;
    break;
  }
  for (let k = escaped.length - 1; k >= 0; k--) {
    if (restIsBlankOrComment(text, escaped[k] + 1)) return escaped[k];
  }
  return -1;
}

function trimmedRange(text: string, start: number, end: number): Range {
  let e = end;
  while (e > start && isBlank(text[e - 1])) e--;
  return { start, end: e };
}

/**
 * Scans dotenv `text` line by line (line breaks `\n`, `\r\n`, lone `\r`). Accepts what node dotenv
 * accepts: optional `export `, a key of `[A-Za-z0-9_.-]`, `=` with optional blanks around it or
 * YAML-style `: `, and a value quoted with `'`, `"` or `` ` `` (may span lines) or unquoted.
 * An inline comment starts at a `#` preceded by a space or tab (the rule python-dotenv, compose and
 * the shell share; node dotenv cuts at any `#`, which shows in its loaded value), or after the
 * closing quote. Malformed lines (no key, invalid key character, no separator, unterminated quote,
 * text after the closing quote) are reported and scanning goes on with the next line; values with a
 * quote problem still yield a statement, read as node dotenv reads them (unquoted). Never throws;
 * linear in the text length.
 */
export function scanDotenv(text: string): DotenvScan {
  const scan: DotenvScan = { statements: [], comments: [], problems: [] };
  let lineStart = 0;
  while (lineStart < text.length) {
    const end = lineEnd(text, lineStart);
    const last = scanLine(text, lineStart, end, scan);
    lineStart = nextLineStart(text, last);
  }
  return scan;
}

/** Offset of the first non-whitespace character at or after `from`, crossing line breaks (node's `\s*`). */
function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && SPACE.test(text[i])) i++;
  return i;
}

/** The first quote `q` on the line after `from` that is not preceded by a backslash, or -1. */
function unescapedQuoteOnLine(text: string, from: number, end: number, q: string): number {
  for (let p = from; p < end; p++) if (text[p] === q && text[p - 1] !== '\\') return p;
  return -1;
}

/**
 * Where node's separator ends and where an unquoted value starts, or undefined when there is no
 * separator. `\s*=` may cross line breaks (`KEY⏎=v`); `:\s+?` takes exactly one whitespace
 * character, so `KEY:⏎v` reads the next line as the value.
 */
function separator(text: string, keyEnd: number): { end: number; unquotedStart: number } | undefined {
  const eq = skipSpace(text, keyEnd);
  if (text[eq] === '=') return { end: eq + 1, unquotedStart: eq + 1 };
  if (text[keyEnd] !== ':' || !SPACE.test(text[keyEnd + 1] ?? '')) return undefined;
  const afterColon = keyEnd + 1;
  if (isBlank(text[afterColon])) return { end: afterColon, unquotedStart: afterColon };
  const next = nextLineStart(text, afterColon);
  const c = text[next];
  const valueOnNextLine = next < text.length && c !== '#' && c !== '\n' && c !== '\r';
  return { end: afterColon, unquotedStart: valueOnNextLine ? next : afterColon };
}

/** Scans the statement starting on the line `[lineStart, end)`; returns the end of its last line. */
function scanLine(text: string, lineStart: number, end: number, scan: DotenvScan): number {
  const first = skipBlanks(text, lineStart);
  if (first >= end) return end;
  if (text[first] === '#') {
    scan.comments.push({ text: text.slice(first, end), range: { start: first, end } });
    return end;
  }
  let keyStart = first;
  if (text.startsWith('export', first) && isBlank(text[first + 6])) {
    const keyAt = skipBlanks(text, first + 6);
    if (KEY_CHAR.test(text[keyAt] ?? '')) keyStart = keyAt;
  }
  let keyEnd = keyStart;
  while (keyEnd < end && KEY_CHAR.test(text[keyEnd])) keyEnd++;
  const key = text.slice(keyStart, keyEnd);
  const line = trimmedRange(text, first, end);
  if (key === '') {
    scan.problems.push({ message: 'Expected a variable name (letters, digits, "_", "." or "-") at the start of the line', zh: '行首应为变量名（字母、数字、"_"、"." 或 "-"）', range: line });
    return end;
  }
  const sep = separator(text, keyEnd);
  if (!sep) {
    const bad = keyEnd < end && !isBlank(text[keyEnd]) && text[keyEnd] !== ':';
    scan.problems.push({
      message: bad
        ? `Invalid character "${String.fromCodePoint(text.codePointAt(keyEnd)!)}" in the variable name ${key}`
        : `Expected "=" after ${key}; the line assigns no value`,
      zh: bad ? `变量名 ${key} 中有无效字符 "${String.fromCodePoint(text.codePointAt(keyEnd)!)}"` : `${key} 之后应为 "="；这一行没有赋值`,
      range: line,
    });
    return end;
  }
  const keyRange = { start: keyStart, end: keyEnd };
  const quoteAt = skipSpace(text, sep.end);
  const q = text[quoteAt];
  if (q === '"' || q === "'" || q === '`') {
    const close = closingQuote(text, quoteAt);
    if (close !== -1) {
      const closeLineEnd = lineEnd(text, close);
      const after = skipBlanks(text, close + 1);
      if (text[after] === '#') scan.comments.push({ text: text.slice(after, closeLineEnd), range: { start: after, end: closeLineEnd } });
      scan.statements.push({
        key,
        keyRange,
        valueRange: { start: quoteAt, end: close + 1 },
        contentRange: { start: quoteAt + 1, end: close },
        quote: q,
        statementRange: { start: lineStart, end: closeLineEnd },
      });
      return closeLineEnd;
    }
    const quoteLineEnd = lineEnd(text, quoteAt);
    if (quoteLineEnd === lineEnd(text, sep.unquotedStart)) {
      const closeOnLine = unescapedQuoteOnLine(text, quoteAt + 1, quoteLineEnd, q);
      scan.problems.push({
        message: closeOnLine === -1
          ? `Unterminated ${q} quote in the value of ${key}`
          : `Unexpected text after the closing ${q} quote in the value of ${key}`,
        range: trimmedRange(text, closeOnLine === -1 ? quoteAt : skipBlanks(text, closeOnLine + 1), quoteLineEnd),
      });
    }
  }
  const valueLineEnd = lineEnd(text, sep.unquotedStart);
  let valueEnd = valueLineEnd;
  for (let k = sep.unquotedStart + 1; k < valueLineEnd; k++) {
    if (text[k] === '#' && (text[k - 1] === ' ' || text[k - 1] === '\t')) {
      valueEnd = k;
      scan.comments.push({ text: text.slice(k, valueLineEnd), range: { start: k, end: valueLineEnd } });
      break;
    }
  }
  const valueRange = { start: sep.unquotedStart, end: valueEnd };
  scan.statements.push({
    key,
    keyRange,
    valueRange,
    contentRange: valueRange,
    quote: '',
    statementRange: { start: lineStart, end: Math.max(end, valueLineEnd) },
  });
  return Math.max(end, valueLineEnd);
}
