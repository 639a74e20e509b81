import { type LoadedEntry, skipWhile } from './entry';

/** compose-go `isSpace`: whitespace other than `\n` (`\r` counts as space). */
const COMPOSE_SPACE = /[\t\v\f\r \x85\xa0]/;
/** Go `unicode.IsSpace`. */
const GO_SPACE = /[\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
/** Go RE2 `^export\s+` (`\s` = `[\t\n\f\r ]`). */
const EXPORT_PREFIX = /^export[\t\n\f\r ]+/;
/** compose-go `isValidKeyRune`: letters, digits, `_ . - [ ]`. */
const KEY_RUNE = /^[\p{L}\p{N}_.\-[\]]$/u;
/** compose-go `escapeSeqRegex`. */
const ESCAPE_SEQ = /\\(?:[abcfnrtv$"\\]|0\d{0,3})/g;
const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', $: '$', '"': '"', '\\': '\\',
};

const isComposeSpace = (ch: string) => COMPOSE_SPACE.test(ch);
const isGoSpace = (ch: string) => GO_SPACE.test(ch);

/**
 * compose-go `expandEscapes` for double-quoted values: `\a \b \f \n \r \t \v \" \\`, `\$` (a literal
 * `$`), `\0ooo` octal (three octal digits, ≤ 255); anything else (`\c`, `\012`) is kept as written.
 */
function expandEscapes(body: string): string {
  return body.replace(ESCAPE_SEQ, (match) => {
    if (match[1] !== '0') return SIMPLE_ESCAPES[match[1]] ?? match;
    const digits = match.slice(2);
    if (!/^[0-7]{3}$/.test(digits)) return match;
    const code = parseInt(digits, 8);
    return code <= 255 ? String.fromCharCode(code) : match;
  });
}

/** compose-go `extractQuotedValue`: returns the body (escaped quote unescaped) and the offset after the closing quote. */
function quotedValue(text: string, open: number): { body: string; end: number } | undefined {
  const quote = text[open];
  let body = '';
  let escaped = false;
  for (let i = open + 1; i < text.length; i++) {
    const ch = text[i];
    if (escaped) {
      escaped = false;
      body += ch === quote ? ch : '\\' + ch;
    } else if (ch === '\\') {
      escaped = true;
    } else if (ch === quote) {
      return { body, end: i + 1 };
    } else {
      body += ch;
    }
  }
  return undefined;
}

type Statement = { entry?: LoadedEntry; next: number } | { error: true; key: string; keyStart: number };

/** compose-go `parseStatement` at `start` (a non-space, non-comment character). */
function parseStatement(text: string, start: number): Statement {
  let pos = start;
  const exportMatch = EXPORT_PREFIX.exec(text.slice(pos, pos + 64));
  if (exportMatch) pos = skipWhile(text, pos + 6, isComposeSpace);
  const keyStart = pos;
  let keyEnd = -1;
  let inherited = false;
  for (let i = pos; i < text.length; ) {
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    if (ch === '=' || ch === ':' || ch === '\n') {
      keyEnd = i;
      inherited = ch === '\n';
      break;
    }
    if (!isComposeSpace(ch) && !KEY_RUNE.test(ch)) return { error: true, key: '', keyStart };
    i += ch.length;
  }
  let key = '';
  let valueStart = keyStart;
  if (keyEnd !== -1) {
    let end = keyEnd;
    while (end > keyStart && isGoSpace(text[end - 1])) end--;
    key = text.slice(keyStart, end);
    valueStart = keyEnd + 1;
  }
  if (key.includes(' ')) return { error: true, key, keyStart };
  pos = skipWhile(text, valueStart, isComposeSpace);
  if (inherited) return { next: pos };

  const quote = text[pos];
  if (quote !== '"' && quote !== "'") {
    const newline = text.indexOf('\n', pos);
    const lineEnd = newline === -1 ? text.length : newline;
    let value = text.slice(pos, lineEnd);
    const comment = value.indexOf(' #');
    if (comment !== -1) value = value.slice(0, comment);
    let end = value.length;
    while (end > 0 && isGoSpace(value[end - 1])) end--;
    return { entry: { key, keyStart, value: value.slice(0, end) }, next: newline === -1 ? text.length : newline + 1 };
  }
  const quoted = quotedValue(text, pos);
  if (!quoted) return { error: true, key, keyStart };
  const value = quote === '"' ? expandEscapes(quoted.body) : quoted.body;
  return { entry: { key, keyStart, value }, next: quoted.end };
}

/**
 * Reads `text` as Docker Compose reads `env_file:` and the project `.env` (compose-go v2
 * `dotenv/parser.go`): optional `export `; `KEY=value` or YAML-style `KEY: value`; spaces around
 * the separator dropped; an unquoted value runs to `\n` (a lone `\r` is not a line break), is cut
 * at the first ` #` (space then `#`, so `K=   # note` yields `# note`) and right-trimmed; single
 * quotes keep everything except that `\'` becomes `'`; double quotes decode escapes (see
 * `expandEscapes`); quoted values may span lines and text after the closing quote starts the next
 * statement. `${VAR}` interpolation is not applied: values keep the reference as written.
 * compose-go rejects the whole file at the first error (invalid key character, space in a key,
 * unterminated quote); this reader records that statement with `null` and resumes at the next line
 * so the other statements still get values.
 */
export function readCompose(text: string): LoadedEntry[] {
  const entries: LoadedEntry[] = [];
  let pos = text.startsWith('\uFEFF') ? 1 : 0;
  while (pos < text.length) {
    pos = skipWhile(text, pos, isGoSpace);
    if (pos >= text.length) break;
    if (text[pos] === '#') {
      const newline = text.indexOf('\n', pos);
      if (newline === -1) break;
      pos = newline;
      continue;
    }
    const statement = parseStatement(text, pos);
    if ('error' in statement) {
      entries.push({ key: statement.key, keyStart: statement.keyStart, value: null });
      const newline = text.indexOf('\n', statement.keyStart);
      pos = newline === -1 ? text.length : newline + 1;
      continue;
    }
    if (statement.entry) entries.push(statement.entry);
    pos = statement.next;
  }
  return entries;
}
