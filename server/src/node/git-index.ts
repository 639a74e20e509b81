import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { readBounded, readBoundedText } from './read';

/**
 * Reads which paths a git work tree tracks straight from its index file, without running git.
 * Running `git` in a linted repository lets that repository's config choose commands
 * (`core.fsmonitor`, hooks, filters, pagers): reading the file runs nothing (SECURITY.md).
 *
 * Format: git's Documentation/gitformat-index.txt — a 12-byte header (`DIRC`, version 2/3/4, entry
 * count), then entries; v2/v3 entries are padded to 8 bytes, v4 entries prefix-compress the path
 * against the previous one. Object ids are 20 bytes (SHA-1) or 32 (`extensions.objectFormat = sha256`).
 * A split index (`link` extension) keeps most entries in `sharedindex.<id>`; both files are read and
 * their entries united (entries the split index deletes are still counted: too much "tracked" is the
 * cautious side for the key rule).
 */

/** Paths tracked by the work tree, relative to its top level and `/`-separated; sparse directories end in `/`. */
export interface TrackedPaths {
  files: Set<string>;
  /** Sparse-index directory entries (`dir/`): everything below them is tracked. */
  sparseDirs: string[];
}

/** Largest index file read (bytes); a larger one is treated as unreadable. */
export const MAX_INDEX_BYTES = 512 * 1024 * 1024;
/** Largest `.git` file and `commondir` read (bytes): each holds one path. */
const MAX_POINTER_BYTES = 4096;
/** Largest git `config` read (bytes) when looking for `objectformat`. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The git directory of the work tree at `top`: `top/.git` when it is a directory, or the
 * `gitdir: <path>` a `.git` file names (worktrees, submodules). `undefined` when neither exists.
 */
export function gitDirOf(top: string): string | undefined {
  const dotGit = join(top, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const text = readBoundedText(dotGit, MAX_POINTER_BYTES);
    const m = text === undefined ? null : /^gitdir:\s*(.+?)\s*$/m.exec(text);
    if (!m) return undefined;
    return isAbsolute(m[1]) ? m[1] : resolve(top, m[1]);
  } catch {
    return undefined;
  }
}

/** The object-id length the repository uses: 32 bytes when its config says `objectformat = sha256`. */
function hashLength(gitDir: string): number {
  let text = readBoundedText(join(gitDir, 'config'), MAX_CONFIG_BYTES);
  if (text === undefined) {
    const common = readBoundedText(join(gitDir, 'commondir'), MAX_POINTER_BYTES)?.trim();
    if (common) text = readBoundedText(join(resolve(gitDir, common), 'config'), MAX_CONFIG_BYTES);
  }
  return text !== undefined && /^\s*objectformat\s*=\s*sha256\s*$/im.test(text) ? 32 : 20;
}

/** Reads git's offset varint (varint.c: each continuation adds one before shifting). */
function readVarint(buf: Buffer, at: number): [number, number] {
  let byte = buf[at++];
  let value = byte & 0x7f;
  while (byte & 0x80) {
    if (at >= buf.length) throw new Error('truncated varint');
    byte = buf[at++];
    value = (value + 1) * 128 + (byte & 0x7f);
  }
  return [value, at];
}

/**
 * Parses index bytes into tracked paths; throws on a malformed file. `sharedIndexId` receives the
 * shared index's object id when the file carries a `link` extension.
 */
export function parseGitIndex(buf: Buffer, hashLen = 20, out: TrackedPaths = { files: new Set(), sparseDirs: [] }): { paths: TrackedPaths; sharedIndexId?: string } {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') throw new Error('not a git index');
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) throw new Error(`unsupported index version ${version}`);
  const count = buf.readUInt32BE(8);
  const end = buf.length - hashLen;
  let at = 12;
  let previous = '';
  for (let i = 0; i < count; i++) {
    const start = at;
    if (at + 40 + hashLen + 2 > end) throw new Error('truncated entry');
    const mode = buf.readUInt32BE(at + 24);
    at += 40 + hashLen;
    const flags = buf.readUInt16BE(at);
    at += 2;
    if (version >= 3 && flags & 0x4000) at += 2;
    let path: string;
    if (version === 4) {
      const [strip, next] = readVarint(buf, at);
      if (strip > previous.length) throw new Error('bad path compression');
      const nul = buf.indexOf(0, next);
      if (nul < 0 || nul >= end) throw new Error('unterminated path');
      path = previous.slice(0, previous.length - strip) + buf.toString('utf8', next, nul);
      at = nul + 1;
    } else {
      const nul = buf.indexOf(0, at);
      if (nul < 0 || nul >= end) throw new Error('unterminated path');
      path = buf.toString('utf8', at, nul);
      at = start + Math.ceil((nul + 1 - start) / 8) * 8;
    }
    previous = path;
    if ((mode & 0o170000) === 0o040000) out.sparseDirs.push(path.endsWith('/') ? path : `${path}/`);
    else if (path) out.files.add(path); // split index: replaced entries have empty names
  }
  let sharedIndexId: string | undefined;
  while (at + 8 <= end) {
    const signature = buf.toString('latin1', at, at + 4);
    const size = buf.readUInt32BE(at + 4);
    if (signature === 'link' && size >= hashLen) sharedIndexId = buf.toString('hex', at + 8, at + 8 + hashLen);
    at += 8 + size;
  }
  return { paths: out, sharedIndexId };
}

/**
 * What the work tree at `top` tracks, read from its index (and shared index); `undefined` when the
 * index is missing, too large or malformed (callers fall back to `.gitignore` files). Never runs git.
 */
export function readTrackedPaths(top: string): TrackedPaths | undefined {
  const gitDir = gitDirOf(top);
  if (!gitDir) return undefined;
  const index = join(gitDir, 'index');
  try {
    const main = readBounded(index, MAX_INDEX_BYTES);
    if (main.kind === 'missing') return { files: new Set(), sparseDirs: [] };
    if (main.kind !== 'bytes') return undefined;
    const hashLen = hashLength(gitDir);
    const { paths, sharedIndexId } = parseGitIndex(main.bytes, hashLen);
    if (sharedIndexId && !/^0+$/.test(sharedIndexId)) {
      const shared = readBounded(join(dirname(index), `sharedindex.${sharedIndexId}`), MAX_INDEX_BYTES);
      if (shared.kind !== 'bytes') return undefined;
      parseGitIndex(shared.bytes, hashLen, paths);
    }
    return paths;
  } catch {
    return undefined;
  }
}
