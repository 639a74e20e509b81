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

function overlaps(a: readonly TextEdit[], b: readonly TextEdit[]): boolean {
  return a.some((x) => b.some((y) => x.range.start < y.range.end && y.range.start < x.range.end || (x.range.start === y.range.start && x.range.end === x.range.start && y.range.end === y.range.start)));
}

/**
 * Chooses one fix per finding (the first allowed by `includeUnsafe`), skipping fixes whose edits
 * overlap an already chosen one; the skipped ones are picked up by the next pass.
 */
export function chooseFixes(findings: readonly Finding[], includeUnsafe: boolean): Fix[] {
  const chosen: Fix[] = [];
  for (const f of findings) {
    const fix = f.fixes.find((x) => x.safety === 'safe' || includeUnsafe);
    if (fix && !chosen.some((c) => overlaps(c.edits, fix.edits))) chosen.push(fix);
  }
  return chosen;
}

/** Rewrites `\n` in inserted text to the document's line break when the document uses CRLF. */
export function matchLineBreaks(edits: readonly TextEdit[], text: string): TextEdit[] {
  const crlf = /\r\n/.test(text) && !/(^|[^\r])\n/.test(text);
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
