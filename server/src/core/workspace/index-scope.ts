import type { Extraction } from '../model/types';
import { formatOf, isIpythonPath } from '../files';
import type { FileEnv } from './env-facts';
import { LAUNCH_TOKEN } from './servers';

/**
 * Which other files the env index needs so that linting some named files gives the same findings as
 * an index of the whole project (issue 27 item 1: `rollout-lint .env`, pre-commit's staged files).
 *
 * What a lint of a named document asks its `EnvView` (cross-file.ts, base-url-bind-address,
 * evidence/env.ts, api-key-server-mismatch, model-not-served), and which files can answer:
 * - the definitions and reads of each variable the document defines or reads (`chain`, `reads`,
 *   `readsElsewhere`, `readersOf`; a chain also reads each reader file's `dotenvOverrides`, and that
 *   file reads the name): only files whose text spells the name;
 * - the Compose `env_file:` links (`loadedBy`, in every chain): YAML that says `env_file`;
 * - every server launch (`servers()`): shell and YAML with a launch token (`shellLaunches`, `composeLaunches`);
 * - for a JSON/YAML/TOML document, the Python reads of its values (`loadedReadName`): code that names
 *   the file (its base name is the last literal of the path it opens, `loadedConfigReads`).
 * A file's index facts depend on its own text only (`envFactsOf`), so every file outside these sets
 * changes nothing the named documents see. Names are matched case-sensitively as whole words (every
 * extractor takes a variable name as written), except where an extractor decodes a name the text
 * spells otherwise: Python string escapes and implicit concatenation in an env access
 * (`os.getenv("OPENAI_" "BASE_URL")`, admitted wholesale by `spellsNamesIndirectly`), escapes and
 * escaped line breaks in data formats (matched in the decoded text too, `decodedData`), and LangChain's
 * `ChatOpenAI()` without `base_url`, which reads `OPENAI_API_BASE` (sdk-calls.ts).
 * Narrower still, where the extractors allow it:
 * - Python (`.py`, `.pyi`; not IPython): only an env access names a variable (`envReadOf`,
 *   `os.environ[…] = v` and `os.environ.setdefault`, python/settings.ts), so a name spelled only in a
 *   comment, a docstring or any other string does not admit the file (`pythonEnvNames`);
 * - launches: only `model-not-served` (a named document with a `model` setting) and
 *   `api-key-server-mismatch` (one with an `apiKey` setting, and then only launches passing
 *   `--api-key`) ask `servers()`; a named document whose extraction is unknown asks for all of them.
 */
export class IndexScope {
  private readonly names = new Set<string>();
  private readonly loadedFiles = new Set<string>();
  private matcher: RegExp | null | undefined;
  /** A named document may ask every server launch (it has a `model` setting, or its extraction is unknown). */
  private everyLaunch = false;
  /** A named document may ask the launches that pass `--api-key` (it has an `apiKey` setting). */
  private keyedLaunches = false;

  /** Adds what the lint of one named document can ask the index: its facts (`env`) and, when known, its extraction's env settings. */
  addDocument(env: FileEnv, extraction?: Extraction): void {
    const add = (name: string | undefined) => {
      if (name && !name.startsWith('@load:') && !this.names.has(name)) {
        this.names.add(name);
        this.matcher = undefined;
      }
    };
    for (const d of env.definitions) add(d.name);
    for (const r of env.reads) add(r.name);
    for (const s of extraction?.settings ?? []) {
      if (s.kind === 'env') add(s.key);
      add(s.envName);
    }
    for (const r of extraction?.envReads ?? []) add(r.name);
    // roles are set by `resolve` before the index keeps the extraction; a lint adds only imported settings (`origin`), which neither rule reads
    if (!extraction) this.everyLaunch = true;
    for (const s of extraction?.settings ?? []) {
      if (s.role === 'model') this.everyLaunch = true;
      else if (s.role === 'apiKey') this.keyedLaunches = true;
    }
    const format = formatOf(env.path);
    if (format === 'json' || format === 'yaml' || format === 'toml') this.loadedFiles.add(env.path.slice(env.path.lastIndexOf('/') + 1));
  }

  /** The variable names collected so far (for tests and progress notes). */
  get size(): number {
    return this.names.size;
  }

  /** The variable names collected so far. */
  get variableNames(): string[] {
    return [...this.names];
  }

  /** Which server launches the named documents' lint can ask (`servers()`): `all`, those passing `--api-key` (`keyed`), or `none`. */
  get launches(): 'all' | 'keyed' | 'none' {
    return this.everyLaunch ? 'all' : this.keyedLaunches ? 'keyed' : 'none';
  }

  /**
   * Whether the file at `relPath` (workspace-relative) with `text` may hold a fact the named documents'
   * lint reads (see the class comment). A cheap pass over the text: no parse.
   */
  needs(relPath: string, text: string): boolean {
    const format = formatOf(relPath);
    if (!format) return false;
    if ((format === 'shell' || format === 'yaml') && this.launches !== 'none' && LAUNCH_TOKEN.test(text) && (this.launches === 'all' || mayPassApiKey(text))) return true;
    if (format === 'yaml' && text.includes('env_file')) return true;
    const code = format === 'python' || format === 'notebook';
    if (code && [...this.loadedFiles].some((name) => text.includes(name))) return true;
    if (this.names.size === 0) return false;
    if (code && this.names.has('OPENAI_API_BASE') && text.includes('ChatOpenAI')) return true;
    if (format === 'python' && !isIpythonPath(relPath)) {
      const spelled = pythonEnvNames(text);
      return spelled === 'indirect' || [...spelled].some((name) => this.names.has(name));
    }
    if (this.wordMatcher().test(text)) return true;
    if (format === 'yaml' || format === 'json' || format === 'toml') return text.includes('\\') && decodedData(text).some((decoded) => this.wordMatcher().test(decoded));
    return spellsNamesIndirectly(format, text);
  }

  /**
   * A coarser `needs` over what a file contains, for deciding from its bytes whether to decode it at all:
   * `needs(relPath, text)` implies `mayNeed(relPath, (s) => text.includes(s))`. `contains` is asked
   * about ASCII strings and the variable names.
   */
  mayNeed(relPath: string, contains: (s: string) => boolean): boolean {
    const format = formatOf(relPath);
    if (!format) return false;
    if ((format === 'shell' || format === 'yaml') && this.launches !== 'none' && (contains('vllm') || contains('sglang'))) return true;
    if (format === 'yaml' && contains('env_file')) return true;
    const code = format === 'python' || format === 'notebook';
    if (code && [...this.loadedFiles].some(contains)) return true;
    if (this.names.size === 0) return false;
    if (code && this.names.has('OPENAI_API_BASE') && contains('ChatOpenAI')) return true;
    const named = [...this.names].some(contains);
    if (format === 'python' && !isIpythonPath(relPath)) return named && (contains('environ') || contains('getenv'));
    if (named) return true;
    if (format === 'yaml' || format === 'json' || format === 'toml') return contains('\\');
    return code && (contains('environ') || contains('getenv'));
  }

  private wordMatcher(): RegExp {
    if (!this.matcher) {
      const alternatives = [...this.names].sort().map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
      this.matcher = new RegExp(`(?<![A-Za-z0-9_])(?:${alternatives.join('|')})(?![A-Za-z0-9_])`);
    }
    return this.matcher;
  }
}

/** What may stand between two tokens of a Python expression inside brackets: white space, comments, line continuations. */
const GAP = String.raw`(?:\s|\\\r?\n|#[^\n]*)*`;
/**
 * `os.getenv(`, `os.environ.get(`, `environ[`, `os.environ.setdefault(`, `os.environ.pop(`: where Python names a variable. The
 * extractor compares callees with white space removed (`compact`), and brackets may follow after comments and line continuations.
 */
const PYTHON_ENV_ACCESS = new RegExp(String.raw`\b(?:getenv|environ)\b(?:\s*\.\s*(?:get|setdefault|pop)\b)?${GAP}[([]`, 'g');
/** A name argument the Python extractor reads exactly as written: a plain one-line literal ending the argument (group 1: its content), or no literal at all. */
const PLAIN_ARGUMENT = /^\s*(?:(?:key\s*=\s*)?[rRuUbB]{0,2}(?:"([^"\\\n]*)"|'([^'\\\n]*)')\s*[,)\]]|[A-Za-z_][\w.]*\s*[,)\].(]|[)\]])/;
/**
 * Escapes by which YAML, JSON, JSON5 and TOML strings spell a character otherwise (`\x41`, `\u0041`, `\/`).
 * A `\` before a line break joins lines only inside a YAML double-quoted scalar, and a key can be one only
 * as an explicit key (`? "…"`: implicit keys are one line, YAML 1.2 §7.4); reads are found in the raw value text.
 */
const DATA_ESCAPE = /\\(?:[xuU][0-9a-fA-F]|\/)/;
const YAML_EXPLICIT_KEY = /^[ \t-]*\?[ \t]/m;
const LINE_JOIN = /\\\r?\n/;

/**
 * Whether the text may define or read a variable under a name it does not spell out: a Python env
 * access whose name argument is not a plain literal (escapes, implicit concatenation, a literal over
 * several lines; Python's `stringValue` decodes them), or a data file with escapes (`DATA_ESCAPE`: YAML,
 * JSON and TOML parsers decode keys). Notebook sources are read through their JSON string escapes.
 */
export function spellsNamesIndirectly(format: string, text: string): boolean {
  if (format === 'yaml' && YAML_EXPLICIT_KEY.test(text) && LINE_JOIN.test(text)) return true;
  if (format === 'yaml' || format === 'json' || format === 'toml') return DATA_ESCAPE.test(text);
  if ((format !== 'python' && format !== 'notebook') || (!text.includes('environ') && !text.includes('getenv'))) return false;
  let source = text;
  if (format === 'notebook') {
    if (/\\u[0-9a-fA-F]{4}/.test(text)) return true;
    source = text.replace(/\\(["\\/bfnrt])/g, (_, c: string) => ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' })[c] ?? c);
  }
  return pythonEnvNames(source) === 'indirect';
}

/**
 * The variable names Python `source` spells in env accesses (`PYTHON_ENV_ACCESS` followed by a plain
 * literal), or `indirect` when some access names one otherwise (an escape, implicit concatenation, a
 * parenthesised or multi-line literal, a comment before the argument: `stringValue` may decode those).
 * Every env read or write the Python extractor finds names its variable through such an access, so a
 * name outside the set is neither read nor written by `source`.
 */
export function pythonEnvNames(source: string): Set<string> | 'indirect' {
  const names = new Set<string>();
  if (!source.includes('environ') && !source.includes('getenv')) return names;
  PYTHON_ENV_ACCESS.lastIndex = 0;
  for (let m = PYTHON_ENV_ACCESS.exec(source); m; m = PYTHON_ENV_ACCESS.exec(source)) {
    const after = source.slice(m.index + m[0].length, m.index + m[0].length + 400);
    const plain = PLAIN_ARGUMENT.exec(after);
    if (!plain) return 'indirect';
    const literal = plain[1] ?? plain[2];
    if (literal !== undefined) names.add(literal);
  }
  return names;
}

/** `--api-key`/`--api_key` as a launch's argument words may spell it once quotes, backslashes and line continuations are decoded (`hasFlag`, servers.ts). */
const API_KEY_FLAG = /[-_]{2}api[-_]key/i;

/**
 * Whether a launch in `text` (shell or YAML) may pass `--api-key`: the flag spelled out once quotes,
 * backslashes and line continuations are dropped; any text with ANSI-C quoting (`$'…'`) or numeric
 * escapes (`\x2d`, `\055`, `\u002d`), which can spell any character, is taken.
 */
export function mayPassApiKey(text: string): boolean {
  if (text.includes("$'") || /\\[0-7xuU]/.test(text)) return true;
  return API_KEY_FLAG.test(text.replace(/\\\r?\n[ \t]*|["'\\]/g, ''));
}

/**
 * `text` (YAML, JSON, JSON5 or TOML) with its string escapes decoded as every parser does (`\xHH`,
 * `\uHHHH`, `\UHHHHHHHH`, `\u{…}`, `\c` for any other character), in two readings of an escaped line
 * break: the break alone dropped (JSON5), and the break with the white space after it (YAML
 * double-quoted scalars, TOML multi-line basic strings). A name a parser decodes from escapes appears
 * spelled out in one of them; escapes are decoded outside strings too, which only admits more.
 */
export function decodedData(text: string): string[] {
  const decode = (joinWhitespace: boolean) =>
    text.replace(/\\(?:(\r?\n)([ \t\r\n]*)|x([0-9a-fA-F]{2})|u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|([^]))/g, (_m, br?: string, ws?: string, x?: string, ub?: string, u?: string, U?: string, c?: string) => {
      if (br !== undefined) return joinWhitespace ? '' : (ws ?? '');
      const hex = x ?? ub ?? u ?? U;
      if (hex !== undefined) {
        const code = Number.parseInt(hex, 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      return c ?? '';
    });
  return [decode(false), decode(true)];
}
