import type { Finding, Fix, TextEdit } from './model/types';

/**
 * Applies non-overlapping edits to `text` (UTF-16 offsets into it). Overlapping edits are a bug in
 * the caller: throws `RangeError`.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].range.start < sorted[i - 1].range.end) throw new RangeError('overlapping edits');
  }
  let out = '';
  let at = 0;
  for (const e of sorted) {
    out += text.slice(at, e.range.start) + e.text;
    at = e.range.end;
  }
  return out + text.slice(at);
}

/** Two edits conflict when they overlap, or both insert at the same offset. */
function conflict(x: TextEdit, y: TextEdit): boolean {
  return (x.range.start < y.range.end && y.range.start < x.range.end) || (x.range.start === y.range.start && x.range.end === x.range.start && y.range.end === y.range.start);
}

/**
 * The edits of the fixes chosen so far, sorted by start: they never conflict with each other, so
 * their ends are sorted too and a query is a binary search plus the few edits at the spot (a scan of
 * every chosen fix per finding made `--fix` on 85k fixable lines quadratic).
 */
class ChosenEdits {
  private readonly edits: TextEdit[] = [];

  /** The first index whose edit ends at or after `offset`. */
  private firstEndingFrom(offset: number): number {
    let lo = 0;
    let hi = this.edits.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.edits[mid].range.end < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  overlaps(edits: readonly TextEdit[]): boolean {
    return edits.some((x) => {
      for (let k = this.firstEndingFrom(x.range.start); k < this.edits.length && this.edits[k].range.start <= x.range.end; k++) if (conflict(x, this.edits[k])) return true;
      return false;
    });
  }

  add(edits: readonly TextEdit[]): void {
    for (const e of edits) {
      let k = this.firstEndingFrom(e.range.start);
      while (k < this.edits.length && (this.edits[k].range.start < e.range.start || (this.edits[k].range.start === e.range.start && this.edits[k].range.end <= e.range.end))) k++;
      this.edits.splice(k, 0, e);
    }
  }
}

/**
 * Chooses one fix per finding (the first allowed by `includeUnsafe`), skipping fixes whose edits
 * overlap an already chosen one; the skipped ones are picked up by the next pass.
 */
export function chooseFixes(findings: readonly Finding[], includeUnsafe: boolean): Fix[] {
  const chosen: Fix[] = [];
  const taken = new ChosenEdits();
  for (const f of findings) {
    const fix = f.fixes.find((x) => x.safety === 'safe' || includeUnsafe);
    if (fix && !taken.overlaps(fix.edits)) {
      chosen.push(fix);
      taken.add(fix.edits);
    }
  }
  return chosen;
}

/** The last text `matchLineBreaks` looked at: a lint calls it once per fix on the same text (a scan per fix made big files quadratic). */
let crlfSeen: { text: string; crlf: boolean } | undefined;

/** Rewrites `\n` in inserted text to the document's line break when the document uses CRLF. */
export function matchLineBreaks(edits: readonly TextEdit[], text: string): TextEdit[] {
  if (crlfSeen?.text !== text) crlfSeen = { text, crlf: /\r\n/.test(text) && !/(^|[^\r])\n/.test(text) };
  const crlf = crlfSeen.crlf;
  return crlf ? edits.map((e) => ({ ...e, text: e.text.replace(/\r?\n/g, '\r\n') })) : [...edits];
}

/**
 * Shrinks an edit to the characters that actually change: the common prefix and suffix of the
 * replaced text and the new text are left out, and when the new text is a piece of the old one
 * (quotes or whitespace dropped at both ends) the edit becomes two deletions. Fixes then touch only
 * the bytes they mean to, and a fix that trims a key carries no copy of the key.
 */
export function minimizeEdit(edit: TextEdit, text: string): TextEdit[] {
  const old = text.slice(edit.range.start, edit.range.end);
  const inner = edit.text.length > 0 ? old.indexOf(edit.text) : -1;
  if (inner >= 0) {
    const start = edit.range.start;
    return [
      { range: { start, end: start + inner }, text: '' },
      { range: { start: start + inner + edit.text.length, end: edit.range.end }, text: '' },
    ].filter((e) => e.range.end > e.range.start);
  }
  let prefix = 0;
  const max = Math.min(old.length, edit.text.length);
  while (prefix < max && old.charCodeAt(prefix) === edit.text.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && old.charCodeAt(old.length - 1 - suffix) === edit.text.charCodeAt(edit.text.length - 1 - suffix)) suffix++;
  const minimal = { range: { start: edit.range.start + prefix, end: edit.range.end - suffix }, text: edit.text.slice(prefix, edit.text.length - suffix) };
  return minimal.text === '' && minimal.range.end === minimal.range.start ? [] : [minimal];
}
