import type { Extraction, Format, Setting, TextEdit } from './model/types';
import type { Grammars } from './formats/treesitter';
import { extract } from './formats/index';
import { applyEdits } from './fix';

/** What each reader yields for a setting: the decoded value and, for dotenv, every loader's value. */
function loadedValues(s: Setting): Record<string, string | null | undefined> {
  const values: Record<string, string | null | undefined> = { value: s.value, ...(s.loaded ?? {}) };
  // The shell keeps the `\r` of a CRLF line in the value; that is no part of what a fix changes.
  if (typeof values.posixShell === 'string') values.posixShell = values.posixShell.replace(/\r$/, '');
  return values;
}

function overlapsAny(s: Setting, edits: readonly TextEdit[]): boolean {
  const { start, end } = s.valueRange;
  return edits.some((e) => e.range.start <= end && start <= e.range.end);
}

/**
 * Whether applying `edits` (value edits carrying `intendedValue`) to `text` changes what every
 * reader loads exactly as intended and nothing else: the edited text is extracted again; it must
 * hold the same settings in the same order with no new parse problem; every setting away from the
 * edits must load the same in every loader; an edited setting must decode to its `intendedValue`,
 * and each of its loaders must read the intended value, what it read before, or what it read before
 * with the old value replaced by the intended one (docker's `--env-file` keeps an inline `# comment`).
 * This is the proof DESIGN "Fix safety" asks of a fix; a fix that fails it is not offered.
 */
export function fixKeepsMeaning(format: Format, path: string, text: string, before: Extraction, edits: readonly TextEdit[], grammars: Grammars): boolean {
  let after: Extraction;
  try {
    after = extract(format, applyEdits(text, edits), path, grammars);
  } catch {
    return false;
  }
  if (after.settings.length !== before.settings.length || after.parseProblems.length > before.parseProblems.length) return false;
  for (let i = 0; i < before.settings.length; i++) {
    const b = before.settings[i];
    const a = after.settings[i];
    if (a.key !== b.key || a.path !== b.path || a.kind !== b.kind) return false;
    const was = loadedValues(b);
    const now = loadedValues(a);
    const target = overlapsAny(b, edits) ? edits.find((e) => e.intendedValue !== undefined && e.range.start <= b.valueRange.end && b.valueRange.start <= e.range.end) : undefined;
    if (!target) {
      if (Object.keys(was).some((k) => was[k] !== now[k])) return false;
      continue;
    }
    const intended = target.intendedValue!;
    if (a.value !== intended) return false;
    const old = b.value;
    const substituted = (v: string | null | undefined) => (typeof v === 'string' && old ? v.replace(old, intended) : v);
    if (Object.keys(was).some((k) => now[k] !== was[k] && now[k] !== intended && now[k] !== substituted(was[k]))) return false;
  }
  return true;
}
