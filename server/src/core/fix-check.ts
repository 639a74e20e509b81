import type { Extraction, Format, Setting, TextEdit } from './model/types';
import type { Grammars } from './formats/treesitter';
import { extract } from './formats/index';
import { applyEdits } from './fix';
import { overlapping } from './range-lookup';
import { spend } from './budget';

/** What each reader yields for a setting: the decoded value and, for dotenv, every loader's value. */
function loadedValues(s: Setting): Record<string, string | null | undefined> {
  const values: Record<string, string | null | undefined> = { value: s.value, ...(s.loaded ?? {}) };
  // The shell keeps the `\r` of a CRLF line in the value; that is no part of what a fix changes.
  if (typeof values.posixShell === 'string') values.posixShell = values.posixShell.replace(/\r$/, '');
  return values;
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
  const editsAt = overlapping(edits, (e) => e.range);
  for (let i = 0; i < before.settings.length; i++) {
    if ((i & 1023) === 0) spend(0);
    const b = before.settings[i];
    const a = after.settings[i];
    if (a.key !== b.key || a.path !== b.path || a.kind !== b.kind) return false;
    const was = loadedValues(b);
    const now = loadedValues(a);
    const target = editsAt(b.valueRange).find((e) => e.intendedValue !== undefined);
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

/** The settings whose value ranges an edit touches (inclusive overlap), by a lookup built once per extraction. */
function settingsTouched(before: Extraction): (edits: readonly TextEdit[]) => Set<Setting> {
  const at = overlapping(before.settings, (s) => s.valueRange);
  return (edits) => new Set(edits.flatMap((e) => at(e.range)));
}

/**
 * The edits and touched settings of one group of fixes, for the first-fit grouping: whether another
 * fix's edits overlap an edit here (inclusive) or touch a setting a fix here touches. Edit ranges
 * are kept merged and sorted, so a query is a binary search (a scan of every earlier fix per fix
 * made 85k fixable lines quadratic).
 */
class FixGroup<T> {
  readonly items: T[] = [];
  private readonly settings = new Set<Setting>();
  /** Sorted, merged edit ranges (inclusive overlap is what `touches` tests). */
  private starts: number[] = [];
  private ends: number[] = [];

  touches(edits: readonly TextEdit[], touched: ReadonlySet<Setting>): boolean {
    for (const s of touched) if (this.settings.has(s)) return true;
    return edits.some((e) => this.overlaps(e.range.start, e.range.end));
  }

  add(item: T, edits: readonly TextEdit[], touched: ReadonlySet<Setting>): void {
    this.items.push(item);
    for (const s of touched) this.settings.add(s);
    for (const e of edits) this.insert(e.range.start, e.range.end);
  }

  /** The index of the last merged range starting at or before `at`, or -1. */
  private lastStartingBy(at: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    let last = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid] <= at) {
        last = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return last;
  }

  private overlaps(start: number, end: number): boolean {
    const k = this.lastStartingBy(end);
    return k >= 0 && this.ends[k] >= start;
  }

  private insert(start: number, end: number): void {
    let k = this.lastStartingBy(start);
    if (k >= 0 && this.ends[k] >= start) {
      start = this.starts[k];
      end = Math.max(end, this.ends[k]);
    } else k++;
    let j = k;
    while (j < this.starts.length && this.starts[j] <= end) end = Math.max(end, this.ends[j++]);
    this.starts.splice(k, j - k, start);
    this.ends.splice(k, j - k, end);
  }
}

/** How many times `fixesKeepMeaning` ran in this thread and the wall milliseconds it took (tests and measurements read it; never reset here). */
export const fixProofRuns = { count: 0, ms: 0 };

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
  fixProofRuns.count++;
  const started = performance.now();
  try {
    return provenTogether(format, path, text, before, fixes, grammars);
  } finally {
    fixProofRuns.ms += performance.now() - started;
  }
}

function provenTogether(format: Format, path: string, text: string, before: Extraction, fixes: readonly (readonly TextEdit[])[], grammars: Grammars): boolean[] {
  const verdicts: boolean[] = new Array(fixes.length).fill(false);
  const byKey = new Map<string, number[]>();
  fixes.forEach((edits, i) => {
    const key = JSON.stringify(edits.map((e) => [e.range.start, e.range.end, e.text, e.intendedValue]));
    const same = byKey.get(key);
    if (same) same.push(i);
    else byKey.set(key, [i]);
  });
  const touchedBy = settingsTouched(before);
  const distinct = [...byKey.values()].map((indices) => ({ indices, edits: fixes[indices[0]], touched: touchedBy(fixes[indices[0]]) }));
  type Item = (typeof distinct)[number];
  const groups: FixGroup<Item>[] = [];
  for (const item of distinct) {
    spend(0);
    let group = groups.find((g) => !g.touches(item.edits, item.touched));
    if (!group) groups.push((group = new FixGroup<Item>()));
    group.add(item, item.edits, item.touched);
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
  for (const group of groups) settle(group.items);
  return verdicts;
}
