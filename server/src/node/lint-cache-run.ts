import type { LintConfig } from '../core/config/config';
import { isExcludedByName } from '../core/files';
import type { Grammars } from '../core/formats/treesitter';
import { stripBom } from '../core/lint';
import type { WorkspaceFacts } from '../core/model/facts';
import type { Extraction, Finding, Format } from '../core/model/types';
import { documentSecrets, patternSecretSpans } from '../core/redact';
import { secretRanges } from '../core/secrets';
import type { EnvIndex, EnvView } from '../core/workspace/env-index';
import type { FileEnv } from '../core/workspace/env-facts';
import { indexAndExtract, isIndexCandidate } from '../core/workspace/index-document';
import type { IndexedFile } from './env-index';
import { cacheFolder, contentHash, decodeCached, digest, encodeWithoutSecrets, engineKey, LintCacheStore, userCacheKey, type CacheDep, type SecretSource } from './lint-cache';
import { lintBytes, lintFile, type FileResult, type LintFileOptions } from './lint-file';
import { decodeForLint, readBounded } from './read';
import type { WalkedFile } from './walk';

/** The cache of one CLI run: a store per project root, opened on first use. */
export class LintCacheRun {
  private readonly stores = new Map<string, LintCacheStore>();

  private constructor(
    private readonly location: string | undefined,
    private readonly engine: string,
    private readonly key: Buffer,
  ) {}

  /**
   * The run's cache, or `undefined` (no cache: `--no-cache`, or no per-user folder for the key that
   * authenticates stores). `location`: `--cache-location`, resolved; `version`: the CLI version.
   */
  static open(location: string | undefined, version: string, env: NodeJS.ProcessEnv): LintCacheRun | undefined {
    const key = userCacheKey(env);
    return key ? new LintCacheRun(location, engineKey(version), key) : undefined;
  }

  /** The store of the project at `root`; `undefined` for files in no project (`root` empty): nothing is kept for them. */
  storeFor(root: string): LintCacheStore | undefined {
    if (!root) return undefined;
    let store = this.stores.get(root);
    if (!store) this.stores.set(root, (store = new LintCacheStore(cacheFolder(root, this.location), root, this.engine, this.key)));
    return store;
  }

  /** Writes every store that changed. */
  save(): void {
    for (const store of this.stores.values()) store.save();
  }
}

const indexKeys = new WeakMap<LintConfig, string>();

/** The configuration that decides a file's index facts: all of it but the rule levels (memoised per config object). */
function indexKey(config: LintConfig): string {
  let key = indexKeys.get(config);
  if (key === undefined) indexKeys.set(config, (key = digest({ purpose: 'lint', config: { ...config, rules: undefined } })));
  return key;
}

const configDigests = new WeakMap<LintConfig, string>();

function configDigest(config: LintConfig | undefined): string | null {
  if (!config) return null;
  let d = configDigests.get(config);
  if (d === undefined) configDigests.set(config, (d = digest(config)));
  return d;
}

/**
 * `indexFile` (purpose `lint`) through `store`: the file's bytes are read and hashed; facts kept for the
 * same bytes and index configuration are set into `index` without parsing; otherwise the file is
 * indexed as `indexFile` does and its facts kept (not when its budget ran out: time is not a property of the file).
 */
export function indexFileCached(index: EnvIndex, file: WalkedFile, grammars: Grammars, config: LintConfig, keep: Map<string, IndexedFile> | undefined, store: LintCacheStore): void {
  if (isExcludedByName(file.relPath, config)) {
    index.delete(file.relPath);
    return;
  }
  const read = readBounded(file.absPath, config.maxFileBytes);
  const decoded = read.kind === 'bytes' ? decodeForLint(read.bytes) : undefined;
  if (read.kind !== 'bytes' || decoded?.kind !== 'text') {
    index.delete(file.relPath);
    return;
  }
  const hash = contentHash(read.bytes);
  store.indexedHashes.set(file.relPath, hash);
  const key = indexKey(config);
  const cached = store.get(file.relPath, hash)?.index;
  const text = stripBom(decoded.text).text;
  if (cached?.key === key) {
    const env = cached.env === null ? null : cached.refs === false ? cached.env : decodeCached(cached.env, text)?.value;
    if (env === null) {
      index.delete(file.relPath);
      return;
    }
    if (isFileEnv(env, file.relPath)) {
      index.set(env);
      return;
    }
  }
  if (!isIndexCandidate(file.relPath, decoded.text, config, 'lint')) {
    index.delete(file.relPath);
    store.set(file.relPath, hash, { index: { key, env: null } });
    return;
  }
  const out = indexAndExtract({ path: file.relPath, text: decoded.text }, grammars, config);
  index.set(out.env);
  if (keep && out.text !== undefined) keep.set(file.relPath, { text: out.text, extraction: out.extraction, spent: out.spent });
  if (out.spent?.exceeded || out.text !== text) return;
  const encoded = encodeWithoutSecrets(out.env, indexSecrets(out.env, text, out.extraction));
  if (encoded !== undefined) store.set(file.relPath, hash, { index: { key, env: encoded.value, refs: encoded.refs } });
}

/**
 * The secrets an index entry may hold: the spans `secretRanges` finds (without an extraction, as for a
 * templated file: key-shaped tokens and URL credentials), the values of key and header definitions
 * and server keys, each also checked as decoded (`encodeWithoutSecrets`).
 */
function indexSecrets(env: FileEnv, text: string, extraction: Extraction | undefined): SecretSource {
  const keyed = env.definitions.filter((d) => d.role === 'apiKey' || d.role === 'header');
  return {
    text,
    spans: [...(extraction ? secretRanges(extraction, text) : patternSecretSpans(text)), ...keyed.map((d) => d.valueAt.range)],
    values: [...(extraction ? documentSecrets(extraction) : []), ...keyed.flatMap((d) => (d.value === undefined ? [] : [d.value])), ...(env.servers ?? []).flatMap((s) => (s.apiKeyValue ? [s.apiKeyValue] : []))],
  };
}

/** A decoded `FileEnv` of `path` has the shape the index relies on. */
function isFileEnv(value: unknown, path: string): value is FileEnv {
  if (!value || typeof value !== 'object') return false;
  const env = value as Partial<FileEnv>;
  const located = (x: unknown) => !!x && typeof x === 'object' && typeof (x as { name?: unknown }).name === 'string' && isLocation((x as { at?: unknown }).at);
  return env.path === path && Array.isArray(env.definitions) && env.definitions.every(located) && Array.isArray(env.reads) && env.reads.every((r) => located(r) && Array.isArray(r.consumers))
    && (env.envFiles === undefined || (Array.isArray(env.envFiles) && env.envFiles.every((l) => isLocation(l?.at) && typeof l.order === 'number')))
    && (env.servers === undefined || (Array.isArray(env.servers) && env.servers.every((s) => isLocation(s?.at) && Array.isArray(s.names))))
    && (env.loadedNames === undefined || (Array.isArray(env.loadedNames) && env.loadedNames.every((n) => typeof n === 'string')));
}

function isLocation(at: unknown): boolean {
  const a = at as { path?: unknown; range?: { start?: unknown; end?: unknown } } | undefined;
  return !!a && typeof a.path === 'string' && !!a.range && Number.isInteger(a.range.start) && Number.isInteger(a.range.end);
}

/** What a cached lint result holds (`FileResult` without paths and text, which come from this run). */
interface CachedResult {
  format: Format | null;
  hasText: boolean;
  findings: Finding[];
  secrets: { start: number; end: number }[];
  notCandidate: boolean;
}

/**
 * How a lint asks each `WorkspaceFacts` method, used both to record a question (`recordingFacts`) and
 * to ask it again (`sameAnswers`). Typed over every method, so a method added to `WorkspaceFacts` and
 * not listed here fails to compile: a question nobody records would make a cached lint differ. An
 * absent optional method answers as the lint reads it (`facts.clientPins?.(…) ?? []`).
 */
const ASK_FACT: { [M in keyof WorkspaceFacts]-?: (facts: WorkspaceFacts, args: unknown[]) => unknown } = {
  gitState: (facts, [path]) => facts.gitState(path as string),
  siblingEnv: (facts, [path]) => facts.siblingEnv(path as string),
  envFile: (facts, [path, file]) => facts.envFile(path as string, file as string),
  clientPins: (facts, [path]) => facts.clientPins?.(path as string) ?? [],
};
const FACT_METHODS = new Set<string>(Object.keys(ASK_FACT));
/** Every method of `EnvView`, recorded by `recordingView`. */
const ENV_METHOD_NAMES = ['chain', 'readsElsewhere', 'reads', 'chainAt', 'readersOf', 'servers', 'size'] as const satisfies readonly (keyof EnvView)[];
const ENV_METHODS = new Set<string>(ENV_METHOD_NAMES);
// A view method no recorder notes would be answered by nothing in a cached run, and the lint would differ.
const allViewRecorded: Exclude<keyof EnvView, (typeof ENV_METHOD_NAMES)[number]> extends never ? true : false = true;
void allViewRecorded;

/**
 * Questions whose answer does not depend on which file asks (`EnvIndex.viewFor`: `reads`, `chainAt`,
 * `servers` and `size` read the index alone; facts take the path they are about): their digests are
 * shared by every file of one project in one run (`memo`, kept with the store, since the index and
 * facts of a project do not change during its lint pass).
 */
const SHARED_ANSWERS = new Set(['env\0reads', 'env\0chainAt', 'env\0servers', 'env\0size', 'facts\0gitState', 'facts\0siblingEnv', 'facts\0envFile', 'facts\0clientPins']);

/** The digest of `ask()`'s answer to `method(args)`, memoised in `memo` when it does not depend on the asking file. */
function answerDigest(memo: Map<string, string>, source: CacheDep[0], method: string, args: unknown[], ask: () => unknown): string {
  const shared = SHARED_ANSWERS.has(`${source}\0${method}`);
  const id = shared ? `${source}\0${method}\0${JSON.stringify(args)}` : '';
  let d = shared ? memo.get(id) : undefined;
  if (d === undefined) {
    d = digest(ask());
    if (shared) memo.set(id, d);
  }
  return d;
}

/**
 * `view` that notes every question asked of it, with a digest of its answer, into `deps`.
 * `readsElsewhere(name)` (every read but this file's) is noted as `reads(name)`, which decides it.
 */
function recordingView(view: EnvView, deps: Map<string, CacheDep>, memo: Map<string, string>): EnvView {
  const note = <T>(method: string, args: unknown[], answer: T, ask: () => unknown = () => answer): T => {
    const id = `env\0${method}\0${JSON.stringify(args)}`;
    if (!deps.has(id)) deps.set(id, ['env', method, args, answerDigest(memo, 'env', method, args, ask)]);
    return answer;
  };
  return {
    chain: (name) => note('chain', [name], view.chain(name)),
    readsElsewhere: (name) => {
      note('reads', [name], undefined, () => view.reads(name));
      return view.readsElsewhere(name);
    },
    reads: (name) => note('reads', [name], view.reads(name)),
    chainAt: (name, readerPath) => note('chainAt', [name, readerPath], view.chainAt(name, readerPath)),
    readersOf: (name, keyStart) => note('readersOf', [name, keyStart], view.readersOf(name, keyStart)),
    get size() {
      return note('size', [], view.size);
    },
    ...(view.servers ? { servers: () => note('servers', [], view.servers!()) } : {}),
  };
}

/** `facts` that notes every question asked of it, like `recordingView`. */
function recordingFacts(facts: WorkspaceFacts, deps: Map<string, CacheDep>, memo: Map<string, string>): WorkspaceFacts {
  const note = <T>(method: keyof WorkspaceFacts, args: unknown[]): T => {
    const answer = ASK_FACT[method](facts, args);
    const id = `facts\0${method}\0${JSON.stringify(args)}`;
    if (!deps.has(id)) deps.set(id, ['facts', method, args, answerDigest(memo, 'facts', method, args, () => answer)]);
    return answer as T;
  };
  return {
    gitState: (path) => note('gitState', [path]),
    siblingEnv: (path) => note('siblingEnv', [path]),
    envFile: (path, file) => note('envFile', [path, file]),
    clientPins: (path) => note('clientPins', [path]),
  };
}

/** Whether every recorded question gets the same answer now. */
function sameAnswers(deps: readonly CacheDep[], view: EnvView | undefined, facts: WorkspaceFacts | undefined, memo: Map<string, string>): boolean {
  for (const [source, method, args, was] of deps) {
    if (source === 'facts') {
      if (!facts || !FACT_METHODS.has(method) || answerDigest(memo, source, method, args, () => ASK_FACT[method as keyof WorkspaceFacts](facts, args)) !== was) return false;
      continue;
    }
    const target = view as unknown as Record<string, unknown> | undefined;
    if (!target || !ENV_METHODS.has(method)) return false;
    if (method !== 'size' && typeof target[method] !== 'function') return false;
    const ask = () => (method === 'size' ? target.size : (target[method] as (...a: unknown[]) => unknown)(...args));
    if (answerDigest(memo, source, method, args, ask) !== was) return false;
  }
  return true;
}

/** Everything besides the text, the env index and the workspace facts that a lint of one file reads. */
function lintKey(options: LintFileOptions): string {
  return digest({
    config: configDigest(options.config),
    locale: options.locale ?? 'en',
    surface: options.surface ?? null,
    onlyRules: options.onlyRules ?? null,
    unused: !!options.reportUnusedDisableDirectives,
    force: !!options.force,
    maxFileBytes: options.maxFileBytes,
    lintPath: options.lintPath ?? null,
    modelLists: options.modelLists ?? [],
    verified: options.verified ?? [],
    env: !!options.env,
    facts: !!options.facts,
  });
}

/**
 * `lintFile` through `store` (no `--fix`: a fixing run lints as usual). The file is read once and
 * hashed; a result kept for the same bytes and `lintKey`, whose recorded questions to the env index
 * and workspace facts get the same answers now, is returned without parsing; otherwise these bytes
 * are linted with both recorded, and the result is kept unless a rule failed or the budget ran out.
 */
export function lintFileCached(absPath: string, relPath: string, options: LintFileOptions, store: LintCacheStore | undefined): FileResult {
  const lintPath = options.lintPath ?? relPath;
  if (!store || options.fix || (!options.force && options.config && isExcludedByName(lintPath, options.config))) return lintFile(absPath, relPath, options);
  const key = lintKey(options);
  // A result without text (not a candidate, binary) for the bytes the index pass just read and hashed: the file is not read again.
  const indexed = store.indexedHashes.get(lintPath);
  const early = indexed === undefined ? undefined : store.get(lintPath, indexed)?.lint;
  if (early?.key === key && sameAnswers(early.deps, options.env, options.facts, store.answers)) {
    const result = early.refs === false ? early.result : decodeCached(early.result, undefined)?.value;
    if (isCachedResult(result, undefined) && !result.hasText) return fromCache(result, absPath, relPath, undefined, options);
  }
  const read = readBounded(absPath, options.maxFileBytes);
  if (read.kind !== 'bytes') return lintFile(absPath, relPath, options);
  const hash = contentHash(read.bytes);
  const decoded = decodeForLint(read.bytes);
  const text = decoded.kind === 'text' ? stripBom(decoded.text).text : undefined;
  const cached = store.get(lintPath, hash)?.lint;
  if (cached?.key === key && sameAnswers(cached.deps, options.env, options.facts, store.answers)) {
    const result = cached.refs === false ? cached.result : decodeCached(cached.result, text)?.value;
    if (isCachedResult(result, text)) return fromCache(result, absPath, relPath, text, options);
  }
  const deps = new Map<string, CacheDep>();
  const result = lintBytes(read.bytes, absPath, relPath, {
    ...options,
    ...(options.env ? { env: recordingView(options.env, deps, store.answers) } : {}),
    ...(options.facts ? { facts: recordingFacts(options.facts, deps, store.answers) } : {}),
  });
  const budgetRanOut = result.findings.some((f) => f.ruleId === 'skipped-file' && f.messageId === 'budget');
  if (result.failures.length > 0 || budgetRanOut || (result.text !== undefined && result.text !== text)) {
    store.drop(lintPath);
    return result;
  }
  const keep: CachedResult = { format: result.format ?? null, hasText: result.text !== undefined, findings: result.findings, secrets: result.secrets ?? [], notCandidate: !!result.notCandidate };
  const encoded = encodeWithoutSecrets(keep, text === undefined ? undefined : { text, spans: result.secrets ?? [], values: [] });
  if (encoded !== undefined) store.set(lintPath, hash, { lint: { key, result: encoded.value, deps: [...deps.values()], refs: encoded.refs } });
  return result;
}

/** The `FileResult` of a cached result; `text` is the file's BOM-less text as read now (same bytes). */
function fromCache(result: CachedResult, absPath: string, relPath: string, text: string | undefined, options: LintFileOptions): FileResult {
  return {
    absPath,
    relPath,
    format: result.format ?? undefined,
    text: result.hasText ? text : undefined,
    findings: result.findings,
    failures: [],
    ...(result.hasText ? { secrets: result.secrets } : {}),
    ...(result.notCandidate ? { notCandidate: true } : {}),
    ...(options.lintPath !== undefined ? { lintPath: options.lintPath } : {}),
  };
}

const SEVERITIES = new Set(['error', 'warning', 'hint']);

function isRange(r: unknown, length: number): boolean {
  const x = r as { start?: unknown; end?: unknown } | undefined;
  return !!x && Number.isInteger(x.start) && Number.isInteger(x.end) && (x.start as number) >= 0 && (x.start as number) <= (x.end as number) && (x.end as number) <= length;
}

/** A decoded cached result has the shape the formatters rely on, with every range inside `text`. */
function isCachedResult(value: unknown, text: string | undefined): value is CachedResult {
  if (!value || typeof value !== 'object') return false;
  const r = value as Partial<CachedResult>;
  const length = text?.length ?? 0;
  if (typeof r.hasText !== 'boolean' || (r.hasText && text === undefined) || typeof r.notCandidate !== 'boolean') return false;
  if (r.format !== null && typeof r.format !== 'string') return false;
  if (!Array.isArray(r.secrets) || !r.secrets.every((s) => isRange(s, length))) return false;
  return Array.isArray(r.findings) && r.findings.every((f) =>
    !!f && typeof f === 'object' && typeof f.ruleId === 'string' && SEVERITIES.has(f.severity) && typeof f.messageId === 'string' && typeof f.message === 'string'
    && !!f.data && typeof f.data === 'object' && isRange(f.range, length) && (f.evidence === undefined || typeof f.evidence === 'string')
    && Array.isArray(f.fixes) && f.fixes.every((x) => !!x && typeof x.title === 'string' && (x.safety === 'safe' || x.safety === 'unsafe') && Array.isArray(x.edits) && x.edits.every((e) => !!e && typeof e.text === 'string' && isRange(e.range, length)))
    && (f.related === undefined || (Array.isArray(f.related) && f.related.every((x) => !!x && typeof x.message === 'string' && isLocation(x.location)))));
}
