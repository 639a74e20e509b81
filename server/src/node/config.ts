import { statSync } from 'node:fs';
import { readBounded } from './read';
import { escapeForLine } from '../core/escape';
import { dirname, join, resolve } from 'node:path';
import { GLOB_LIMITS, globProblem } from '../core/glob';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { mergeConfig, type LintConfig } from '../core/config/config';
import type { ProviderProfile } from '../core/providers/profiles';
import { LineIndex } from '../core/positions';

/** The per-directory configuration file (DESIGN "Files, sizes, suppression, config"). */
export const CONFIG_FILE_NAME = '.rolloutlintrc.json';

/**
 * The shipped JSON Schema (`schemas/rolloutlintrc.schema.json`). Loaded with `require` because it
 * lies outside this package's `rootDir`; esbuild inlines it into the bundles.
 */
export const CONFIG_SCHEMA: Record<string, unknown> = require('../../../schemas/rolloutlintrc.schema.json');

/** One reason a configuration file is rejected; `line`/`column` are 1-based (UTF-16 columns). */
export interface ConfigProblem {
  /** JSONPath of the offending value: `$.rules["no-such-rule"]`, `$.extraProviders[0].hosts`. */
  jsonPath: string;
  line: number;
  column: number;
  reason: string;
}

/** A `.rolloutlintrc.json` that cannot be used. The CLI prints `message` and exits 2. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly problems: ConfigProblem[],
  ) {
    super(problems.map((p) => `${escapeForLine(file)}:${p.line}:${p.column}: ${escapeForLine(p.jsonPath)}: ${escapeForLine(p.reason)}`).join('\n'));
    this.name = 'ConfigError';
  }
}

/**
 * The configuration that applies to a file and the `.rolloutlintrc.json` it came from (none =
 * defaults). `refused` lists globs that file sets and that were refused (left out; the rest of the
 * file applies).
 */
export interface LoadedConfig {
  config: LintConfig;
  source?: string;
  refused?: ConfigError;
}

interface RawProvider extends Partial<ProviderProfile> {
  id: string;
  name: string;
  openaiBases: string[];
}

type RawConfig = Omit<Partial<LintConfig>, 'extraProviders'> & { extraProviders?: RawProvider[] };

let validator: ValidateFunction | undefined;
const nearestByDirectory = new Map<string, string | null>();
const loadedByFile = new Map<string, LoadedConfig | ConfigError>();
/** The defaults as a `LoadedConfig`, one object until `invalidate()` (a `mergeConfig()` per file was 5 % of a CLI run, and broke caches keyed by the config object). */
let defaults: LoadedConfig | undefined;

function validate(): ValidateFunction {
  // Required here, not imported: ajv is loaded only when a configuration file is read (not for `--version` or a tree without one).
  validator ??= new (require('ajv') as typeof import('ajv')).default({ allErrors: true, strict: false }).compile(CONFIG_SCHEMA);
  return validator;
}

/** Forgets every cached lookup and parsed file (after a file-watch event or a settings change). */
export function invalidate(): void {
  nearestByDirectory.clear();
  loadedByFile.clear();
  defaults = undefined;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The nearest `.rolloutlintrc.json` for files in `dir`: `dir` itself, then each parent up to and
 * including `root` (up to the filesystem root for directories outside `root`). Cached per directory.
 */
export function nearestConfigFile(dir: string, root: string): string | undefined {
  const top = resolve(root);
  let current = resolve(dir);
  const visited: string[] = [];
  let found: string | null = null;
  for (;;) {
    const cached = nearestByDirectory.get(`${top}\0${current}`);
    if (cached !== undefined) {
      found = cached;
      break;
    }
    visited.push(current);
    const candidate = join(current, CONFIG_FILE_NAME);
    if (isFile(candidate)) {
      found = candidate;
      break;
    }
    const parent = dirname(current);
    if (current === top || parent === current) break;
    current = parent;
  }
  for (const d of visited) nearestByDirectory.set(`${top}\0${d}`, found);
  return found ?? undefined;
}

/**
 * The configuration for the file at `absPath`: its nearest `.rolloutlintrc.json` (see
 * `nearestConfigFile`) merged over the defaults with `mergeConfig`, or the defaults. Cached until
 * `invalidate()`. Throws `ConfigError` when that file is unreadable, not JSON (comments and trailing
 * commas are allowed) or does not match the schema.
 */
export function loadConfigFor(absPath: string, root: string): LoadedConfig {
  return loadConfigForDirectory(dirname(resolve(absPath)), root);
}

/** Like `loadConfigFor`, for the files directly inside `dir`. */
export function loadConfigForDirectory(dir: string, root: string): LoadedConfig {
  const file = nearestConfigFile(dir, root);
  if (!file) return (defaults ??= { config: mergeConfig() });
  let loaded = loadedByFile.get(file);
  if (!loaded) {
    try {
      const refused: ConfigProblem[] = [];
      loaded = { config: mergeConfig(readConfigFile(file, refused)), source: file };
      if (refused.length) loaded.refused = new ConfigError(file, refused);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      loaded = error;
    }
    loadedByFile.set(file, loaded);
  }
  if (loaded instanceof ConfigError) throw loaded;
  return loaded;
}

/** Largest `.rolloutlintrc.json` read (bytes). */
const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/**
 * The refused globs of every configuration file loaded since the last `invalidate()` (one
 * `ConfigError` per file), for the CLI to print.
 */
export function refusedGlobs(): ConfigError[] {
  return [...loadedByFile.values()].flatMap((l) => (l instanceof ConfigError || !l.refused ? [] : [l.refused]));
}

/**
 * Reads and validates one configuration file into a config layer for `mergeConfig`. Throws
 * `ConfigError`; refused globs go to `refused` instead when it is given (see `parseConfigText`).
 */
export function readConfigFile(file: string, refused?: ConfigProblem[]): Partial<LintConfig> {
  const read = readBounded(file, MAX_CONFIG_FILE_BYTES);
  if (read.kind !== 'bytes') {
    const why = read.kind === 'tooLarge' ? `larger than ${MAX_CONFIG_FILE_BYTES} bytes` : read.message;
    throw new ConfigError(file, [{ jsonPath: '$', line: 1, column: 1, reason: `cannot read the file: ${why}` }]);
  }
  return parseConfigText(read.bytes.toString('utf8'), file, refused);
}

/**
 * Parses and validates configuration text (a BOM is allowed). `file` is used in errors and provider
 * `source`s. Every glob option goes through `compileGlob`; a refused glob is a problem with its JSON
 * path: with `refused` given it is pushed there and only that glob is left out (the rest of the
 * configuration applies), otherwise it throws `ConfigError` like any other problem.
 */
export function parseConfigText(input: string, file: string, refused?: ConfigProblem[]): Partial<LintConfig> {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const index = new LineIndex(text);
  const at = (offset: number) => {
    const p = index.positionAt(offset);
    return { line: p.line + 1, column: p.character + 1 };
  };
  const deep = tooDeepAt(text);
  if (deep !== undefined) throw new ConfigError(file, [{ jsonPath: '$', ...at(deep), reason: `nested deeper than ${MAX_CONFIG_DEPTH} levels` }]);
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length || !tree) {
    const e = errors[0];
    throw new ConfigError(file, [{ jsonPath: '$', ...at(e?.offset ?? 0), reason: `not valid JSON: ${e ? printParseErrorCode(e.error) : 'empty file'}` }]);
  }
  const value = parseValue(tree);
  const check = validate();
  if (!check(value)) throw new ConfigError(file, describe(check.errors ?? [], tree, at));
  const globProblems = globIssues(value as Record<string, unknown>, tree, at);
  if (globProblems.length && !refused) throw new ConfigError(file, globProblems);
  refused?.push(...globProblems);
  const { $schema: _schema, extraProviders, ...rest } = value as RawConfig & { $schema?: string };
  return extraProviders ? { ...rest, extraProviders: extraProviders.map((p) => toProfile(p, file)) } : rest;
}

/** Deepest `[`/`{` nesting a configuration file may have; `parseTree` recurses per level. */
const MAX_CONFIG_DEPTH = 64;

/** Offset of the first bracket nested deeper than `MAX_CONFIG_DEPTH` outside strings and comments, if any. */
function tooDeepAt(text: string): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '[' || c === '{') {
      if (++depth > MAX_CONFIG_DEPTH) return i;
    } else if (c === ']' || c === '}') depth--;
  }
  return undefined;
}

/** The options that hold globs; every one goes through `compileGlob`. */
export const GLOB_OPTIONS = ['ignore', 'rolloutGlobs', 'jsonGlobs', 'testGlobs'] as const;

/**
 * Globs `compileGlob` refuses (too many, too long, unsupported syntax), each with its JSON path;
 * they are removed from `value` (an option with too many globs is removed whole).
 */
function globIssues(value: Record<string, unknown>, tree: Node, at: (offset: number) => { line: number; column: number }): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  for (const option of GLOB_OPTIONS) {
    const globs = value[option];
    if (!Array.isArray(globs)) continue;
    if (globs.length > GLOB_LIMITS.maxGlobs) {
      out.push({ jsonPath: jsonPathOf([option]), ...at(findNodeAtLocation(tree, [option])?.offset ?? 0), reason: `more than ${GLOB_LIMITS.maxGlobs} globs; the option is left out` });
      delete value[option];
      continue;
    }
    const kept: unknown[] = [];
    globs.forEach((glob: unknown, index) => {
      const reason = typeof glob === 'string' ? globProblem(glob) : undefined;
      if (reason) out.push({ jsonPath: jsonPathOf([option, index]), ...at(findNodeAtLocation(tree, [option, index])?.offset ?? 0), reason: `${reason}; this glob is left out` });
      else kept.push(glob);
    });
    value[option] = kept;
  }
  return out;
}

function parseValue(node: Node): unknown {
  switch (node.type) {
    case 'object':
      return Object.fromEntries((node.children ?? []).map((p) => [p.children![0].value as string, p.children![1] ? parseValue(p.children![1]) : null]));
    case 'array':
      return (node.children ?? []).map(parseValue);
    default:
      return node.value;
  }
}

/** A user profile completed from its first OpenAI base (see the schema's `provider` description). */
function toProfile(p: RawProvider, file: string): ProviderProfile {
  const base = p.openaiBases[0].replace(/\/+$/, '');
  return {
    hosts: [],
    docsUrl: '',
    chatUrl: `${base}/chat/completions`,
    modelsUrl: `${base}/models`,
    logprobs: 'unknown',
    source: `${CONFIG_FILE_NAME} (${file})`,
    ...p,
  };
}

function segmentsOf(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** JSONPath for display: `$.rules["base-url-x"]`, `$.extraProviders[0].id`. */
export function jsonPathOf(segments: readonly (string | number)[]): string {
  return `$${segments.map((s) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join('')}`;
}

function describe(errors: ErrorObject[], tree: Node, at: (offset: number) => { line: number; column: number }): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'required' && e.schemaPath.includes('/anyOf/')) continue;
    const segments = segmentsOf(e.instancePath);
    const valueNode = findNodeAtLocation(tree, segments);
    const shown = valueNode ? JSON.stringify(getNodeValue(valueNode)) : 'this value';
    const given = shown.length > 60 ? `${shown.slice(0, 59)}…` : shown;
    let reason = e.message ?? 'invalid';
    if (e.keyword === 'additionalProperties') {
      const key = String((e.params as { additionalProperty: string }).additionalProperty);
      segments.push(key);
      reason =
        e.instancePath === '/rules'
          ? `unknown rule id "${key}" (see "rollout-lint rules")`
          : e.instancePath === ''
            ? `unknown option "${key}"; allowed: ${Object.keys((CONFIG_SCHEMA.properties as object) ?? {}).join(', ')}`
            : `unknown property "${key}"`;
    } else if (e.keyword === 'enum') {
      reason = `${given} is not allowed; use one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    } else if (e.keyword === 'anyOf') {
      const missing = errors.filter((x) => x.keyword === 'required' && x.instancePath === e.instancePath && x.schemaPath.startsWith(e.schemaPath));
      reason = `must set one of ${missing.map((x) => `"${(x.params as { missingProperty: string }).missingProperty}"`).join(' or ')}`;
    } else if (e.keyword === 'required') {
      reason = `missing required property "${(e.params as { missingProperty: string }).missingProperty}"`;
    } else if (e.keyword === 'pattern' || e.keyword === 'type' || e.keyword === 'minimum' || e.keyword === 'maximum') {
      reason = `${given}: ${reason}`;
    }
    const jsonPath = jsonPathOf(segments);
    if (seen.has(`${jsonPath}|${reason}`)) continue;
    seen.add(`${jsonPath}|${reason}`);
    const node = findNodeAtLocation(tree, segments);
    const anchor = node?.parent?.type === 'property' ? node.parent : node;
    out.push({ jsonPath, ...at(anchor?.offset ?? 0), reason });
  }
  return out;
}
