import type { Finding, Fix, Range } from '../../core/model/types';
import { LineIndex } from '../../core/positions';
import type { Formatter } from './types';
import { visibleFindings } from './visible';
import { messageWithRelated, relatedPlaces, type RelatedPlace } from './related';

/**
 * ESLint `LintMessage`: 1-based line/column, `severity` 1 = warning, 2 = error. Hints
 * (`--include-hints`) keep ESLint's `severity: 1` so consumers of the shape accept them, carry
 * `hint: true`, and are counted in none of the result's counts.
 */
export interface EslintMessage {
  ruleId: string | null;
  severity: 1 | 2;
  /** Set on Rollout Lint hints: plausible, unproven; not a warning. */
  hint?: true;
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  fatal?: true;
  /** Rollout Lint's addition: why the finding is believed, in one line (DESIGN "Evidence"). */
  evidence?: string;
  /** ESLint's single-edit fix: `range` in offsets into the linted text (BOM excluded). */
  fix?: { range: [number, number]; text: string };
  suggestions?: { desc: string; fix: { range: [number, number]; text: string } }[];
  /**
   * Rollout Lint's addition: other places that explain the finding (`Finding.related`), paths relative
   * to the repository root. ESLint's `LintMessage` (`@eslint/core`) has no such field, so `message`
   * names them too.
   */
  related?: RelatedPlace[];
}

/** ESLint `LintResult`. */
export interface EslintResult {
  filePath: string;
  messages: EslintMessage[];
  errorCount: number;
  fatalErrorCount: number;
  warningCount: number;
  fixableErrorCount: number;
  fixableWarningCount: number;
  usedDeprecatedRules: [];
}

/**
 * Merges a multi-edit fix into ESLint's one `{range, text}` spanning all edits, or `undefined` when
 * the text kept between two edits holds a secret (the merged text would carry a copy of the key).
 */
export function toEslintFix(fix: Fix, text: string, secrets: readonly Range[] = []): { range: [number, number]; text: string } | undefined {
  const edits = [...fix.edits].sort((a, b) => a.range.start - b.range.start);
  const start = edits[0].range.start;
  const end = Math.max(...edits.map((e) => e.range.end));
  for (let i = 1; i < edits.length; i++) {
    const gap = { start: edits[i - 1].range.end, end: edits[i].range.start };
    if (secrets.some((r) => r.start < gap.end && gap.start < r.end)) return undefined;
  }
  let out = '';
  let at = start;
  for (const e of edits) {
    out += text.slice(at, e.range.start) + e.text;
    at = e.range.end;
  }
  return { range: [start, end], text: out + text.slice(at, end) };
}

function toMessage(f: Finding, index: LineIndex | undefined, text: string | undefined, secrets: readonly Range[], related: RelatedPlace[]): EslintMessage {
  const s = index?.positionAt(f.range.start) ?? { line: 0, character: 0 };
  const e = index?.positionAt(f.range.end) ?? s;
  const safe = f.fixes.find((x) => x.safety === 'safe');
  const message: EslintMessage = {
    ruleId: f.ruleId === 'parse-error' ? null : f.ruleId,
    severity: f.severity === 'error' ? 2 : 1,
    message: messageWithRelated(f.message, related),
    line: s.line + 1,
    column: s.character + 1,
    endLine: e.line + 1,
    endColumn: e.character + 1,
  };
  if (f.severity === 'hint') message.hint = true;
  if (f.ruleId === 'parse-error') message.fatal = true;
  if (f.evidence) message.evidence = f.evidence;
  if (related.length) message.related = related;
  const fix = safe && text !== undefined && safe.edits.length ? toEslintFix(safe, text, secrets) : undefined;
  if (fix) message.fix = fix;
  const others = f.fixes.filter((x) => x !== safe && x.edits.length);
  const suggestions = text === undefined ? [] : others.flatMap((x) => {
    const merged = toEslintFix(x, text, secrets);
    return merged ? [{ desc: x.title, fix: merged }] : [];
  });
  if (suggestions.length) message.suggestions = suggestions;
  return message;
}

/** ESLint's JSON formatter shape (`LintResult[]`), one entry per linted file; hints are marked and not counted. */
export const formatJson: Formatter = (input) => {
  const out: EslintResult[] = input.results
    .filter((r) => !r.notCandidate)
    .map((r) => {
      const findings = visibleFindings(r.findings, input);
      // Line numbers only for files with something to show (most files of a tree have nothing).
      const index = r.text !== undefined && findings.length > 0 ? new LineIndex(r.text) : undefined;
      const messages = findings.map((f) => toMessage(f, index, r.text, r.secrets ?? [], relatedPlaces(r, f, input.root)));
      const fixable = (sev: Finding['severity'][]) => findings.filter((f) => sev.includes(f.severity) && f.fixes.some((x) => x.safety === 'safe')).length;
      return {
        filePath: r.absPath,
        messages,
        errorCount: messages.filter((m) => m.severity === 2).length,
        fatalErrorCount: messages.filter((m) => m.fatal).length,
        warningCount: messages.filter((m) => m.severity === 1 && !m.hint).length,
        fixableErrorCount: fixable(['error']),
        fixableWarningCount: fixable(['warning']),
        usedDeprecatedRules: [],
      };
    });
  return `${JSON.stringify(out, null, 2)}\n`;
};
