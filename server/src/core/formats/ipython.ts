import type { Language } from 'web-tree-sitter';
import type { Extraction, Range, Setting } from '../model/types';
import { extractPython } from './python';
import { extractShell } from './shell';

/**
 * Cell magics whose body is Python (IPython's built-in `%%time`, `%%timeit`, `%%capture`, `%%prun`,
 * `%%debug`). Any other cell magic (`%%bash`, `%%writefile`, `%%html`, …) makes the cell not Python.
 */
const PYTHON_CELL_MAGICS = new Set(['time', 'timeit', 'capture', 'prun', 'debug']);

/** A line magic or shell escape at the start of a statement: `%env K=V`, `!export K=V`, `x = !ls`. */
const MAGIC_LINE = /^([ \t]*(?:[A-Za-z_][\w.]*[ \t]*=[ \t]*)?)([%!].*)$/gm;

/** `%env`/`%set_env` with their argument (IPython core/magics/osm.py `OSMagics.env`/`set_env`). */
const ENV_MAGIC = /^%(env|set_env)[ \t]+(\S.*)$/;

/**
 * Blanks the body of a cell that starts with a non-Python cell magic (`%%bash`, `%%writefile x.py`):
 * every character but line breaks becomes a space, so offsets hold and nothing in it is read.
 * Text without such a first line comes back unchanged.
 */
export function blankCellMagic(cell: string): string {
  const first = /^[ \t]*%%(\w+)/.exec(cell);
  if (!first || PYTHON_CELL_MAGICS.has(first[1])) return cell;
  return cell.replace(/[^\r\n]/g, ' ');
}

/**
 * Extracts an IPython source (a `.ipy` file, or a notebook's code cells joined by line breaks) as
 * Python, after turning every line magic and `!` shell escape into a Python expression of the same
 * length (`0` and spaces), so ranges hold and the statement structure stays valid. What the magics
 * set is read too:
 * - `%env K=V`, `%env K V`, `%set_env K=V`: an `env` setting whose value is the text after the first
 *   `=` (or the first run of white space when there is no `=`), stripped, quotes kept — as IPython's
 *   `OSMagics.set_env` stores it (IPython core/magics/osm.py). A value with `$` or `{` is expanded by
 *   IPython before the magic runs, so it is dynamic.
 * - `!…` lines are read by the shell extractor (`!export K=V`, `!curl …`, `!taotoken cc …`). Each `!`
 *   line runs in its own subshell, so an `export` there does not reach the kernel; the value is still
 *   checked.
 * Ranges are UTF-16 offsets into `text`. Never throws (both extractors never do).
 */
export function extractIpython(text: string, python: Language, bash?: Language): Extraction {
  const source = blankCellMagic(text);
  const magics: { start: number; end: number }[] = [];
  const chars = source.split('');
  for (const match of source.matchAll(MAGIC_LINE)) {
    const start = match.index + match[1].length;
    if (magics.length > 0 && start < magics[magics.length - 1].end) continue;
    let end = start + match[2].length;
    // IPython joins a magic or `!` line ending in `\` with the next line (its input splitter).
    while (source[end - 1] === '\\') {
      const next = source.indexOf('\n', end + 1);
      end = next < 0 ? source.length : next;
      if (source[end - 1] === '\r') end--;
    }
    magics.push({ start, end });
    for (let i = start; i < end; i++) if (source[i] !== '\n' && source[i] !== '\r') chars[i] = i === start ? '0' : ' ';
  }
  const pythonText = chars.join('');
  const out = extractPython(pythonText, python);
  // `x = !ls` binds the magic's output: nothing Python can read there.
  const fromMagic = (s: Setting) => magics.some((m) => s.valueRange.start < m.end && m.start < s.valueRange.end);
  out.settings = out.settings.filter((s) => !fromMagic(s));
  for (const [name, s] of Object.entries(out.bindings)) if (fromMagic(s)) delete out.bindings[name];
  for (const magic of magics) {
    const setting = envMagic(text, magic.start, magic.end);
    if (setting) out.settings.push(setting);
  }
  const shellLines = magics.filter((m) => text[m.start] === '!');
  if (bash && shellLines.length > 0) {
    const shell = extractShell(shellText(text, shellLines), bash);
    out.settings.push(...shell.settings);
    out.requestSites.push(...shell.requestSites);
    out.consumerEvidence.push(...shell.consumerEvidence);
    out.envReads.push(...shell.envReads);
    out.comments.push(...shell.comments);
    out.comments.sort((a, b) => a.range.start - b.range.start);
  }
  out.settings.sort((a, b) => a.statementRange.start - b.statementRange.start || a.keyRange.start - b.keyRange.start);
  return out;
}

/** `text` with everything but the shell escapes (after their `!`/`!!`) turned into spaces. */
function shellText(text: string, lines: readonly { start: number; end: number }[]): string {
  const chars = text.replace(/[^\r\n]/g, ' ').split('');
  for (const { start, end } of lines) {
    const from = text[start + 1] === '!' ? start + 2 : start + 1;
    for (let i = from; i < end; i++) chars[i] = text[i];
  }
  return chars.join('');
}

/** The `env` setting of a `%env`/`%set_env` magic spanning `[start, end)`, or `undefined`. */
function envMagic(text: string, start: number, end: number): Setting | undefined {
  const line = text.slice(start, end);
  const match = ENV_MAGIC.exec(line);
  if (!match) return undefined;
  const argStart = start + match[0].length - match[2].length;
  const arg = match[2];
  const split = arg.includes('=') ? arg.indexOf('=') : arg.search(/[ \t]/);
  if (split < 0) return undefined;
  const key = arg.slice(0, split).trim();
  if (key === '' || /\s/.test(key)) return undefined;
  const rest = arg.slice(split + 1);
  const lead = rest.length - rest.trimStart().length;
  const value = rest.trim();
  const keyStart = argStart + arg.indexOf(key);
  const valueRange: Range = { start: argStart + split + 1 + lead, end: argStart + split + 1 + lead + value.length };
  const dynamic = /[$]|\{/.test(value);
  return {
    key,
    path: key,
    format: 'python',
    kind: 'env',
    raw: value,
    value: dynamic ? undefined : value,
    valueType: dynamic ? 'dynamic' : 'string',
    keyRange: { start: keyStart, end: keyStart + key.length },
    valueRange,
    contentRange: valueRange,
    quote: '',
    statementRange: { start, end },
    group: '%env',
  };
}
