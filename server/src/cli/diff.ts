import { createTwoFilesPatch } from 'diff';
import { redactSource } from '../core/redact';

/**
 * A path as git prints it in a diff header: in double quotes with C escapes (`\n`, `\t`, `\"`,
 * `\\`, octal for other control characters) when it holds any of them (git's `quote_c_style`), so
 * a file name cannot start a line of its own; as is otherwise.
 */
export function quotedDiffPath(path: string): string {
  if (!/[\x00-\x1f\x7f"\\]/.test(path)) return path;
  const named: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\v': '\\v', '\f': '\\f', '\r': '\\r', '"': '\\"', '\\': '\\\\' };
  return `"${path.replace(/[\x00-\x1f\x7f"\\]/g, (c) => named[c] ?? `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`)}"`;
}

/**
 * A unified diff of one file (`--- a/path`, `+++ b/path`, 3 lines of context, as `git diff` and
 * `ruff --diff` print it), made with jsdiff (`diff` on npm). Empty when nothing changed. Secrets are
 * masked on context and changed lines alike (`redactSource`, with `known` secrets of the file), so
 * a hunk that touches a key line no longer applies with `git apply`; every other hunk does.
 */
export function unifiedDiff(path: string, before: string, after: string, known: readonly string[] = []): string {
  if (before === after) return '';
  const patch = createTwoFilesPatch(quotedDiffPath(`a/${path}`), quotedDiffPath(`b/${path}`), redactSource(before, known), redactSource(after, known), undefined, undefined, { context: 3 });
  // jsdiff starts with an "Index:"-less "===" separator line; drop it so the output is plain unified diff.
  return patch.replace(/^=+\n/, '');
}
