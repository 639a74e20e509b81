import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { normalizeBaseUrl, type ModelList } from '../core/model/verified';
import { readBoundedText } from './read';
import { userCacheDir } from './user-cache';

/** At most this many base URLs are kept (newest first). */
const MAX_KEPT = 100;
/** The largest cache file read (bytes): 100 lists of under 50 ids take well under 1 MB. */
export const MAX_CACHE_BYTES = 4 * 1024 * 1024;

/**
 * Where `rollout-lint ping` keeps the `/models` lists it saw: `$ROLLOUT_LINT_CACHE_DIR/models.json`,
 * else `$XDG_CACHE_HOME/rollout-lint/models.json`, else `$HOME/.cache/rollout-lint/models.json`
 * (`%USERPROFILE%` on Windows); `undefined` (nothing kept) when the environment names none of them.
 * The file holds base URLs, model ids and times only, never a key.
 */
export function modelsCachePath(env: NodeJS.ProcessEnv): string | undefined {
  const dir = userCacheDir(env);
  return dir === undefined ? undefined : join(dir, 'models.json');
}

/** The kept lists (malformed entries dropped); `[]` when the file is missing or unreadable. */
export function loadModelLists(env: NodeJS.ProcessEnv): ModelList[] {
  const path = modelsCachePath(env);
  if (!path) return [];
  // Read on every lint: through the guarded reader, so a FIFO, a device or a huge file in its place
  // (the cache folder may be shared or a link) is skipped, never waited on or loaded.
  const text = readBoundedText(path, MAX_CACHE_BYTES);
  if (text === undefined) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return raw.slice(0, MAX_KEPT).filter(
    (e): e is ModelList =>
      !!e && typeof e === 'object' && typeof e.baseUrl === 'string' && normalizeBaseUrl(e.baseUrl) !== undefined && typeof e.at === 'number' && Number.isFinite(e.at)
      && Array.isArray(e.models) && e.models.length > 0 && e.models.every((m: unknown) => typeof m === 'string'),
  );
}

/** Keeps `entry` (replacing the list of the same base URL); best effort: a write failure is ignored. */
export function rememberModelList(env: NodeJS.ProcessEnv, entry: ModelList): void {
  const path = modelsCachePath(env);
  if (!path) return;
  const key = normalizeBaseUrl(entry.baseUrl);
  const list = [entry, ...loadModelLists(env).filter((e) => normalizeBaseUrl(e.baseUrl) !== key)].slice(0, MAX_KEPT);
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch {
    return; // a read-only home: the list is simply not kept
  }
  // A fresh temporary name opened with O_CREAT|O_EXCL (`wx`): an existing file or symlink planted at a
  // fixed `models.json.tmp` is never followed, so the write cannot land outside the cache folder.
  // The rename replaces a `models.json` symlink itself, not its target.
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(list, null, 1), { flag: 'wx', mode: 0o600 });
    renameSync(tmp, path);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      /* not created */
    }
  }
}
