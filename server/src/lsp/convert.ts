import type { Diagnostic, Position, Range as LspRange, TextEdit as LspTextEdit } from 'vscode-languageserver';
import { DiagnosticSeverity } from 'vscode-languageserver';
import { diffChars } from 'diff';
import type { Finding, FixSafety, Range, Severity, TextEdit } from '../core/model/types';
import { LineIndex } from '../core/positions';
import { join } from 'node:path';
import { docsUrl } from '../core/docs';
import { pathToUri } from './workspace';

/** `Diagnostic.source` of every diagnostic the server reports. */
export const DIAGNOSTIC_SOURCE = 'rollout-lint';

/**
 * A document's text as the client holds it, with the mapping between core offsets (BOM removed)
 * and LSP positions/offsets (into the client's text, which may still start with a BOM).
 */
export class DocText {
  /** 1 when the client's text starts with U+FEFF, else 0. */
  readonly bomShift: 0 | 1;
  private readonly index: LineIndex;

  constructor(readonly text: string) {
    this.bomShift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    this.index = new LineIndex(text);
  }

  /** The text core sees (BOM removed). */
  get coreText(): string {
    return this.bomShift ? this.text.slice(1) : this.text;
  }

  position(coreOffset: number): Position {
    return this.index.positionAt(coreOffset + this.bomShift);
  }

  range(range: Range): LspRange {
    return { start: this.position(range.start), end: this.position(range.end) };
  }

  /** Core offset of an LSP position (clamped to the text). */
  coreOffset(position: Position): number {
    return Math.max(0, this.index.offsetAt(position) - this.bomShift);
  }

  /** LSP-text offset (what `TextDocument.offsetAt` gives) of a core offset. */
  clientOffset(coreOffset: number): number {
    return coreOffset + this.bomShift;
  }

  lineText(line: number): string {
    return this.index.lineText(line);
  }

  get lineCount(): number {
    return this.index.lineCount;
  }

  edit(edit: TextEdit): LspTextEdit {
    return { range: this.range(edit.range), newText: edit.text };
  }
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  hint: DiagnosticSeverity.Hint,
};

/** A fix as carried in `Diagnostic.data`, already in LSP positions of the linted version. */
export interface DiagnosticFix {
  title: string;
  safety: FixSafety;
  edits: LspTextEdit[];
}

/**
 * `Diagnostic.data`: the document version the positions belong to (absent for files linted from
 * disk) and the fixes, so `codeAction` needs no second lint.
 */
export interface DiagnosticData {
  version?: number;
  fixes: DiagnosticFix[];
  /** The finding has fixes still to be proven (`hasUnprovenFixes`): `fixes` is not all of them; code actions prove and look again. */
  unproven?: true;
}

/**
 * Converts a finding; `code` is the rule id, `codeDescription.href` its docs page. With `root` (the
 * workspace folder the finding's paths are relative to), `Finding.related` becomes `relatedInformation`.
 */
export function toDiagnostic(finding: Finding, doc: DocText, version: number | undefined, withFixes: boolean, root?: string, unproven = false): Diagnostic {
  const data: DiagnosticData = {
    version,
    fixes: withFixes ? finding.fixes.map((f) => ({ title: f.title, safety: f.safety, edits: f.edits.map((e) => doc.edit(e)) })) : [],
    ...(withFixes && unproven ? { unproven: true as const } : {}),
  };
  return {
    range: doc.range(finding.range),
    severity: SEVERITY[finding.severity],
    code: finding.ruleId,
    codeDescription: { href: docsUrl(finding.ruleId) },
    source: DIAGNOSTIC_SOURCE,
    message: finding.message,
    data,
    ...(finding.related?.length && root !== undefined
      ? { relatedInformation: finding.related.map((r) => ({ location: { uri: pathToUri(join(root, r.location.path)), range: { start: r.location.start, end: r.location.end } }, message: r.message })) }
      : {}),
  };
}

/** Reads `Diagnostic.data` defensively (clients echo it back verbatim, or not at all). */
export function diagnosticData(diagnostic: Diagnostic): DiagnosticData | undefined {
  const data = diagnostic.data as Partial<DiagnosticData> | undefined;
  if (!data || !Array.isArray(data.fixes)) return undefined;
  return { version: typeof data.version === 'number' ? data.version : undefined, fixes: data.fixes, ...(data.unproven === true ? { unproven: true as const } : {}) };
}

/**
 * One edit that turns `before` into `after`: the changed middle, with the common prefix and suffix
 * left alone so cursors and markers outside it stay put. Offsets are into `before`.
 */
export function minimalEdit(before: string, after: string): TextEdit | undefined {
  if (before === after) return undefined;
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  const splits = (text: string, at: number) => at > 0 && at < text.length && (isHighSurrogate(text.charCodeAt(at - 1)) || (text[at - 1] === '\r' && text[at] === '\n'));
  while (splits(before, start) || splits(after, start)) start--;
  while (end > 0 && (splits(before, before.length - end) || splits(after, after.length - end))) end--;
  return { range: { start, end: before.length - end }, text: after.slice(start, after.length - end) };
}

/** Most characters one changed line may differ by before `lineEdits` gives up on a character diff. */
const MAX_LINE_EDIT = 256;

/**
 * The edits turning line `a` into line `b`: one per changed run of characters (jsdiff `diffChars`,
 * Myers' O(N·D) diff bounded by `MAX_LINE_EDIT`), so unchanged text between two changes on one line
 * (an API key between a fixed base URL and its own trimmed whitespace, JSON5 `{ baseUrl: …, apiKey: … }`)
 * is never part of an edit; `minimalEdit` when the line changed more than that. Offsets into `a`.
 */
function lineEdits(a: string, b: string): TextEdit[] {
  const whole = minimalEdit(a, b);
  if (!whole) return [];
  const parts = diffChars(a, b, { maxEditLength: MAX_LINE_EDIT });
  if (!parts) return [whole];
  const out: TextEdit[] = [];
  let at = 0;
  let pending: TextEdit | undefined;
  for (const part of parts) {
    if (!part.added && !part.removed) {
      if (pending) out.push(pending);
      pending = undefined;
      at += part.value.length;
      continue;
    }
    pending ??= { range: { start: at, end: at }, text: '' };
    if (part.removed) {
      at += part.value.length;
      pending.range.end = at;
    } else pending.text += part.value;
  }
  if (pending) out.push(pending);
  // A split surrogate pair or CRLF would make an edit the editor cannot apply as is.
  const splits = (text: string, i: number) => i > 0 && i < text.length && (isHighSurrogate(text.charCodeAt(i - 1)) || (text[i - 1] === '\r' && text[i] === '\n'));
  if (out.some((e) => splits(a, e.range.start) || splits(a, e.range.end))) return [whole];
  return out;
}

/**
 * Like `minimalEdit`, but as one edit per changed run of characters when `before` and `after` have
 * the same line count (see `lineEdits`), so text between two changes (an untouched API key between
 * two fixed spots, on the same line or not) is never part of an edit; one edit otherwise. Offsets
 * into `before`; empty when nothing changes.
 */
export function minimalEdits(before: string, after: string): TextEdit[] {
  const whole = minimalEdit(before, after);
  if (!whole) return [];
  const lines = (text: string) => text.split(/(?<=\n)/);
  const a = lines(before);
  const b = lines(after);
  if (a.length !== b.length) return [whole];
  const out: TextEdit[] = [];
  let offset = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) for (const e of lineEdits(a[i], b[i])) out.push({ range: { start: offset + e.range.start, end: offset + e.range.end }, text: e.text });
    offset += a[i].length;
  }
  return out;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
