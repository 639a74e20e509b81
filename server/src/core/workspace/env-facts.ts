import type { Consumer, Extraction, FileLocation, Range, Role, Setting } from '../model/types';
import { loadedConfigReads, loadedReadName } from '../evidence/loaded-config';
import type { ResolvedBaseUrl } from '../resolve/resolve';
import { consumersOf } from '../resolve/consumers';
import { LineIndex } from '../positions';
import { isServerLaunch } from '../formats/shell';
import { formatOf } from '../files';
import { serverLaunches, type ServerLaunch } from './servers';
import { redactUrlCredentials } from '../redact';
import { containing } from '../range-lookup';
import { groupBy } from '../group-by';

/** A span in some workspace file (see `FileLocation`). */
export type EnvLocation = FileLocation;

/**
 * Where a definition comes from, which decides its place in the load order:
 * - `process`: sets the process environment of what it launches (shell `export`, Compose
 *   `environment:`, Kubernetes `env:`, Claude Code `settings.json` `env`, `os.environ[…] = v`)
 * - `dotenv`: a dotenv file a loader reads (`.env`, `.env.local`, `.env.<mode>`, `*.env`)
 * - `template`: `.env.example`/`.sample`/`.template`: documentation, never loaded
 */
export type EnvDefinitionSource = 'process' | 'dotenv' | 'template';

/** One `NAME=value` in the workspace. */
export interface EnvDefinition {
  name: string;
  /** The key as written. */
  at: EnvLocation;
  /** The value as written. */
  valueAt: EnvLocation;
  /** The decoded value most loaders see; `undefined` when dynamic (`${OTHER}`, a call). */
  value: string | undefined;
  source: EnvDefinitionSource;
  /** What the setting means (`baseUrl`, `apiKey`, …), from its name, when it has a role. */
  role?: Role;
}

/**
 * How a read is written: Python `os.getenv`/`os.environ`, shell or Compose `${VAR}`, YAML `${VAR}`,
 * Hydra/OmegaConf `${oc.env:VAR}`, LiteLLM `os.environ/VAR`, JS/TS `process.env.VAR`, IPython `%env`.
 */
export type EnvReadSyntax = 'python' | 'shell' | 'yaml' | 'oc.env' | 'litellm' | 'js';

/** One place that reads an environment variable. */
export interface EnvReadRef {
  name: string;
  at: EnvLocation;
  syntax: EnvReadSyntax;
  defaultValue?: string;
  /** The clients the value flows into, when the same file shows it (`OpenAI(base_url=…)`, `f"{base}/v1/…"`). */
  consumers: Consumer[];
  /** The value is the bind address of a server launch (`sglang.launch_server --host $HOST`), not a destination. */
  bindAddress?: boolean;
}

/**
 * A Compose service's `env_file:` entry (`env_file: ./a.env`, a list, or `- path: ./a.env` with
 * `required: false`): the named dotenv file is loaded into that service's environment.
 */
export interface EnvFileLink {
  /** The named file, workspace-relative (resolved against the compose file's folder, `/`-separated); `undefined` when it leaves the workspace. */
  target: string | undefined;
  /** The path as written. */
  at: EnvLocation;
  service: string;
  /** `false` for `required: false` (Compose skips a missing file); Compose's default is `true`. */
  required: boolean;
  /** 0-based position in the service's `env_file:` list: later files override earlier ones (compose-spec `env_file`). */
  order: number;
}

/**
 * A literal base URL written in a file (Test Connection's endpoint list comes from the index, never
 * from a rescan). `baseUrl` has credentials redacted (`user:****@`); no key is kept.
 */
export interface IndexedEndpoint {
  /** The key as written (`OPENAI_BASE_URL`, `base_url`). */
  key: string;
  valueAt: EnvLocation;
  baseUrl: string;
  /** Consumer ids, most likely first. */
  consumers: string[];
  /** Provider profile ids, best first. */
  providers: string[];
}

/** What one file contributes to the workspace env index. */
export interface FileEnv {
  path: string;
  definitions: EnvDefinition[];
  reads: EnvReadRef[];
  /** Compose files: the dotenv files their services name in `env_file:`. */
  envFiles?: EnvFileLink[];
  /** The literal base URLs the file writes (omitted when none). */
  endpoints?: IndexedEndpoint[];
  /** Python: `load_dotenv(override=True)` — dotenv values win over the process environment for this file's reads. */
  dotenvOverrides?: boolean;
  /** JSON/YAML/TOML: the `loadedReadName`s of its base URLs, whose reads in code (`json.load` … `OpenAI(base_url=…)`) it depends on. */
  loadedNames?: string[];
  /** Launch scripts and Compose files: the vLLM/SGLang servers they start, with their served model names. */
  servers?: ServerLaunch[];
}

/** Template dotenv names that no loader reads (DESIGN: exempt from key rules). */
const TEMPLATE = /(^|[./_-])(example|sample|template|dist|defaults?)$/i;

/** True for a dotenv template (`.env.example`, `.env.sample`, `example.env`): no loader reads it; a user copies it to `.env` beside it. */
export function isDotenvTemplate(path: string): boolean {
  return isDotenvPath(path) && TEMPLATE.test(path.slice(path.lastIndexOf('/') + 1));
}

/** Flags by which a server launch names the address it listens on (sglang, vllm, uvicorn, swift). */
const BIND_FLAGS = new Set(['--host', '--bind', '--listen', '--address']);

/** `${VAR}`, `${VAR:-d}`, `${VAR-d}`, `$VAR`, `${oc.env:VAR}`, `${oc.env:VAR,d}`, LiteLLM `os.environ/VAR`. */
export const INTERPOLATION = /\$\{oc\.env:\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:,\s*([^}]*))?\}|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-=]([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)|^os\.environ\/([A-Za-z_][A-Za-z0-9_]*)$/g;

/** A `python -m pkg.router_server` / `serve_policy.py` style program: its name says it serves. */
const SERVER_NAMED = /(^|[./_-])(server|serve|router|launch_server|api_server)(\.py)?$/i;

/**
 * A command that starts a server (`isServerLaunch`), or runs a module or script whose name says it is
 * one (`python -m terminal-rl.router_server --host …`): only used to silence, never to report.
 */
function launchesServer(command: string): boolean {
  if (isServerLaunch(command)) return true;
  const words = command.trim().split(/\s+/);
  const m = words.indexOf('-m');
  const target = m >= 0 ? words[m + 1] : words.find((w) => /\.py$/.test(w));
  return target !== undefined && SERVER_NAMED.test(target.replace(/^["']|["']$/g, ''));
}

function isDotenvPath(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.startsWith('.env') || base.endsWith('.env');
}

/** The name a setting defines when it is an env definition, else `undefined`. */
function definedName(setting: Setting): string | undefined {
  return setting.kind === 'env' ? setting.key : undefined;
}

/** The names a script exports by name (`export A B`, `export A=1`) and where `set -a` starts auto-export (-1: never). */
function exportsOf(text: string): { names: Set<string>; autoFrom: number } {
  const names = new Set<string>();
  for (const m of text.matchAll(/(?:^|[\n;])[ \t]*export[ \t]+([^\n;]*)/g)) {
    for (const word of m[1].split(/\s+/)) {
      const name = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(word)?.[1];
      if (name && !word.startsWith('-')) names.add(name);
    }
  }
  const auto = /(?:^|\n)[ \t]*set[ \t]+-\w*a/.exec(text);
  return { names, autoFrom: auto ? auto.index : -1 };
}

/** Whether a shell script-level assignment reaches child processes (`export K=`, `declare -x`, `set -a`, a later `export K`). */
function exported(text: string, setting: Setting, exports: { names: Set<string>; autoFrom: number }): boolean {
  if (setting.group !== 'file') return true; // `K=V cmd` prefixes go to `cmd`'s environment
  const statement = text.slice(setting.statementRange.start, setting.keyRange.start);
  if (/^\s*(export|declare\s+-\w*x\w*|typeset\s+-\w*x\w*)\b/.test(statement)) return true;
  if (exports.autoFrom >= 0 && exports.autoFrom < setting.statementRange.start) return true;
  return exports.names.has(setting.key);
}

/**
 * The env definitions and reads of one linted document, for the workspace env index. `extraction`
 * must have been resolved (roles filled in); `baseUrls` are the document's resolved base URLs, whose
 * consumers a read inside them flows into. Offsets are into `text` (BOM removed).
 */
export function envFactsOf(path: string, text: string, extraction: Extraction, baseUrls: readonly ResolvedBaseUrl[]): FileEnv {
  const lines = new LineIndex(text);
  const loc = (range: Range): EnvLocation => ({ path, range, start: lines.positionAt(range.start), end: lines.positionAt(range.end) });
  const file: FileEnv = { path, definitions: [], reads: [] };
  const dotenv = isDotenvPath(path);
  const base = path.slice(path.lastIndexOf('/') + 1);
  let exports: ReturnType<typeof exportsOf> | undefined;
  for (const setting of extraction.settings) {
    const name = definedName(setting);
    if (!name) continue;
    if (setting.format === 'shell' && !exported(text, setting, (exports ??= exportsOf(text)))) continue;
    file.definitions.push({
      name,
      at: loc(setting.keyRange),
      valueAt: loc(setting.valueRange),
      value: setting.value !== undefined && /\$\{|\$[A-Za-z_]/.test(setting.value) && setting.quote !== "'" ? undefined : setting.value,
      source: dotenv ? (TEMPLATE.test(base) ? 'template' : 'dotenv') : 'process',
      ...(setting.role ? { role: setting.role } : {}),
    });
  }
  let envEvidence: Map<string, Consumer[]> | undefined;
  const within = containing(baseUrls, (b) => b.setting.valueRange);
  const evidence = (name: string, range: Range): Consumer[] => {
    if (!envEvidence) {
      envEvidence = new Map();
      for (const e of extraction.consumerEvidence) {
        if (!e.target.startsWith('env:') || e.consumer.origin) continue;
        const list = envEvidence.get(e.target) ?? [];
        if (!list.some((c) => c.id === e.consumer.id && c.appendedPath === e.consumer.appendedPath)) list.push(e.consumer);
        envEvidence.set(e.target, list);
      }
    }
    const out = [...(envEvidence.get(`env:${name}`) ?? [])];
    for (const b of within(range)) for (const c of b.consumers) if (!out.some((o) => o.id === c.id)) out.push(c);
    return out;
  };
  const bindFlags = extraction.settings.filter((s) => s.kind === 'flag' && BIND_FLAGS.has(s.key) && s.command !== undefined && launchesServer(s.command));
  const bindAround = containing(bindFlags, (s) => s.valueRange);
  const isBind = (range: Range) => bindAround(range).some((s) => text.slice(s.contentRange.start, s.contentRange.end).trim().replace(/^["']|["']$/g, '') === text.slice(range.start, range.end));
  const code = codeSyntax(path, extraction);
  for (const read of extraction.envReads) {
    const syntax = code ?? 'shell';
    const ref: EnvReadRef = { name: read.name, at: loc(read.range), syntax, consumers: evidence(read.name, read.range) };
    if (read.defaultValue !== undefined) ref.defaultValue = read.defaultValue;
    if (syntax === 'shell' && isBind(read.range)) ref.bindAddress = true;
    file.reads.push(ref);
  }
  if (code === undefined) {
    file.reads.push(...interpolationReads(extraction, baseUrls, loc));
    const loadedNames = [...new Set(baseUrls.filter((b) => b.setting.kind === 'property').map((b) => loadedReadName(path, b.setting.key)))];
    if (loadedNames.length) file.loadedNames = loadedNames;
  }
  // Values of loaded config files that reach a client (`OpenAI(base_url=json.load(…)[name]["base_url"])`), for the config file's lint.
  if (code === 'python') {
    for (const read of loadedConfigReads(path, text, extraction)) {
      for (const target of read.files) file.reads.push({ name: loadedReadName(target, read.key), at: loc(read.range), syntax: 'python', consumers: [read.consumer] });
    }
  }
  const envFiles = composeEnvFiles(path, extraction, loc);
  if (envFiles.length) file.envFiles = envFiles;
  file.dotenvOverrides = extraction.settings.some((s) => s.kind === 'kwarg' && s.key === 'override' && /(^|\.)load_dotenv$/.test(s.callee ?? '') && s.valueType === 'boolean' && s.value?.toLowerCase() === 'true');
  if (!file.dotenvOverrides) delete file.dotenvOverrides;
  const servers = serverLaunches(path, text, extraction);
  if (servers.length) file.servers = servers;
  const endpoints = baseUrls
    .filter((b) => b.parsed !== undefined && b.setting.value !== undefined && !b.setting.origin)
    .map((b): IndexedEndpoint => ({ key: b.setting.key, valueAt: loc(b.setting.valueRange), baseUrl: redactUrlCredentials(b.setting.value!.trim()), consumers: b.consumers.map((c) => c.id), providers: b.providers.map((p) => p.id) }));
  if (endpoints.length) file.endpoints = endpoints;
  return file;
}

/**
 * `python` for Python code, and for notebooks (`.ipynb`: their code cells are Python; an extractor that
 * yields IPython `%env K=V` / `%set_env` as `env` settings and `os.environ` reads feeds this index as
 * is), `shell` for scripts, `js` for JavaScript/TypeScript; `undefined` for data formats, whose values are scanned for `${VAR}`.
 */
function codeSyntax(path: string, extraction: Extraction): 'python' | 'shell' | 'js' | undefined {
  if (formatOf(path) === 'javascript') return 'js';
  const format = extraction.settings[0]?.format as string | undefined;
  if (/\.(pyi?|ipynb|ipy)$/i.test(path) || format === 'python') return 'python';
  if (/\.(sh|bash)$/i.test(path) || format === 'shell') return 'shell';
  return undefined;
}

/** Reads written inside YAML/JSON/dotenv values: `${VAR}`, `${oc.env:VAR}`, `os.environ/VAR`. */
function interpolationReads(extraction: Extraction, baseUrls: readonly ResolvedBaseUrl[], loc: (r: Range) => EnvLocation): EnvReadRef[] {
  const out: EnvReadRef[] = [];
  let byBaseUrl: Map<Setting, ResolvedBaseUrl> | undefined;
  let groups: Map<string, Setting[]> | undefined;
  const groupOf = (group: string) => (groups ??= groupBy(extraction.settings, (s) => s.group)).get(group) ?? [];
  for (const setting of extraction.settings) {
    if (setting.format === 'dotenv' && setting.quote === "'") continue; // single quotes: no expansion in any loader
    const raw = setting.raw;
    if (!raw.includes('$') && !raw.includes('os.environ/')) continue;
    const content = setting.quote ? raw.slice(1, raw.endsWith(setting.quote) ? -1 : undefined) : raw;
    const offset = setting.valueRange.start + (setting.quote ? 1 : 0);
    INTERPOLATION.lastIndex = 0;
    for (let m = INTERPOLATION.exec(content); m; m = INTERPOLATION.exec(content)) {
      const name = m[1] ?? m[3] ?? m[5] ?? m[6];
      if (!name) continue;
      const syntax: EnvReadSyntax = m[1] ? 'oc.env' : m[6] ? 'litellm' : setting.format === 'yaml' ? 'yaml' : 'shell';
      const range = { start: offset + m.index, end: offset + m.index + m[0].length };
      const whole = m[0].length === content.trim().length;
      // A whole-value reference (`os.environ/VAR`) has no literal base URL entry; its consumers follow from the setting itself.
      const consumers = !whole ? [] : (byBaseUrl ??= new Map(baseUrls.map((b) => [b.setting, b] as const).reverse())).get(setting)?.consumers ?? (setting.role === 'baseUrl' ? consumersOf(setting, groupOf, extraction.consumerEvidence) : []);
      const ref: EnvReadRef = { name, at: loc(range), syntax, consumers: [...consumers] };
      const fallback = m[2] ?? m[4];
      if (fallback !== undefined) ref.defaultValue = fallback.trim();
      out.push(ref);
    }
  }
  return out;
}

/** Compose `services.<name>.env_file`, `…env_file[i]`, `…env_file[i].path` (the compose-spec short and long syntax). */
const COMPOSE_ENV_FILE = /^services\.("(?:[^"\\]|\\.)*"|[^."]+)\.env_file(\[\d+\])?(\.path)?$/;

/** `dir` joined with a relative `path` (`./a`, `../b/c`), `/`-separated; `undefined` for an absolute path or one that climbs out of the workspace. */
export function joinRelative(dir: string, path: string): string | undefined {
  if (/^([/\\]|[A-Za-z]:|~|\$)/.test(path)) return undefined;
  const parts = dir ? dir.split('/') : [];
  for (const segment of path.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.length ? parts.join('/') : undefined;
}

/**
 * The `env_file:` entries of a Compose file's services, per the compose-spec `env_file` attribute
 * (a string, a list of strings, or a list of `{path, required}`; relative paths resolve against the
 * compose file's folder).
 */
function composeEnvFiles(path: string, extraction: Extraction, loc: (r: Range) => EnvLocation): EnvFileLink[] {
  const out: EnvFileLink[] = [];
  const dir = path.slice(0, Math.max(0, path.lastIndexOf('/')));
  for (const setting of extraction.settings) {
    if (setting.format !== 'yaml' || setting.value === undefined || setting.value.trim() === '') continue;
    const m = COMPOSE_ENV_FILE.exec(setting.path);
    if (!m || (m[2] === undefined && m[3] !== undefined)) continue;
    const service = m[1].replace(/^"|"$/g, '');
    const order = m[2] === undefined ? 0 : Number(m[2].slice(1, -1));
    const required = !(m[3] && extraction.settings.some((s) => s.path === `${setting.path.slice(0, -'.path'.length)}.required` && /^false$/i.test(s.value ?? '')));
    out.push({ target: joinRelative(dir, setting.value.trim()), at: loc(setting.valueRange), service, required, order });
  }
  return out;
}
