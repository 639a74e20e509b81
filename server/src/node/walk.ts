import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { globMatcher } from '../core/glob';
import { formatOf, isAlwaysLinted } from '../core/files';
import type { LintConfig } from '../core/config/config';
import type { NodeWorkspaceFacts } from './facts';

/** Directories never descended into (DESIGN "Files"). */
export const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', '.hg', '.svn', '.venv', 'venv', '__pycache__', '.mypy_cache', '.pytest_cache', '.tox']);

export interface WalkOptions {
  /** Lint git-ignored files too (`--no-ignore`). */
  noIgnore: boolean;
  config: LintConfig;
}

/** A file the walker chose, with its path relative to the workspace root (`/`-separated). */
export interface WalkedFile {
  absPath: string;
  relPath: string;
}

/** A path argument that does not exist or cannot be read. */
export interface WalkProblem {
  path: string;
  message: string;
}

/**
 * Expands path arguments into files whose format Rollout Lint knows. Directories are walked
 * (symlinked directories are not followed); `node_modules`, `.git`, `.venv` and git-ignored paths are
 * skipped, except candidate config files (`.env*`, YAML, `openclaw.json`), which are always linted
 * (ignored directories are still listed, for those files only).
 * Files named explicitly are always included when their format is known; named files of other types
 * come back in `otherTypes` (not a problem: pre-commit and editors pass whole file lists). Whether a
 * Python, shell or JSON file is a candidate is decided later from its content (`isCandidate`).
 */
export function walk(paths: readonly string[], root: string, facts: NodeWorkspaceFacts, options: WalkOptions): { files: WalkedFile[]; problems: WalkProblem[]; otherTypes: string[] } {
  const files: WalkedFile[] = [];
  const problems: WalkProblem[] = [];
  const otherTypes: string[] = [];
  const seen = new Set<string>();
  const ignored = globMatcher(options.config.ignore);
  const rel = (abs: string) => relative(root, abs).split(sep).join('/') || '.';
  const add = (abs: string, relPath = rel(abs)) => {
    if (!seen.has(abs)) {
      seen.add(abs);
      files.push({ absPath: abs, relPath });
    }
  };
  /** `dirRel` is `rel(dir)`; children's relative paths are built from it (no `path.relative` per entry). */
  const visit = (dir: string, insideIgnored: boolean, dirRel = rel(dir)) => {
    // One readdir with file types (no lstat per entry); entry types are lstat's, so symlinks are not followed.
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (error) {
      problems.push({ path: rel(dir), message: (error as Error).message });
      return;
    }
    facts.noteListing(dir, entries.map((e) => e.name));
    for (const st of entries) {
      const name = st.name;
      if (!st.isDirectory() && !(st.isFile() && formatOf(name))) continue;
      const abs = join(dir, name);
      const r = dirRel === '.' ? name : `${dirRel}/${name}`;
      if (ignored(r)) continue;
      if (st.isDirectory()) {
        if (SKIPPED_DIRECTORIES.has(name)) continue;
        visit(abs, insideIgnored || (!options.noIgnore && facts.ignores(abs, true)), r);
      } else {
        if (!options.noIgnore && !isAlwaysLinted(r) && (insideIgnored || facts.ignores(abs))) continue;
        add(abs, r);
      }
    }
  };
  for (const p of paths) {
    const abs = resolve(root, p);
    let st;
    try {
      st = statSync(abs);
    } catch (error) {
      problems.push({ path: p, message: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (error as Error).message });
      continue;
    }
    if (st.isDirectory()) visit(abs, false);
    else if (formatOf(abs)) add(abs);
    else otherTypes.push(p);
  }
  return { files, problems, otherTypes };
}
