import { RULES } from '../core/rules/index';
import { docsUrl } from '../core/docs';
import { FORMATS } from '../core/model/types';
import type { CliIo } from './io';

/** One row of `rollout-lint rules --json`. */
export interface RuleRow {
  id: string;
  summary: string;
  defaultSeverity: string;
  fixable: string | false;
  formats: readonly string[];
  docsUrl: string;
}

/** The registry as rows (the README table and `rules --json` come from this). */
export function ruleRows(): RuleRow[] {
  return RULES.map((r) => ({ id: r.meta.id, summary: r.meta.title, defaultSeverity: r.meta.defaultSeverity, fixable: r.meta.fixable, formats: r.meta.formats, docsUrl: docsUrl(r.meta.id) }));
}

/** `rollout-lint rules [--json]`: lists every registered rule. Exit 0. */
export function runRules(options: { json?: boolean }, io: CliIo): number {
  const rows = ruleRows();
  if (options.json) {
    io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...rows.map((r) => r.id.length));
  // Notebooks are linted as Python, so a rule covering every other format covers them too.
  const formats = (r: RuleRow) => (FORMATS.every((f) => f === 'notebook' || r.formats.includes(f)) ? 'all' : r.formats.join(','));
  const formatWidth = Math.max(...rows.map((r) => formats(r).length));
  for (const r of rows) io.stdout(`${r.id.padEnd(width)}  ${r.defaultSeverity.padEnd(7)}  ${(r.fixable || '-').padEnd(6)}  ${formats(r).padEnd(formatWidth)}  ${r.summary}\n`);
  io.stdout(`\nDocs: ${docsUrl('<rule-id>')}\n`);
  return 0;
}
