import type { LoadedEntry } from './entry';

/** A shell word: its source span and its text after quote removal (expansions kept as written). */
interface Word {
  start: number;
  end: number;
  text: string;
}

/** A syntax or special built-in error: the shell stops reading the file. */
class ShellSyntaxError extends Error {}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
/** Nesting of substitutions and quotes beyond this is treated as a syntax error (keeps recursion bounded). */
const MAX_DEPTH = 64;

/** End offset of `$(…)`/`$((…))` or `${…}` starting at `start` (the `$`); quotes inside are skipped. */
function substitutionEnd(text: string, start: number, nesting: number): number {
  if (nesting > MAX_DEPTH) throw new ShellSyntaxError();
  const open = text[start + 1];
  const close = open === '(' ? ')' : '}';
  let depth = 0;
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === "'" && open === '(') i = singleQuotedEnd(text, i) - 1;
    else if (ch === '"') i = doubleQuoted(text, i, nesting + 1).end - 1;
    else if (ch === open) depth++;
    else if (ch === close && --depth === 0) return i + 1;
  }
  throw new ShellSyntaxError();
}

/** End offset of `` `…` `` starting at `start`. */
function backtickEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '`') return i + 1;
  }
  throw new ShellSyntaxError();
}

/** End of a `$(…)`, `${…}` or `` `…` `` starting at `i` (kept as written), or `undefined` when none starts there. */
function expansionEnd(text: string, i: number, nesting: number): number | undefined {
  if (text[i] === '$' && (text[i + 1] === '(' || text[i + 1] === '{')) return substitutionEnd(text, i, nesting);
  return text[i] === '`' ? backtickEnd(text, i) : undefined;
}

function singleQuotedEnd(text: string, start: number): number {
  const close = text.indexOf("'", start + 1);
  if (close === -1) throw new ShellSyntaxError();
  return close + 1;
}

/**
 * `"…"` starting at `start`: backslash escapes only `$ \` " \\` and newline (POSIX 2.2.3); `$(…)`,
 * `${…}` and `` `…` `` are kept as written.
 */
function doubleQuoted(text: string, start: number, nesting: number): { text: string; end: number } {
  let out = '';
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') return { text: out, end: i + 1 };
    if (ch === '\\' && i + 1 < text.length) {
      const next = text[i + 1];
      if (next === '\n') i += 2;
      else if ('$`"\\'.includes(next)) {
        out += next;
        i += 2;
      } else {
        out += ch;
        i++;
      }
    } else {
      const end = expansionEnd(text, i, nesting + 1) ?? i + 1;
      out += text.slice(i, end);
      i = end;
    }
  }
  throw new ShellSyntaxError();
}

/** Reads one word starting at `start` (not a blank or operator). */
function readWord(text: string, start: number): Word {
  let out = '';
  let i = start;
  while (i < text.length && !WORD_END.has(text[i])) {
    const ch = text[i];
    if (ch === '\\') {
      if (text[i + 1] === '\n') i += 2;
      else if (i + 1 < text.length) {
        out += text[i + 1];
        i += 2;
      } else {
        out += ch;
        i++;
      }
    } else if (ch === "'") {
      const end = singleQuotedEnd(text, i);
      out += text.slice(i + 1, end - 1);
      i = end;
    } else if (ch === '"') {
      const quoted = doubleQuoted(text, i, 0);
      out += quoted.text;
      i = quoted.end;
    } else {
      const end = expansionEnd(text, i, 0) ?? i + 1;
      out += text.slice(i, end);
      i = end;
    }
  }
  return { start, end: i, text: out };
}

/** Reads one simple command from `start`; returns its words (redirection targets excluded) and the offset after it. */
function readCommand(text: string, start: number): { words: Word[]; end: number } {
  const words: Word[] = [];
  let redirectTarget = false;
  let i = start;
  while (i < text.length) {
    const ch = text[i];
    if (ch === ' ' || ch === '\t') i++;
    else if (ch === '\\' && text[i + 1] === '\n') i += 2;
    else if (ch === '\n') return { words, end: i + 1 };
    else if (ch === '#') {
      const newline = text.indexOf('\n', i);
      i = newline === -1 ? text.length : newline;
    } else if (ch === ';' || ch === '&' || ch === '|') {
      while (i < text.length && ';&|'.includes(text[i])) i++;
      return { words, end: i };
    } else if (ch === '<' || ch === '>') {
      while (i < text.length && '<>&|'.includes(text[i])) i++;
      redirectTarget = true;
    } else if (ch === '(' || ch === ')') {
      throw new ShellSyntaxError();
    } else {
      const word = readWord(text, i);
      if (!redirectTarget) words.push(word);
      redirectTarget = false;
      i = word.end;
    }
  }
  return { words, end: i };
}

/**
 * Appends the assignments a command makes: leading `NAME=value` words (the name unquoted), or the
 * arguments of `export` (checked after quote removal). An `export` argument that is not a valid name is a special built-in error, which ends a
 * non-interactive shell (POSIX 2.8.1; dash does, bash continues).
 */
function addAssignments(words: Word[], text: string, entries: LoadedEntry[]): void {
  const isExport = words.length > 0 && text.slice(words[0].start, words[0].end) === 'export';
  for (const word of isExport ? words.slice(1) : words) {
    const name = ASSIGNMENT.exec(isExport ? word.text : text.slice(word.start, word.end));
    if (!name) {
      if (isExport && !NAME.test(word.text)) throw new ShellSyntaxError();
      if (isExport) continue;
      return;
    }
    entries.push({ key: name[0].slice(0, -1), keyStart: word.start, value: word.text.slice(name[0].length) });
  }
}

/**
 * Reads `text` as a POSIX shell does for `set -a; . ./.env` (POSIX XCU 2.2 quoting, 2.3 token
 * recognition, 2.9.1 simple commands): an assignment is a word `NAME=…` with `NAME` matching
 * `[A-Za-z_][A-Za-z0-9_]*`; its value ends at the first unquoted blank, `;`, `&`, `|`, `<` or `>`,
 * so `K=abc def` yields `abc` (the shell would then run `def` with K in its environment only and
 * leave K unset; recorded as `abc` on purpose, the truncation is what matters) and `K=  # c` yields
 * `''`; `#` starts a comment only at the start of a word (`K=a#b` keeps `a#b`); single quotes are
 * literal; double quotes let `\` escape only `$ \` " \\` and newline; an unquoted `\x` gives `x`;
 * `\r` is an ordinary character, so a CRLF file yields values ending in `\r`. `$VAR`, `${…}`,
 * `$(…)`, `` `…` `` and `~` are kept as written (the shell would expand them). `export K=V` works;
 * `K = V`, `K-X=1`, `KEY: v` are commands, not assignments, and yield no entry. A syntax error
 * (unterminated quote or substitution, unquoted `(`/`)`) or `export` of an invalid name stops the
 * shell: that statement and every later one yield no entry. Here-documents are not modelled.
 */
export function readPosixShell(text: string): LoadedEntry[] {
  const entries: LoadedEntry[] = [];
  let pos = 0;
  try {
    while (pos < text.length) {
      const command = readCommand(text, pos);
      addAssignments(command.words, text, entries);
      pos = command.end;
    }
  } catch (err) {
    if (!(err instanceof ShellSyntaxError)) throw err;
  }
  return entries;
}
