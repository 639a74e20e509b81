import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** The git work tree holding `dir` (nearest folder upwards with a `.git` entry), or `undefined`. */
function workTreeOf(dir: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return undefined;
  }
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

/** The reason `writeRefusal` gives (the CLI translates it by this text). */
export const WRITE_REFUSAL = 'a symbolic link to a file outside its work tree; not written';

/**
 * Why fixes must not be written to `absPath`, or `undefined` when they may: the path (or a folder on
 * it) is a symbolic link whose target lies outside the file's work tree — the git work tree that
 * holds the path as named, or outside git the folder the path names — so writing would change a file
 * the repository does not hold (issue 29 item 5). A link whose target stays inside is written through.
 */
export function writeRefusal(absPath: string): string | undefined {
  const named = resolve(absPath);
  let real: string;
  try {
    real = realpathSync(named);
  } catch {
    return undefined; // nothing there yet: the write creates a file where it is named
  }
  if (real === named) return undefined;
  const tree = workTreeOf(dirname(named)) ?? dirname(named);
  let realTree = tree;
  try {
    realTree = realpathSync(tree);
  } catch {
    /* keep the folder as named */
  }
  return isInside(real, realTree) ? undefined : WRITE_REFUSAL;
}
