import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ignore from 'ignore';
import { parse as parseDotenv } from 'dotenv';
import type { WorkspaceFacts } from '../core/model/facts';
import { readTrackedPaths, type TrackedPaths } from './git-index';
import { readBounded } from './read';
import { folderPins, isManifestName, type ClientPin } from '../core/workspace/client-pins';

/** Largest `.gitignore` read (bytes); a larger one is treated as absent. */
export const MAX_GITIGNORE_BYTES = 1024 * 1024;
/** Largest dotenv file read for facts (sibling `.env*`, `env_file:` targets), in bytes. */
export const MAX_ENV_FACT_BYTES = 1024 * 1024;
/** Largest manifest or lock file read for client pins (`package-lock.json`, `uv.lock`), in bytes. */
export const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;

/** Whether `path` lies inside the folder `dir` (or is it), both absolute. */
function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

/** One `.gitignore` file's rules, as the `ignore` package reads them. */
export interface GitignoreRules {
  /** `ignore`'s `test` of a path relative to the file's folder (`/`-separated, a folder with a trailing `/`). */
  test(rel: string): { ignored: boolean; unignored: boolean };
}

/** A line that is one name (`build`, `.env`, `dist/`): it can match only a path whose last segment is that name. */
const LITERAL_LINE = /^[A-Za-z0-9._-]+\/?$/;
/** A line that is `*` and a name's end (`*.pyc`, `*.egg-info/`): it can match only a last segment that ends so. */
const SUFFIX_LINE = /^\*[A-Za-z0-9._-]+\/?$/;

/**
 * The rules of one `.gitignore` text. Every answer is the `ignore` package's; what this adds is
 * leaving out, for a path, the rules that cannot match it (the walk asks once per entry, and a
 * 100-line `.gitignore` is 100 regular expressions per file). When the file has no negation (`!`)
 * and no byte-order mark, each line that is a plain name (`build`) or `*` plus a name's end
 * (`*.pyc`) is indexed by that name or end (lower-cased: `ignore` matches without case by default),
 * and the other lines form a second `ignore` instance (`rest`). Then, for a path whose parent
 * folder the whole file does not ignore (`ignore` answers the parent first, as git does): if no
 * indexed line can match its last segment, the answer is `rest`'s (without negations, the last
 * matching rule is ignoring whichever it is, so only whether any matches counts, and `rest` cannot
 * ignore a parent the whole file does not); otherwise it is the whole file's. `full` answers
 * everything else. Results equal `full.test(rel)` on every path (test/unit/node/gitignore-rules.test.ts).
 */
export function gitignoreRules(text: string): GitignoreRules {
  const full = ignore().add(text);
  const lines = text.split(/\r?\n/);
  if (text.charCodeAt(0) === 0xfeff || lines.some((l) => l.startsWith('!'))) return full;
  const names = new Set<string>();
  const ends: string[] = [];
  const rest: string[] = [];
  for (const line of lines) {
    const body = line.endsWith('/') ? line.slice(0, -1) : line;
    if (LITERAL_LINE.test(line) && !/^\.+$/.test(body)) names.add(body.toLowerCase());
    else if (SUFFIX_LINE.test(line)) ends.push(body.slice(1).toLowerCase());
    else rest.push(line);
  }
  if (names.size + ends.length < 8) return full;
  const others = ignore().add(rest.join('\n'));
  const none = { ignored: false, unignored: false };
  /** Answers for folders (`a/b/`), which are the parents of many paths. */
  const folders = new Map<string, { ignored: boolean; unignored: boolean }>();
  const test = (rel: string): { ignored: boolean; unignored: boolean } => {
    if (rel.charCodeAt(0) === 47 || rel.includes('//')) return full.test(rel);
    const end = rel.length - 1;
    const folder = rel.charCodeAt(end) === 47;
    if (folder) {
      const known = folders.get(rel);
      if (known) return known;
    }
    const slash = rel.lastIndexOf('/', folder ? end - 1 : end);
    let answer: { ignored: boolean; unignored: boolean } | undefined;
    if (slash > 0) {
      const parent = test(rel.slice(0, slash + 1)); // = full.test of the parent (what `ignore` asks first)
      if (parent.ignored) answer = parent;
    }
    if (!answer) {
      const name = (slash < 0 ? rel : rel.slice(slash + 1)).replace(/\/$/, '').toLowerCase();
      if (names.has(name) || ends.some((e) => name.endsWith(e))) answer = full.test(rel);
      else {
        const r = others.test(rel);
        answer = r.ignored ? r : none;
      }
    }
    if (folder) folders.set(rel, answer);
    return answer;
  };
  return { test };
}

/**
 * `.gitignore` semantics from `root` down to each path, read with the `ignore` package (the rules of
 * git's gitignore documentation), cached per directory.
 */
export class GitignoreChain {
  private readonly perDir = new Map<string, GitignoreRules | null>();
  private readonly ruleDirsOf = new Map<string, { dir: string; rules: GitignoreRules }[]>();

  /** `listedWithout`: folders whose listing (the walk's) had no `.gitignore` entry; they are not opened. */
  constructor(
    private readonly root: string,
    private readonly listedWithout: ReadonlySet<string> = new Set(),
  ) {}

  private rulesIn(dir: string): GitignoreRules | null {
    if (!this.perDir.has(dir)) {
      if (this.listedWithout.has(dir)) {
        this.perDir.set(dir, null);
        return null;
      }
      // An in-tree `.gitignore` that is a symbolic link is not followed, as git does since 2.32
      // (release notes: ".gitattributes, .gitignore and .mailmap ... no longer followed when they are
      // symbolic links"); a FIFO or device is never opened for reading (readBounded).
      const read = readBounded(join(dir, '.gitignore'), MAX_GITIGNORE_BYTES, { noFollow: true });
      let rules: GitignoreRules | null = null;
      try {
        if (read.kind === 'bytes') rules = gitignoreRules(read.bytes.toString('utf8'));
      } catch {
        rules = null;
      }
      this.perDir.set(dir, rules);
    }
    return this.perDir.get(dir) ?? null;
  }

  /** Directories from the root to the folder holding `absPath`, root first. */
  private chain(absPath: string): string[] {
    const dirs: string[] = [];
    let dir = dirname(absPath);
    const rel = relative(this.root, dir);
    if (rel.startsWith('..')) return [];
    for (;;) {
      dirs.unshift(dir);
      if (dir === this.root) break;
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    return dirs;
  }

  /** True when some `.gitignore` between the root and the path exists. */
  hasAny(absPath: string): boolean {
    return this.chain(absPath).some((d) => this.rulesIn(d) !== null);
  }

  /** The folders from the root to `dir` (inclusive) that hold `.gitignore` rules, root first; cached per folder (the walk asks once per entry). */
  private ruleDirs(dir: string): { dir: string; rules: GitignoreRules }[] {
    let dirs = this.ruleDirsOf.get(dir);
    if (!dirs) {
      dirs = this.chain(join(dir, '_')).flatMap((d) => {
        const rules = this.rulesIn(d);
        return rules ? [{ dir: d, rules }] : [];
      });
      this.ruleDirsOf.set(dir, dirs);
    }
    return dirs;
  }

  /** Whether the `.gitignore` files ignore `absPath` (a directory when `isDir`). */
  ignores(absPath: string, isDir = false): boolean {
    let ignored = false;
    for (const { dir, rules } of this.ruleDirs(dirname(absPath))) {
      const prefix = dir.endsWith(sep) ? dir : dir + sep;
      const rel = toPosix(absPath.startsWith(prefix) ? absPath.slice(prefix.length) : relative(dir, absPath)) + (isDir ? '/' : '');
      if (rel === '' || rel.startsWith('..')) continue;
      const r = rules.test(rel);
      if (r.ignored) ignored = true;
      else if (r.unignored) ignored = false;
    }
    return ignored;
  }
}

/**
 * Workspace facts for the CLI and the language server. Each work tree's index file is read once (git
 * is never run) and the answer cached; without git, `.gitignore` files from `root` down decide. Paths given to the facts
 * are absolute or relative to `root`.
 */
export class NodeWorkspaceFacts implements WorkspaceFacts {
  private chain: GitignoreChain | undefined;
  /** Folders the walk listed that hold no `.gitignore` (`noteListing`). */
  private readonly withoutGitignore = new Set<string>();
  /** The manifest names (`isManifestName`) of each folder the walk listed, sorted (`noteListing`). */
  private readonly manifestsListed = new Map<string, string[]>();
  private readonly repoOfDir = new Map<string, string | undefined>();
  private readonly repos = new Map<string, { tracked: TrackedPaths | undefined; chain: GitignoreChain }>();
  private readonly envCache = new Map<string, Record<string, { file: string; value: string }[]>>();
  private readonly envFiles = new Map<string, Record<string, string> | 'outsideWorkTree' | undefined>();
  /** Bumped by `invalidate()` (every cached fact may have changed). */
  private generationAll = 0;
  /** Bumped per folder by `changed()` (a dotenv file of that folder changed in the editor). */
  private readonly dirGenerations = new Map<string, number>();
  /** The editor's text of an open, possibly unsaved file (absolute path), read before the disk. */
  private overlay: (absPath: string) => string | undefined = () => undefined;
  private readonly pinsOfDir = new Map<string, ClientPin[]>();

  constructor(readonly root: string) {}

  /**
   * Reads open documents before the disk: `overlay(absPath)` returns the editor's text of an open
   * file or `undefined` (the language server passes its open documents; the CLI sets none).
   */
  setOverlay(overlay: (absPath: string) => string | undefined): void {
    this.overlay = overlay;
  }

  /**
   * A token that changes whenever a fact about the folder `absDir` may have changed (a file-watch
   * event, or `changed()` for a file in it): part of the language server's lint cache key.
   */
  generationOf(absDir: string): string {
    return `${this.generationAll}.${this.dirGenerations.get(absDir) ?? 0}`;
  }

  /** The editor changed, opened or closed the dotenv file `absPath`: its folder's dotenv facts are read again. */
  changed(absPath: string): void {
    const dir = dirname(absPath);
    this.dirGenerations.set(dir, (this.dirGenerations.get(dir) ?? 0) + 1);
    this.envFiles.delete(absPath);
    this.envCache.delete(dir);
  }

  /** `.gitignore` rules from the root's git top level (or the root, outside git) down; the walker uses them. */
  get gitignore(): GitignoreChain {
    this.chain ??= new GitignoreChain(this.gitTopLevel() ?? this.root, this.withoutGitignore);
    return this.chain;
  }

  private abs(path: string): string {
    return path.startsWith('/') ? path : join(this.root, path);
  }

  /** The git work tree holding the root, or `undefined`. */
  gitTopLevel(): string | undefined {
    return this.repoOf(this.root);
  }

  /**
   * The work tree holding `dir`: the nearest folder upwards with a `.git` entry (a folder, or a file
   * for worktrees and submodules). Cached per folder.
   */
  private repoOf(dir: string): string | undefined {
    if (this.repoOfDir.has(dir)) return this.repoOfDir.get(dir);
    const parent = dirname(dir);
    const top = existsSync(join(dir, '.git')) ? dir : parent === dir ? undefined : this.repoOf(parent);
    this.repoOfDir.set(dir, top);
    return top;
  }

  /**
   * What git tracks in the work tree at `top` (read from its index file once; git itself is never run,
   * so nothing in the repository's config can choose a command) and its `.gitignore` rules.
   */
  private repo(top: string): { tracked: TrackedPaths | undefined; chain: GitignoreChain } {
    let repo = this.repos.get(top);
    if (!repo) {
      // The index file is read on the first `tracked` (`gitState`), not for the walk's `ignores`.
      let tracked: TrackedPaths | undefined | null = null;
      repo = {
        get tracked() {
          if (tracked === null) tracked = readTrackedPaths(top);
          return tracked;
        },
        chain: top === this.gitTopLevel() ? this.gitignore : new GitignoreChain(top, this.withoutGitignore),
      };
      this.repos.set(top, repo);
    }
    return repo;
  }

  /**
   * Whether `.gitignore` files ignore `absPath` (a directory when `isDir`), read from the top of the
   * work tree that holds the path, or from the root outside git; the walker asks this per entry, so
   * `rollout-lint ../other-repo` and nested repositories use their own rules.
   */
  ignores(absPath: string, isDir = false): boolean {
    const top = this.repoOf(dirname(absPath));
    return (top ? this.repo(top).chain : this.gitignore).ignores(absPath, isDir);
  }

  /**
   * The walk listed the folder `absDir` (`names`: every entry): a folder without a `.gitignore` entry
   * has no rules (the file is not opened), and its manifests (`clientPins`) are the listed ones (no
   * second `readdir`). Cleared by `invalidate()`, as the facts drawn from them are.
   */
  noteListing(absDir: string, names: readonly string[]): void {
    if (names.includes('.gitignore')) this.withoutGitignore.delete(absDir);
    else this.withoutGitignore.add(absDir);
    this.manifestsListed.set(absDir, names.filter(isManifestName).sort());
  }

  /** Forgets cached git and dotenv facts (after file-watch events). */
  invalidate(): void {
    this.repos.clear();
    this.repoOfDir.clear();
    this.chain = undefined;
    this.withoutGitignore.clear();
    this.manifestsListed.clear();
    this.envCache.clear();
    this.envFiles.clear();
    this.generationAll++;
    this.pinsOfDir.clear();
  }

  /**
   * Git's view of a path, asked of the work tree that holds the path itself (not the one holding the
   * current folder), so `rollout-lint other-repo/` and nested repositories are judged by their own git.
   */
  gitState(path: string): 'tracked' | 'ignored' | 'exposed' | 'unknown' {
    const abs = this.abs(path);
    const top = this.repoOf(dirname(abs));
    if (top) {
      const repo = this.repo(top);
      const rel = toPosix(relative(top, abs));
      if (repo.tracked && (repo.tracked.files.has(rel) || repo.tracked.sparseDirs.some((d) => rel.startsWith(d)))) return 'tracked';
      return repo.chain.ignores(abs) ? 'ignored' : 'exposed';
    }
    if (this.gitignore.ignores(abs)) return 'ignored';
    return this.gitignore.hasAny(abs) ? 'exposed' : 'unknown';
  }

  /**
   * The work tree that holds `path` (its git top level), or the root outside git; `env_file:`
   * targets are read only inside it.
   */
  private workTreeOf(absPath: string): string {
    return this.repoOf(dirname(absPath)) ?? this.root;
  }

  envFile(path: string, file: string): Record<string, string> | 'outsideWorkTree' | undefined {
    const document = this.abs(path);
    const abs = join(dirname(document), file);
    if (this.envFiles.has(abs)) return this.envFiles.get(abs);
    let vars: Record<string, string> | 'outsideWorkTree' | undefined;
    const tree = this.workTreeOf(document);
    let real: string | undefined;
    try {
      real = realpathSync(abs);
    } catch {
      real = undefined;
    }
    let realTree = tree;
    try {
      realTree = realpathSync(tree);
    } catch {
      /* keep the lexical folder */
    }
    if (!isInside(abs, tree) || (real !== undefined && !isInside(real, realTree))) vars = 'outsideWorkTree';
    else {
      const open = this.overlay(abs);
      if (open !== undefined) return open.length <= MAX_ENV_FACT_BYTES ? parseDotenv(open) : undefined; // not cached: the editor's text changes
      const read = readBounded(abs, MAX_ENV_FACT_BYTES);
      vars = read.kind === 'bytes' ? parseDotenv(read.bytes) : undefined;
    }
    this.envFiles.set(abs, vars);
    return vars;
  }

  siblingEnv(path: string): Record<string, { file: string; value: string }[]> {
    const dir = dirname(this.abs(path));
    let cached = this.envCache.get(dir);
    if (!cached) {
      cached = {};
      let names: string[] = [];
      try {
        names = readdirSync(dir).filter((n) => n === '.env' || n.startsWith('.env.')).sort();
      } catch {
        names = [];
      }
      for (const name of names) {
        const open = this.overlay(join(dir, name));
        if (open !== undefined) {
          if (open.length <= MAX_ENV_FACT_BYTES) for (const [k, v] of Object.entries(parseDotenv(open))) (cached[k] ??= []).push({ file: name, value: v });
          continue;
        }
        const read = readBounded(join(dir, name), MAX_ENV_FACT_BYTES);
        if (read.kind !== 'bytes') continue; // unreadable, too large, a FIFO or device: no facts from it
        for (const [k, v] of Object.entries(parseDotenv(read.bytes))) (cached[k] ??= []).push({ file: name, value: v });
      }
      this.envCache.set(dir, cached);
    }
    return cached;
  }

  clientPins(path: string): ClientPin[] {
    const abs = this.abs(path);
    const top = this.workTreeOf(abs);
    const out: ClientPin[] = [];
    for (let dir = dirname(abs); ; dir = dirname(dir)) {
      for (const pin of this.folderPins(dir)) if (!out.some((p) => p.name === pin.name && p.ecosystem === pin.ecosystem)) out.push(pin);
      if (dir === top || !isInside(dir, top) || dirname(dir) === dir) break;
    }
    return out;
  }

  /** The pins of one folder's manifests, cached; `file` is relative to the root (`trainer/uv.lock`). */
  private folderPins(dir: string): ClientPin[] {
    let pins = this.pinsOfDir.get(dir);
    if (pins) return pins;
    let names: string[] | undefined = this.manifestsListed.get(dir);
    try {
      names ??= readdirSync(dir).filter(isManifestName).sort();
    } catch {
      names = [];
    }
    const files: [string, string][] = [];
    for (const name of names) {
      const read = readBounded(join(dir, name), MAX_MANIFEST_BYTES);
      if (read.kind === 'bytes') files.push([name, read.bytes.toString('utf8')]);
    }
    const prefix = toPosix(relative(this.root, dir));
    pins = folderPins(files).map((p) => ({ ...p, file: prefix && !prefix.startsWith('..') ? `${prefix}/${p.file}` : p.file }));
    this.pinsOfDir.set(dir, pins);
    return pins;
  }
}
