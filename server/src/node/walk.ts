import { lstatSync, readdirSync, statSync } from 'node:fs';
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
 * Files named explicitly are always included when their format is known. Whether a Python, shell or
 * JSON file is a candidate is decided later from its content (`isCandidate`).
 */
export function walk(paths: readonly string[], root: string, facts: NodeWorkspaceFacts, options: WalkOptions): { files: WalkedFile[]; problems: WalkProblem[] } {
  const files: WalkedFile[] = [];
  const problems: WalkProblem[] = [];
  const seen = new Set<string>();
  const ignored = globMatcher(options.config.ignore);
  const rel = (abs: string) => relative(root, abs).split(sep).join('/') || '.';
  const add = (abs: string) => {
    if (!seen.has(abs)) {
      seen.add(abs);
      files.push({ absPath: abs, relPath: rel(abs) });
    }
  };
  const visit = (dir: string, insideIgnored: boolean) => {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch (error) {
      problems.push({ path: rel(dir), message: (error as Error).message });
      return;
    }
    for (const name of entries) {
      const abs = join(dir, name);
      let st;
      try {
        st = lstatSync(abs);
      } catch {
        continue;
      }
      const r = rel(abs);
      if (ignored(r)) continue;
      if (st.isDirectory()) {
        if (SKIPPED_DIRECTORIES.has(name)) continue;
        visit(abs, insideIgnored || (!options.noIgnore && facts.ignores(abs, true)));
      } else if (st.isFile() && formatOf(name)) {
        if (!options.noIgnore && !isAlwaysLinted(r) && (insideIgnored || facts.ignores(abs))) continue;
        add(abs);
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
    else problems.push({ path: p, message: 'not a file type Rollout Lint reads (.env, YAML, JSON, Python, shell)' });
  }
  return { files, problems };
}
