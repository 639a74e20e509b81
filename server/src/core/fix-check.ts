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
export function fixKeepsMeaning(format: Format, path: string, text: string, before: Extraction, edits: readonly TextEdit[], grammars: Grammars, sameProblems = false): boolean {
  let after: Extraction;
  try {
    after = extract(format, applyEdits(text, edits), path, grammars);
  } catch {
    return false;
  }
  if (after.settings.length !== before.settings.length || after.parseProblems.length > before.parseProblems.length) return false;
  if (sameProblems && !sameMessages(before, after)) return false;
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

/** Whether both extractions report the same parse problems (by message, in order). */
function sameMessages(a: Extraction, b: Extraction): boolean {
  return a.parseProblems.length === b.parseProblems.length && a.parseProblems.every((p, i) => p.message === b.parseProblems[i].message && p.kind === b.parseProblems[i].kind);
}

/** The indices of the settings of `before` whose value ranges the edits touch. */
function touchedSettings(before: Extraction, edits: readonly TextEdit[]): Set<number> {
  const touched = new Set<number>();
  before.settings.forEach((s, i) => {
    if (overlapsAny(s, edits)) touched.add(i);
  });
  return touched;
}

function editsTouch(a: readonly TextEdit[], b: readonly TextEdit[]): boolean {
  return a.some((x) => b.some((y) => x.range.start <= y.range.end && y.range.start <= x.range.end));
}

/**
 * `fixKeepsMeaning` for many fixes at once: element `i` of the result says whether `fixes[i]`
 * (each the edits of one fix) passes the proof on its own. Checking each fix alone costs one
 * extraction of the whole file per fix, which made a 1,000-line file with 20 fixable findings cost
 * ~1 s. Here fixes that touch neither the same setting nor each other's edits are checked together
 * in one extraction; when a group fails it is split in halves until the failing fixes stand alone,
 * so the cost is one extraction per group when every fix is sound (a handful: one per overlapping
 * fix of the same value) and O(k log n) extractions for k unsound ones.
 * A group passing stands in for each of its fixes passing alone: each edit rewrites one setting's
 * value in that value's own syntax, and the group's extraction proves every setting — also the ones
 * between two edits — reads as before or as intended, so no edit changed how the text around it is
 * read (a stray quote or comment opened by one edit would change the settings up to the next edit).
 * A group must also keep exactly the parse problems there were (one fix cannot hide another's).
 * Identical fixes (two rules offering the same edits) are checked once.
 */
export function fixesKeepMeaning(format: Format, path: string, text: string, before: Extraction, fixes: readonly (readonly TextEdit[])[], grammars: Grammars): boolean[] {
  const verdicts: boolean[] = new Array(fixes.length).fill(false);
  const byKey = new Map<string, number[]>();
  fixes.forEach((edits, i) => {
    const key = JSON.stringify(edits.map((e) => [e.range.start, e.range.end, e.text, e.intendedValue]));
    byKey.set(key, [...(byKey.get(key) ?? []), i]);
  });
  const distinct = [...byKey.values()].map((indices) => ({ indices, edits: fixes[indices[0]], touched: touchedSettings(before, fixes[indices[0]]) }));
  type Item = (typeof distinct)[number];
  const groups: Item[][] = [];
  for (const item of distinct) {
    const group = groups.find((g) => g.every((o) => !editsTouch(o.edits, item.edits) && ![...item.touched].some((t) => o.touched.has(t))));
    if (group) group.push(item);
    else groups.push([item]);
  }
  const settle = (group: Item[]): void => {
    // Together, one fix could remove a parse problem another adds: a group must keep exactly the problems there were.
    const ok = fixKeepsMeaning(format, path, text, before, group.flatMap((g) => g.edits), grammars, group.length > 1);
    if (ok || group.length === 1) {
      for (const item of group) for (const i of item.indices) verdicts[i] = ok;
      return;
    }
    const half = Math.ceil(group.length / 2);
    settle(group.slice(0, half));
    settle(group.slice(half));
  };
  for (const group of groups) settle(group);
  return verdicts;
}
