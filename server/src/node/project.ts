import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, parse, relative, resolve, sep } from 'node:path';
import { loadConfigForDirectory, nearestConfigFile, type LoadedConfig } from './config';

/**
 * Where a file belongs, decided from the file's own folders, never from the working directory alone
 * (ruff's and ESLint's habit): its git work tree, the `.rolloutlintrc.json` nearest to it, and the
 * root its globs are matched against.
 */
export interface FileProject {
  /**
   * The root that `rolloutGlobs`, `jsonGlobs` and the workspace facts resolve against: the git work
   * tree holding the file; outside git the folder of its nearest `.rolloutlintrc.json`; else the
   * working directory when it holds the file; else the file's own folder.
   */
  root: string;
  /** The file's path relative to `root`, `/`-separated. */
  lintPath: string;
  /** The configuration from the nearest `.rolloutlintrc.json` (searched up to the git work tree, or to the filesystem root outside git). */
  loaded: LoadedConfig;
  /** The folder the config's `ignore` globs are relative to: the config file's folder, else `root`. */
  ignoreBase: string;
  /** What `root` is: a git work tree, the folder of a config file, or neither (the working directory or the file's folder). */
  kind: 'git' | 'config' | 'none';
}

/**
 * Finds git work trees (a folder with a `.git` entry: a folder, or a file for worktrees and
 * submodules) and projects, cached per folder. One instance per CLI run.
 */
export class ProjectLocator {
  private readonly workTreeOfDir = new Map<string, string | null>();
  private readonly projectOfDir = new Map<string, Omit<FileProject, 'lintPath'>>();
  /** `projectOf`'s answers by the path asked (a run asks several times per file). */
  private readonly projectOfPath = new Map<string, FileProject>();

  /**
   * `override`: one configuration for every file instead of the nearest `.rolloutlintrc.json`
   * (`--config FILE`, or the defaults with `--no-config-lookup`); its `source` folder then stands
   * for the config folder (root outside git, base of its `ignore` globs).
   */
  constructor(
    private readonly cwd: string,
    private readonly override?: LoadedConfig,
  ) {}

  /** The nearest folder at or above `dir` with a `.git` entry, or `undefined`. */
  workTreeOf(dir: string): string | undefined {
    const visited: string[] = [];
    let current = resolve(dir);
    let found: string | null = null;
    for (;;) {
      const cached = this.workTreeOfDir.get(current);
      if (cached !== undefined) {
        found = cached;
        break;
      }
      visited.push(current);
      if (existsSync(join(current, '.git'))) {
        found = current;
        break;
      }
      const parent = dirname(current);
      if (parent === current) break;
      current = parent;
    }
    for (const d of visited) this.workTreeOfDir.set(d, found);
    return found ?? undefined;
  }

  /**
   * The project of the file at `absPath` (which need not exist: `--stdin-filename`). Throws `ConfigError` for a broken config.
   * Cached per folder (every file of a folder has the same project; a run asks several times per file).
   */
  projectOf(absPath: string): FileProject {
    let known = this.projectOfPath.get(absPath);
    if (!known) this.projectOfPath.set(absPath, (known = this.locate(absPath)));
    return { ...known };
  }

  private locate(absPath: string): FileProject {
    const abs = resolve(absPath);
    const dir = dirname(abs);
    let project = this.projectOfDir.get(dir);
    if (!project) {
      const workTree = this.workTreeOf(dir);
      const stop = workTree ?? parse(dir).root;
      const rcFile = this.override ? this.override.source : nearestConfigFile(dir, stop);
      const loaded = this.override ?? loadConfigForDirectory(dir, stop);
      // Whether a file directly in `dir` lies inside the working directory is the same for all of them.
      const root = workTree ?? (rcFile ? dirname(rcFile) : isInside(abs, this.cwd) ? this.cwd : dir);
      project = { root, loaded, ignoreBase: rcFile ? dirname(rcFile) : root, kind: workTree ? 'git' : rcFile ? 'config' : 'none' };
      this.projectOfDir.set(dir, project);
    }
    return { ...project, lintPath: posixRelative(project.root, abs) };
  }
}

/** `to` relative to `from`, `/`-separated. */
export function posixRelative(from: string, to: string): string {
  // The common case without `path.relative` (which resolves both paths again): `to` inside `from`, both absolute and normalised.
  if (sep === '/' && from.length > 1 && to.startsWith(from) && to.charCodeAt(from.length) === 47 && isAbsolute(from) && from === normalize(from) && to === normalize(to) && !to.endsWith('/')) return to.slice(from.length + 1);
  return relative(from, to).split(sep).join('/');
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel);
}
