import type { Severity } from '../../core/model/types';
import type { FormatInput } from './types';
import { visibleFindings } from './visible';

/** One row of `--statistics`. */
export interface StatisticsRow {
  ruleId: string;
  count: number;
  /** How many of them `--fix` would fix (a safe fix exists). */
  fixable: number;
  severity: Severity;
}

/** Counts visible findings per rule, most frequent first (ties by rule id). */
export function statisticsRows(input: Pick<FormatInput, 'results' | 'includeHints' | 'quiet'>): StatisticsRow[] {
  const rows = new Map<string, StatisticsRow>();
  for (const r of input.results) {
    for (const f of visibleFindings(r.findings, input)) {
      const row = rows.get(f.ruleId) ?? { ruleId: f.ruleId, count: 0, fixable: 0, severity: f.severity };
      row.count++;
      if (f.fixes.some((x) => x.safety === 'safe')) row.fixable++;
      if (f.severity === 'error') row.severity = 'error';
      else if (f.severity === 'warning' && row.severity === 'hint') row.severity = 'warning';
      rows.set(f.ruleId, row);
    }
  }
  return [...rows.values()].sort((a, b) => b.count - a.count || a.ruleId.localeCompare(b.ruleId));
}

/**
 * `--statistics` (ruff's): one line per rule, `count  rule-id  [*]` (`[*]` when `--fix` fixes all of
 * them, `[-]` when it fixes some), or the rows as a JSON array.
 */
export function formatStatistics(input: FormatInput, json: boolean): string {
  const rows = statisticsRows(input);
  if (json) return `${JSON.stringify(rows, null, 2)}\n`;
  if (rows.length === 0) return '';
  const countWidth = Math.max(...rows.map((r) => String(r.count).length));
  const idWidth = Math.max(...rows.map((r) => r.ruleId.length));
  const mark = (r: StatisticsRow) => (r.fixable === r.count ? '[*]' : r.fixable > 0 ? '[-]' : '   ');
  return rows.map((r) => `${String(r.count).padStart(countWidth)}  ${r.ruleId.padEnd(idWidth)}  ${mark(r)}  ${r.severity}`.trimEnd()).join('\n') + '\n';
}
