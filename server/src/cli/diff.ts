import { createTwoFilesPatch } from 'diff';

/**
 * A unified diff of one file (`--- a/path`, `+++ b/path`, 3 lines of context, as `git diff` and
 * `ruff --diff` print it), made with jsdiff (`diff` on npm). Empty when nothing changed.
 */
export function unifiedDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  const patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, { context: 3 });
  // jsdiff starts with an "Index:"-less "===" separator line; drop it so the output is plain unified diff.
  return patch.replace(/^=+\n/, '');
}
