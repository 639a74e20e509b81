import type { Consumer, Extraction, Range } from '../model/types';
import { consumerOfCallee } from '../model/clients';
import { joinRelative } from '../workspace/env-facts';

/**
 * A value a Python file reads from a config file it loads and hands to a client:
 * `MODELS = json.load(open("configs/models.json"))` … `OpenAI(base_url=MODELS[name]["base_url"])`
 * gives `{ files: ["configs/models.json", "<dir>/configs/models.json"], key: "base_url", consumer }`.
 * `files` are the workspace-relative paths the literal may name (relative to the working directory,
 * taken as the workspace root, or to the Python file's folder); `key` is the last string subscript.
 */
export interface LoadedConfigRead {
  files: string[];
  key: string;
  consumer: Consumer;
  range: Range;
}

const NAME = String.raw`[A-Za-z_][\w.]*`;
/**
 * `with open("p") as f:` or `with open(PATH) as f:` (any mode, `Path("p").open()` too), as a statement
 * starting its line. Every pattern here is anchored at a line start (`^` with `m`) so that at most one
 * match attempt per line scans that line: an unanchored pattern with a `[^\n]*` part retries at every
 * opener and costs (openers × line length), seconds for a 100 KB line (issue 29 item 7).
 */
const WITH_OPEN = new RegExp(String.raw`^[ \t]*(?:async\s+)?with\s+(?:open\(|(?:pathlib\.)?Path\()\s*(?:[rRuUbB]?(['"])([^'"\n]+)\1|(${NAME}))[^\n]*?\bas[ \t]+(${NAME})[ \t]*:`, 'gm');
/** `PATH = os.path.join(os.path.dirname(__file__), "configs", "models.json")`: a variable naming a config file. */
const PATH_VAR = new RegExp(String.raw`^[ \t]*(${NAME})\s*=\s*([^\n]*\.(?:json|jsonc|json5|ya?ml|toml)['"][^\n]*)$`, 'gm');
/** `V = json.load(…)`, `yaml.safe_load(…)`, `yaml.load(…, Loader=…)`, `tomllib.load(…)`, `json.loads(Path("p").read_text())`. */
const LOAD = new RegExp(String.raw`^[ \t]*(${NAME})[ \t]*(?::[^=\n]+)?=[ \t]*(?:json|yaml|toml|tomllib|tomli|json5)\.(?:safe_)?loads?\(([^\n]*)\)`, 'gm');
/** `W = V[…]…`, `W = V.get(…)`: `W` is part of what `V` holds. */
const ALIAS = new RegExp(String.raw`(${NAME})\s*=\s*(${NAME}?)((?:\[[^\]\n]*\]|\.get\([^)\n]*\))+)\s*(?:#.*)?$`, 'gm');
/** `for name, entry in V.items():` / `for entry in V:` / `for entry in V.values():`. */
const FOR = new RegExp(String.raw`for\s+(?:(${NAME})\s*,\s*)?(${NAME})\s+in\s+(${NAME}?)(?:\[[^\]\n]*\])*(?:\.(?:items|values)\(\))?\s*:`, 'g');
/** A config file literal inside a load call's arguments. */
const CONFIG_LITERAL = /(['"])([^'"\n]+\.(?:json|jsonc|json5|ya?ml|toml))\1/;
/** `root[…]["key"]` or `root.get("key")`: the accessor chain of a consumer's target. */
const ACCESS = new RegExp(String.raw`^(${NAME}?)((?:\[[^\]]*\]|\.get\([^)]*\))+)$`);

/** The last string subscript or `.get("…")` key of an accessor chain, or `undefined`. */
function lastKey(accessors: string): string | undefined {
  const keys = [...accessors.matchAll(/\[\s*(['"])([^'"]+)\1\s*\]|\.get\(\s*(['"])([^'"]+)\3/g)].map((m) => m[2] ?? m[4]);
  return keys[keys.length - 1];
}

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

function normalize(path: string): string | undefined {
  return path.startsWith('{') ? undefined : joinRelative('', path);
}

/**
 * The client-bound reads of loaded config files in a Python file (`path` workspace-relative): the
 * consumer evidence of its client calls (`OpenAI(base_url=entry["base_url"])`) traced back through
 * subscripts, `.get()`, `for … in V.items()` and plain assignments to a variable that `json.load`,
 * `yaml.safe_load` or `tomllib.load` filled from a literal file name. Idioms only; a value that goes
 * through a function call or a class is not followed (nothing is reported then, as before).
 */
export function loadedConfigReads(path: string, text: string, extraction: Extraction): LoadedConfigRead[] {
  if (!/\b(json|yaml|toml|tomllib|tomli|json5)\.(safe_)?loads?\(/.test(text)) return [];
  /** Variables that name a config file: the file's literal segments joined (`os.path.join(d, "configs", "m.json")` → `configs/m.json`). */
  const pathVars = new Map<string, string>();
  for (const m of text.matchAll(PATH_VAR)) {
    if (/\bf['"]/.test(m[2])) continue;
    const segments = [...m[2].matchAll(/(['"])([^'"\n]*)\1/g)].map((l) => l[2]).filter((l) => l !== '' && !/^[rwab+]+$/.test(l));
    if (segments.length && CONFIG_LITERAL.test(`"${segments[segments.length - 1]}"`)) pathVars.set(m[1], segments.join('/'));
  }
  const openFiles = new Map<string, string>();
  for (const m of text.matchAll(WITH_OPEN)) {
    const file = m[2] ?? (m[3] !== undefined ? pathVars.get(m[3]) : undefined);
    if (file) openFiles.set(m[4], file);
  }
  /** Variable → the config file it holds (part of). */
  const loaded = new Map<string, string>();
  for (const m of text.matchAll(LOAD)) {
    const args = m[2];
    const inner = /^(?:open|(?:pathlib\.)?Path)\(\s*([A-Za-z_][\w.]*)/.exec(args.trim())?.[1];
    const file = CONFIG_LITERAL.exec(args)?.[2] ?? openFiles.get(args.split(/[,)]/)[0].trim()) ?? (inner !== undefined ? pathVars.get(inner) : undefined);
    if (file) loaded.set(m[1], file);
  }
  if (loaded.size === 0) return [];
  /** Variable → `{file, key}` when it holds one value read from a loaded file (`base = cfg["base_url"]`). */
  const values = new Map<string, { file: string; key: string }>();
  for (let pass = 0; pass < 3; pass++) {
    for (const m of text.matchAll(ALIAS)) {
      const file = loaded.get(m[2]);
      if (!file || m[1] === m[2]) continue;
      const key = lastKey(m[3]);
      if (key) values.set(m[1], { file, key });
      loaded.set(m[1], file);
    }
    for (const m of text.matchAll(FOR)) {
      const file = loaded.get(m[3]);
      if (file) loaded.set(m[2], file);
    }
  }
  const out: LoadedConfigRead[] = [];
  const dir = dirOf(path);
  const candidates = (file: string) => [...new Set([normalize(file), dir ? normalize(`${dir}/${file}`) : undefined].filter((p): p is string => p !== undefined))];
  // The client calls' arguments: consumer evidence, and dynamic keyword arguments of a known client (`.get(…)` calls leave no evidence).
  const uses: { target: string; consumer: Consumer; range: Range }[] = extraction.consumerEvidence.filter((e) => !e.consumer.origin);
  for (const s of extraction.settings) {
    const id = s.kind === 'kwarg' && s.valueType === 'dynamic' && s.callee ? consumerOfCallee(s.callee) : undefined;
    if (id && !uses.some((u) => u.range.start < s.valueRange.end && s.valueRange.start < u.range.end)) uses.push({ target: s.raw, consumer: { id, via: `${s.callee}(${s.key}=…)` }, range: s.valueRange });
  }
  uses.sort((a, b) => a.range.start - b.range.start);
  for (const e of uses) {
    const target = e.target.trim();
    const access = ACCESS.exec(target);
    const file = access ? loaded.get(access[1]) : values.get(target)?.file;
    const key = access ? lastKey(access[2]) : values.get(target)?.key;
    if (!file || !key) continue;
    out.push({ files: candidates(file), key, consumer: e.consumer, range: e.range });
  }
  return out;
}

/** The env-index name under which a loaded config read is recorded (never a real variable name). */
export function loadedReadName(file: string, key: string): string {
  return `@load:${file}#${key}`;
}
