import type { Extraction } from '../model/types';
import { formatOf } from '../files';
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
 * spells otherwise, which `spellsNamesIndirectly` admits wholesale: Python string escapes and implicit
 * concatenation in an env access (`os.getenv("OPENAI_" "BASE_URL")`), `\x`/`\u` escapes in data formats,
 * and LangChain's `ChatOpenAI()` without `base_url`, which reads `OPENAI_API_BASE` (sdk-calls.ts).
 */
export class IndexScope {
  private readonly names = new Set<string>();
  private readonly loadedFiles = new Set<string>();
  private matcher: RegExp | null | undefined;

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
    const format = formatOf(env.path);
    if (format === 'json' || format === 'yaml' || format === 'toml') this.loadedFiles.add(env.path.slice(env.path.lastIndexOf('/') + 1));
  }

  /** The variable names collected so far (for tests and progress notes). */
  get size(): number {
    return this.names.size;
  }

  /**
   * Whether the file at `relPath` (workspace-relative) with `text` may hold a fact the named documents'
   * lint reads (see the class comment). A cheap pass over the text: no parse.
   */
  needs(relPath: string, text: string): boolean {
    const format = formatOf(relPath);
    if (!format) return false;
    if ((format === 'shell' || format === 'yaml') && LAUNCH_TOKEN.test(text)) return true;
    if (format === 'yaml' && text.includes('env_file')) return true;
    const code = format === 'python' || format === 'notebook';
    if (code && [...this.loadedFiles].some((name) => text.includes(name))) return true;
    if (this.names.size === 0) return false;
    if (code && this.names.has('OPENAI_API_BASE') && text.includes('ChatOpenAI')) return true;
    if (this.wordMatcher().test(text)) return true;
    return spellsNamesIndirectly(format, text);
  }

  private wordMatcher(): RegExp {
    if (!this.matcher) {
      const alternatives = [...this.names].sort().map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
      this.matcher = new RegExp(`(?<![A-Za-z0-9_])(?:${alternatives.join('|')})(?![A-Za-z0-9_])`);
    }
    return this.matcher;
  }
}

/** `os.getenv(`, `os.environ.get(`, `environ[`, `os.environ.setdefault(`, `os.environ.pop(`: where Python names a variable. */
const PYTHON_ENV_ACCESS = /\b(?:getenv|environ)\b\s*(?:\.\s*(?:get|setdefault|pop)\s*)?[([]/g;
/** A name argument the Python extractor reads exactly as written: a plain one-line literal ending the argument, or no literal at all. */
const PLAIN_ARGUMENT = /^\s*(?:(?:key\s*=\s*)?[rRuUbB]{0,2}(?:"[^"\\\n]*"|'[^'\\\n]*')\s*[,)\]]|[A-Za-z_][\w.]*\s*[,)\].(]|[)\]])/;
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
  PYTHON_ENV_ACCESS.lastIndex = 0;
  for (let m = PYTHON_ENV_ACCESS.exec(source); m; m = PYTHON_ENV_ACCESS.exec(source)) {
    const after = source.slice(m.index + m[0].length, m.index + m[0].length + 400);
    if (!PLAIN_ARGUMENT.test(after)) return true;
  }
  return false;
}
