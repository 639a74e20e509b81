import type { Extraction, Range } from '../../model/types';
import type { SyntaxNode } from '../treesitter';

/**
 * The line to blank out for a statement-level ERROR: the line of its first non-blank character,
 * without the line break. `undefined` when that line is already blank.
 */
export function errorLine(parseText: string, error: SyntaxNode): Range | undefined {
  let at = error.startIndex;
  while (at < error.endIndex && /\s/.test(parseText[at])) at++;
  if (at >= parseText.length) return undefined;
  const start = parseText.lastIndexOf('\n', at - 1) + 1;
  let end = parseText.indexOf('\n', at);
  if (end < 0) end = parseText.length;
  if (end > start && parseText[end - 1] === '\r') end--;
  return /\S/.test(parseText.slice(start, end)) ? { start, end } : undefined;
}

/** `text` with every character inside `ranges` except line breaks replaced by a space (offsets unchanged). */
export function blank(text: string, ranges: readonly Range[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const r of [...ranges].sort((a, b) => a.start - b.start)) {
    if (r.start < at) continue;
    parts.push(text.slice(at, r.start), text.slice(r.start, r.end).replace(/[^\r\n]/g, ' '));
    at = r.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** True when `r` lies inside one of `sorted` (disjoint ranges sorted by start). */
function within(sorted: readonly Range[], r: Range): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid].start <= r.start) lo = mid + 1;
    else hi = mid;
  }
  const b = sorted[lo - 1];
  return b !== undefined && r.end <= b.end;
}

/**
 * Adds to `into` what `from` (the extraction of the unblanked text) found entirely inside the blanked
 * `ranges`: so the well-formed parts of a broken line (`OpenAI(base_url="…"` without `)`) still count.
 */
export function mergeBlanked(into: Extraction, from: Extraction, ranges: readonly Range[]): void {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const inside = (...rs: Range[]) => rs.every((r) => within(sorted, r));
  const settings = from.settings.filter((s) => inside(s.statementRange, s.keyRange, s.valueRange));
  into.settings.push(...settings);
  into.settings.sort((a, b) => a.statementRange.start - b.statementRange.start || a.keyRange.start - b.keyRange.start);
  into.requestSites.push(...from.requestSites.filter((s) => inside(s.range)));
  into.requestSites.sort((a, b) => a.range.start - b.range.start);
  into.consumerEvidence.push(...from.consumerEvidence.filter((e) => inside(e.range)));
  into.consumerEvidence.sort((a, b) => a.range.start - b.range.start);
  into.envReads.push(...from.envReads.filter((e) => inside(e.range)));
  into.envReads.sort((a, b) => a.range.start - b.range.start);
  into.comments.push(...from.comments.filter((c) => inside(c.range)));
  into.comments.sort((a, b) => a.range.start - b.range.start);
  for (const [name, setting] of Object.entries(from.bindings)) {
    if (settings.includes(setting) && !Object.prototype.hasOwnProperty.call(into.bindings, name)) {
      Object.defineProperty(into.bindings, name, { value: setting, enumerable: true, writable: true, configurable: true });
    }
  }
}
