import * as assert from 'node:assert/strict';
import type { Extraction, InsertionPoint, Range, Setting } from '../../../server/src/core/model/types';

/** The text a range covers. */
export function slice(text: string, range: Range): string {
  return text.slice(range.start, range.end);
}

/** 1-based line of a UTF-16 offset. */
export function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/** The one setting at `path` (of `kind` when given); fails when there are none or several. */
export function settingAt(extraction: Extraction, path: string, kind?: Setting['kind']): Setting {
  const found = extraction.settings.filter((s) => s.path === path && (kind === undefined || s.kind === kind));
  assert.equal(found.length, 1, `expected one setting at ${path}, found ${found.length}: ${extraction.settings.map((s) => s.path).join(', ')}`);
  return found[0];
}

/** `text` with `parameter` inserted at `insertion`. */
export function applyInsertion(text: string, insertion: InsertionPoint, parameter: string): string {
  return text.slice(0, insertion.offset) + insertion.prefix + parameter + insertion.suffix + text.slice(insertion.offset);
}

function inside(text: string, range: Range, what: string): void {
  assert.ok(Number.isInteger(range.start) && Number.isInteger(range.end), `${what}: integer offsets`);
  assert.ok(range.start >= 0 && range.start <= range.end && range.end <= text.length, `${what}: ${range.start}..${range.end} within 0..${text.length}`);
}

/** Invariants every extraction must keep, whatever the input. */
export function assertWellFormed(text: string, extraction: Extraction): void {
  for (const s of extraction.settings) {
    for (const [name, range] of Object.entries({ keyRange: s.keyRange, valueRange: s.valueRange, contentRange: s.contentRange, statementRange: s.statementRange })) inside(text, range, `${s.path} ${name}`);
    assert.equal(s.raw, slice(text, s.valueRange), `${s.path}: raw is the value's source`);
    assert.ok(s.contentRange.start >= s.valueRange.start && s.contentRange.end <= s.valueRange.end, `${s.path}: content inside value`);
    assert.ok(s.valueRange.start >= s.statementRange.start && s.valueRange.end <= s.statementRange.end, `${s.path}: value inside statement`);
  }
  for (const site of extraction.requestSites) {
    inside(text, site.range, 'site range');
    inside(text, site.anchorRange, 'site anchor');
    if (site.insertion) inside(text, { start: site.insertion.offset, end: site.insertion.offset }, 'insertion');
  }
  for (const c of extraction.comments) inside(text, c.range, 'comment');
  for (const p of extraction.parseProblems) inside(text, p.range, `problem ${p.message}`);
}
