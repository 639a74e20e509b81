import { createHash, createHmac, randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, renameSync, statSync, unlinkSync, writeFileSync, type BigIntStats } from 'node:fs';
import { dirname, join } from 'node:path';
import { modelsCachePath } from './models-cache';
import { readBounded } from './read';
import { writeRefusal } from './write-guard';
import { decodeCached, encodeWithoutSecrets, type SecretSource } from './lint-cache-secrets';

/**
 * The CLI's persistent cache (issue 27 item 2), ruff's `.ruff_cache` for Rollout Lint: one store file
 * per project root holding, per file (by its path relative to that root), the sha256 of its bytes and
 *  - `index`: its env-index facts (`FileEnv`, or `null` when it feeds no index), under a key of the
 *    configuration that decides them;
 *  - `lint`: its lint result under a key of everything else the lint reads (configuration, command
 *    line, `/models` lists) and the answers it got from the env index and the workspace facts
 *    (`deps`: each question asked and a digest of its answer, replayed and compared before reuse).
 * Values that hold keys are stored as offsets into the file (`lint-cache-secrets.ts`), never as text.
 *
 * The folder lies inside a repository and is untrusted: the store is read through `readBounded`
 * (no FIFO, no device, at most `MAX_STORE_BYTES`, a symlinked store file is not followed), carries an
 * HMAC-SHA256 under a per-user key kept outside every repository (the `/models` cache folder of
 * `modelsCachePath`: a planted or copied cache is ignored), names the engine (version, schema, build)
 * and is checked entry by entry; anything unexpected is a miss. Writes go to a fresh temporary file
 * (`wx`) renamed over the store, never through a symlinked folder out of the tree (`writeRefusal`).
 */
export const CACHE_SCHEMA = 1;
/** The cache folder's name in a project root (default location). */
export const CACHE_DIR_NAME = '.rollout-lint-cache';
/** The largest store file read, in bytes; a larger one is ignored (and rewritten). */
export const MAX_STORE_BYTES = 64 * 1024 * 1024;
/** Size of the per-user HMAC key, in bytes. */
const KEY_BYTES = 32;

/** One question a lint asked the env index (`env`) or the workspace facts (`facts`), and a digest of the answer. */
export type CacheDep = [source: 'env' | 'facts', method: string, args: unknown[], digest: string];

/** A file's cached index facts: `env` is the encoded `FileEnv`, or `null` when the file feeds no index. */
export interface CachedIndex {
  key: string;
  env: unknown;
  /** Whether `env` holds references into the file (`encodeWithoutSecrets`); if not it is used as stored. */
  refs?: boolean;
}

/** A file's cached lint result (`FileResult` without paths and text, encoded by `encodeWithoutSecrets`; see `lint-cache-run.ts`) and the questions it asked. */
export interface CachedLint {
  key: string;
  result: unknown;
  deps: CacheDep[];
  /** As `CachedIndex.refs`. */
  refs?: boolean;
}

/** What the store keeps of one file. `hash`: sha256 of its bytes, hex. */
export interface CacheEntry {
  hash: string;
  /** `statKey` of the file when those bytes were read, kept only when it can vouch for them (`isStatSafe`). */
  stat?: string;
  index?: CachedIndex;
  lint?: CachedLint;
}

/**
 * How much older than the moment a file was read its modification time must be for its stat to
 * vouch for its bytes on a later run (nanoseconds): 2 s, above file-system timestamp granularity
 * (FAT keeps 2 s; Linux takes times from a coarse clock a tick behind the one `Date.now` reads) and
 * small clock differences with a network file system.
 */
export const STAT_SAFE_MARGIN_NS = 2_000_000_000n;

/**
 * The stat shortcut (git's "racy clean" rule, Documentation/technical/racy-git.txt): a file whose
 * size, modification time (ns), change time (ns), inode and device are what they were when its bytes
 * were read and hashed is taken to hold those bytes, without reading it. `statKey` is those five
 * numbers (`undefined` for anything but a regular file). A record is kept only when the file's
 * modification time was at least `STAT_SAFE_MARGIN_NS` older than the moment just before the read
 * (`isStatSafe`): a write after the read then gives a later modification time and so another key,
 * and a write in the same clock tick as the read (which could keep every number) leaves no record
 * (the file is read next time, and its record is kept once it is old enough).
 * What it cannot see, as git cannot: an edit that keeps the size and then puts back the modification
 * time, change time and inode (setting the clock back, or writing the disk directly).
 */
export function statKey(st: BigIntStats | undefined): string | undefined {
  return st?.isFile() ? `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.dev}` : undefined;
}

/** Whether a file stat `st` taken before reading it at `readAtNs` (wall clock, ns since the epoch) may vouch for the bytes read: see `statKey`. */
export function isStatSafe(st: BigIntStats, readAtNs: bigint): boolean {
  return st.mtimeNs < readAtNs - STAT_SAFE_MARGIN_NS && st.ctimeNs < readAtNs - STAT_SAFE_MARGIN_NS;
}

/** The file's stat (following links, as reading does), or `undefined` when it cannot be taken. */
export function statOf(absPath: string): BigIntStats | undefined {
  try {
    return statSync(absPath, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Wall-clock time in nanoseconds since the epoch (the clock file times are measured on). */
export function nowNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/** The engine identity stored with every store: a cache of another version, schema or build is ignored. */
export function engineKey(version: string): string {
  let build = 'source';
  try {
    // The running bundle (server/dist/cli.js) or source file: a rebuild changes its size or time.
    const st = statSync(__filename);
    build = `${st.size}:${Math.round(st.mtimeMs)}`;
  } catch {
    /* keep 'source' */
  }
  return `${version}/${CACHE_SCHEMA}/${build}`;
}

/** sha256 of `bytes`, hex. */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A short digest of any JSON-shaped value (`undefined` allowed), for cache keys and dependency answers. */
export function digest(value: unknown): string {
  return createHash('sha256').update(value === undefined ? '\u0000undefined' : JSON.stringify(value)).digest('base64url').slice(0, 22);
}

/** The per-user key that authenticates stores: created once (0600) in the `/models` cache folder; `undefined` when there is none. */
export function userCacheKey(env: NodeJS.ProcessEnv): Buffer | undefined {
  const models = modelsCachePath(env);
  if (!models) return undefined;
  const path = join(dirname(models), 'lint-cache.key');
  const read = () => {
    const r = readBounded(path, 4096, { noFollow: true });
    return r.kind === 'bytes' && r.bytes.length === KEY_BYTES ? r.bytes : undefined;
  };
  const existing = read();
  if (existing) return existing;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // O_EXCL: never through a file or link planted there; a concurrent run's key wins (read again).
    writeFileSync(path, randomBytes(KEY_BYTES), { flag: 'wx', mode: 0o600 });
  } catch {
    /* exists (another run made it), or a read-only home */
  }
  return read();
}

/** Where the cache of the project at `root` lives: `--cache-location DIR`, else `<root>/.rollout-lint-cache`. */
export function cacheFolder(root: string, location: string | undefined): string {
  return location ?? join(root, CACHE_DIR_NAME);
}

const HEX64 = /^[0-9a-f]{64}$/;
const STAT_KEY = /^\d{1,20}(?::\d{1,40}){4}$/;

function isEntry(value: unknown): value is CacheEntry {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const e = value as Record<string, unknown>;
  if (typeof e.hash !== 'string' || !HEX64.test(e.hash)) return false;
  if (e.stat !== undefined && !(typeof e.stat === 'string' && STAT_KEY.test(e.stat))) return false;
  if (e.index !== undefined && !(isObject(e.index) && typeof e.index.key === 'string' && 'env' in e.index && (e.index.refs === undefined || typeof e.index.refs === 'boolean'))) return false;
  if (e.lint !== undefined) {
    const l = e.lint as Record<string, unknown>;
    if (!(isObject(l) && typeof l.key === 'string' && isObject(l.result) && Array.isArray(l.deps) && (l.refs === undefined || typeof l.refs === 'boolean'))) return false;
    if (!l.deps.every((d) => Array.isArray(d) && d.length === 4 && (d[0] === 'env' || d[0] === 'facts') && typeof d[1] === 'string' && Array.isArray(d[2]) && typeof d[3] === 'string')) return false;
  }
  return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The cache store of one project root for one run: `get` what an earlier run kept, `set` what this
 * run learnt, `save` once at the end (only when something changed). Never throws: an unreadable,
 * corrupt, foreign or unauthenticated store reads as empty; a failed write is ignored.
 */
export class LintCacheStore {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly seen = new Set<string>();
  private dirty = false;
  /**
   * Digests of answers that do not depend on the asking file (`lint-cache-run.ts`), for this run's lint
   * pass of the project: its env index and facts are complete and unchanged by then.
   */
  readonly answers = new Map<string, string>();
  /** sha256 of each file's bytes as this run's index pass read them, by path (the lint pass trusts it only for results that need no text). */
  readonly indexedHashes = new Map<string, string>();
  /** The store file. */
  readonly file: string;

  /**
   * `folder`: the cache folder (`cacheFolder`); `root`: the project root the paths are relative to;
   * `engine`: `engineKey(VERSION)`; `key`: `userCacheKey` (the HMAC key).
   */
  constructor(
    readonly folder: string,
    private readonly root: string,
    private readonly engine: string,
    private readonly key: Buffer,
  ) {
    this.file = join(folder, `lint-${CACHE_SCHEMA}-${digest(root).replace(/[^A-Za-z0-9]/g, '').slice(0, 16)}.store`);
    this.load();
  }

  private load(): void {
    const read = readBounded(this.file, MAX_STORE_BYTES, { noFollow: true });
    if (read.kind !== 'bytes') return;
    const text = read.bytes.toString('utf8');
    const nl = text.indexOf('\n');
    if (nl < 0) return;
    const mac = text.slice(0, nl);
    const body = text.slice(nl + 1);
    if (mac !== createHmac('sha256', this.key).update(body).digest('hex')) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return;
    }
    if (!isObject(parsed) || parsed.schema !== CACHE_SCHEMA || parsed.engine !== this.engine || parsed.root !== this.root || !isObject(parsed.entries)) return;
    for (const [path, entry] of Object.entries(parsed.entries)) if (isEntry(entry)) this.entries.set(path, entry);
  }

  /** The entry of `path` when it was made from bytes with sha256 `hash`. */
  get(path: string, hash: string): CacheEntry | undefined {
    this.seen.add(path);
    const entry = this.entries.get(path);
    return entry?.hash === hash ? entry : undefined;
  }

  /**
   * The sha256 of `path`'s bytes as an earlier run read them, when the file's stat now is the one
   * recorded then (`statKey`); `undefined` otherwise (the file must be read).
   */
  hashByStat(path: string, stat: string | undefined): string | undefined {
    if (stat === undefined) return undefined;
    const entry = this.entries.get(path);
    return entry?.stat === stat ? entry.hash : undefined;
  }

  /**
   * Records that `path` held bytes `hash` while its stat was `st`, taken before a read that started at
   * `readAtNs`; a stat that cannot vouch for the bytes (`isStatSafe`) removes the record instead.
   */
  noteStat(path: string, hash: string, st: BigIntStats | undefined, readAtNs: bigint): void {
    const stat = st && isStatSafe(st, readAtNs) ? statKey(st) : undefined;
    const old = this.entries.get(path);
    if (old?.hash === hash) {
      if (old.stat === stat) return;
      this.entries.set(path, { ...old, stat });
    } else this.entries.set(path, { hash, stat });
    this.seen.add(path);
    this.dirty = true;
  }

  /** Keeps `part` for `path` (bytes `hash`); the other part (and the stat record) is kept when it was made from the same bytes. */
  set(path: string, hash: string, part: { index: CachedIndex } | { lint: CachedLint }): void {
    this.seen.add(path);
    const old = this.entries.get(path);
    const entry: CacheEntry = old?.hash === hash ? { ...old } : { hash };
    Object.assign(entry, part);
    this.entries.set(path, entry);
    this.dirty = true;
  }

  /** Forgets `path` (a file whose result must not be reused). */
  drop(path: string): void {
    if (this.entries.delete(path)) this.dirty = true;
  }

  /**
   * Writes the store when anything changed: entries of files this run did not see are kept while
   * the file still exists. Creates the folder with a `.gitignore` holding `*` (and a
   * `CACHEDIR.TAG`), as ruff does. Best effort: any failure leaves the old store (or none).
   */
  save(): void {
    if (!this.dirty) return;
    for (const path of [...this.entries.keys()]) {
      if (this.seen.has(path)) continue;
      try {
        lstatSync(join(this.root, path));
      } catch {
        this.entries.delete(path);
      }
    }
    try {
      if (!prepareFolder(this.folder)) return;
      const body = JSON.stringify({ schema: CACHE_SCHEMA, engine: this.engine, root: this.root, entries: Object.fromEntries(this.entries) });
      // A store the next run would not read (over MAX_STORE_BYTES) is not written at all.
      if (body.length + 65 > MAX_STORE_BYTES) return;
      const mac = createHmac('sha256', this.key).update(body).digest('hex');
      atomicWrite(this.file, `${mac}\n${body}`);
    } catch {
      /* a read-only tree or a full disk: no cache, same results */
    }
  }
}

/**
 * Creates the cache folder (with `.gitignore` = `*` and a `CACHEDIR.TAG`) unless it, or a folder above
 * it inside its work tree, is a symbolic link that leads out of that tree. False when it may not be written.
 */
function prepareFolder(folder: string): boolean {
  let exists = false;
  try {
    const st = lstatSync(folder);
    if (st.isSymbolicLink()) {
      if (writeRefusal(folder)) return false;
      if (!statSync(folder).isDirectory()) return false;
    } else if (!st.isDirectory()) return false;
    exists = true;
  } catch {
    /* not there yet */
  }
  if (!exists) {
    if (writeRefusal(dirname(folder))) return false;
    mkdirSync(folder, { recursive: true });
  }
  // The folder resolved: writing inside it must not leave its tree (a planted symlinked folder).
  if (writeRefusal(join(folder, '.gitignore')) || writeRefusal(folder)) return false;
  writeIfAbsent(join(folder, '.gitignore'), '# Automatically created by rollout-lint (its cache).\n*\n');
  writeIfAbsent(join(folder, 'CACHEDIR.TAG'), 'Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by rollout-lint.\n# For information about cache directory tags, see https://bford.info/cachedir/\n');
  return true;
}

function writeIfAbsent(path: string, text: string): void {
  try {
    lstatSync(path);
  } catch {
    try {
      writeFileSync(path, text, { flag: 'wx' });
    } catch {
      /* a concurrent run wrote it */
    }
  }
}

/** Writes `text` to a fresh temporary file (`wx`: never through a planted link) and renames it over `path` (which replaces a link, not its target). */
function atomicWrite(path: string, text: string): void {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, text, { flag: 'wx', mode: 0o600 });
    renameSync(tmp, path);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      /* not created */
    }
    throw error;
  }
}

export { decodeCached, encodeWithoutSecrets, type SecretSource };
