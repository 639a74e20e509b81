import { createTwoFilesPatch } from 'diff';
import { redactSource } from '../core/redact';

/**
 * A unified diff of one file (`--- a/path`, `+++ b/path`, 3 lines of context, as `git diff` and
 * `ruff --diff` print it), made with jsdiff (`diff` on npm; since v8 it quotes a file name holding
 * control characters, `"` or `\` in git's C style, so no name can start a line). Empty when nothing changed. Secrets are
 * masked on context and changed lines alike (`redactSource`, with `known` secrets of the file), so
 * a hunk that touches a key line no longer applies with `git apply`; every other hunk does.
 */
export function unifiedDiff(path: string, before: string, after: string, known: readonly string[] = []): string {
  if (before === after) return '';
  const patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, redactSource(before, known), redactSource(after, known), undefined, undefined, { context: 3 });
  // jsdiff starts with an "Index:"-less "===" separator line; drop it so the output is plain unified diff.
  return patch.replace(/^=+\n/, '');
}
