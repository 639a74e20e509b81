import { type LoadedEntry, skipWhile, trimEndWhile } from './entry';

/** Python's `str.isspace()` set, which is what `\s` means in python-dotenv's `re` patterns. */
const PY_SPACE = /[\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

function isPySpace(ch: string): boolean {
  return PY_SPACE.test(ch);
}

/** `[^\S\r\n]`: Python whitespace other than a line break. */
function isPyBlank(ch: string): boolean {
  return ch !== '\n' && ch !== '\r' && PY_SPACE.test(ch);
}

const DOUBLE_QUOTE_ESCAPES: Record<string, string> = {
  '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
};
const SINGLE_QUOTE_ESCAPES: Record<string, string> = { '\\': '\\', "'": "'" };

/** python-dotenv `decode_escapes`: replaces `\x` pairs found in `table`, left to right, others kept. */
function decodeEscapes(body: string, table: Record<string, string>): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const next = body[i + 1];
    if (body[i] === '\\' && next !== undefined && Object.prototype.hasOwnProperty.call(table, next)) {
      out += table[next];
      i++;
    } else {
      out += body[i];
    }
  }
  return out;
}

/**
 * Where python-dotenv's `'((?:\\'|[^'])*)'` (or the `"` twin) closes a value opened at `open`: the
 * first quote not preceded by a backslash, else (regex backtracking) the last escaped one; -1 if none.
 */
function closingQuote(text: string, open: number): number {
  const q = text[open];
  let lastEscaped = -1;
  for (let p = text.indexOf(q, open + 1); p !== -1; p = text.indexOf(q, p + 1)) {
    if (text[p - 1] !== '\\') return p;
    lastEscaped = p;
  }
  return lastEscaped;
}

type Step = { ok: true; pos: number; entry?: LoadedEntry } | { ok: false; pos: number };

/** python-dotenv `parse_binding` from `pos` (after leading whitespace). */
function parseBinding(text: string, start: number): Step {
  let pos = start;
  if (text.startsWith('export', pos)) {
    const after = skipWhile(text, pos + 6, isPyBlank);
    if (after > pos + 6) pos = after;
  }
  let key: string | null = null;
  const keyStart = pos;
  if (text[pos] === "'") {
    const close = text.indexOf("'", pos + 1);
    if (close <= pos + 1) return { ok: false, pos };
    key = text.slice(pos + 1, close).replace(/\r\n?/g, '\n');
    pos = close + 1;
  } else if (text[pos] !== '#') {
    const end = skipWhile(text, pos, (ch) => ch !== '=' && ch !== '#' && !isPySpace(ch));
    if (end === pos) return { ok: false, pos };
    key = text.slice(pos, end);
    pos = end;
  }
  pos = skipWhile(text, pos, isPyBlank);
  let value: string | null = null;
  if (text[pos] === '=') {
    pos = skipWhile(text, pos + 1, isPyBlank);
    const c = text[pos];
    if (c === "'" || c === '"') {
      const close = closingQuote(text, pos);
      if (close === -1) return { ok: false, pos };
      const body = text.slice(pos + 1, close).replace(/\r\n?/g, '\n');
      value = decodeEscapes(body, c === '"' ? DOUBLE_QUOTE_ESCAPES : SINGLE_QUOTE_ESCAPES);
      pos = close + 1;
    } else if (c === undefined || c === '\n' || c === '\r') {
      value = '';
    } else {
      const end = skipWhile(text, pos, (ch) => ch !== '\n' && ch !== '\r');
      value = stripUnquoted(text.slice(pos, end));
      pos = end;
    }
  }
  const hash = skipWhile(text, pos, isPyBlank);
  if (text[hash] === '#') pos = skipWhile(text, hash, (ch) => ch !== '\n' && ch !== '\r');
  const eol = skipWhile(text, pos, isPyBlank);
  if (eol < text.length && text[eol] !== '\n' && text[eol] !== '\r') return { ok: false, pos };
  pos = eol + (text.startsWith('\r\n', eol) ? 2 : eol < text.length ? 1 : 0);
  return { ok: true, pos, entry: key === null ? undefined : { key, keyStart, value } };
}

/** `re.sub(r"\s+#.*", "", part).rstrip()`: an inline comment needs whitespace before its `#`. */
function stripUnquoted(part: string): string {
  let cut = part.length;
  for (let i = 1; i < part.length; i++) {
    if (part[i] === '#' && isPySpace(part[i - 1])) {
      cut = i;
      break;
    }
  }
  return part.slice(0, trimEndWhile(part, 0, cut, isPySpace));
}

/**
 * Reads `text` as python-dotenv 1.x `dotenv_values()` does (`dotenv/parser.py`, `parse_stream`):
 * optional `export `; single quotes decode only `\\` and `\'`; double quotes decode
 * `\\ \' \" \a \b \f \n \r \t \v`; quoted values may span lines; an unquoted value runs to the end
 * of the line, loses an inline comment (`#` preceded by whitespace) and trailing whitespace, so
 * `K=   # note` yields `# note`; `K = V` is allowed; a line without `=` yields the key with `null`.
 * A statement python-dotenv cannot parse (it logs a warning and skips it) yields no entry.
 * The file is read in Python's universal-newline mode (`open()` default), so `\r\n` and a lone `\r`
 * inside a quoted key or value become `\n`. `${VAR}` interpolation is not applied: values keep the
 * reference as written.
 */
export function readPythonDotenv(text: string): LoadedEntry[] {
  const entries: LoadedEntry[] = [];
  let pos = 0;
  while (pos < text.length) {
    pos = skipWhile(text, pos, isPySpace);
    if (pos >= text.length) break;
    const step = parseBinding(text, pos);
    if (step.ok) {
      if (step.entry) entries.push(step.entry);
      pos = step.pos;
    } else {
      const end = skipWhile(text, step.pos, (ch) => ch !== '\n' && ch !== '\r');
      pos = end + (end < text.length ? 1 : 0);
    }
  }
  return entries;
}
