import { RULES } from '../core/rules/index';
import { docsUrl } from '../core/docs';
import { FORMATS } from '../core/model/types';
import { ruleDoc } from '../node/rule-docs';
import type { Locale } from '../core/messages/locale';
import { cliLocale, type CliIo } from './io';

/** The rule descriptions of the VS Code settings in Chinese (`config.rules.<id>.description`: summary, default, docs link). */
const NLS_ZH: Record<string, string> = require('../../../package.nls.zh-cn.json');

/** A rule's one-line summary in `locale`: the Chinese settings description up to its "（默认：" tail, else the English title. */
export function ruleSummary(id: string, title: string, locale: Locale): string {
  if (locale !== 'zh-CN') return title;
  const zh = NLS_ZH[`config.rules.${id}.description`];
  return zh ? zh.replace(/（默认：[\s\S]*$/, '') : title;
}

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

/** `rollout-lint rules [--json]`: lists every registered rule, summaries in the `--lang` locale (JSON too). Exit 0. */
export function runRules(options: { json?: boolean; lang?: string }, io: CliIo): number {
  const locale = cliLocale(options.lang, io.env);
  const rows = ruleRows().map((r) => ({ ...r, summary: ruleSummary(r.id, r.summary, locale) }));
  if (options.json) {
    io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...rows.map((r) => r.id.length));
  // Notebooks are linted as Python, so a rule covering every other format covers them too; no rule lists JavaScript (read only for env reads).
  const formats = (r: RuleRow) => (FORMATS.every((f) => f === 'notebook' || f === 'javascript' || r.formats.includes(f)) ? 'all' : r.formats.join(','));
  const formatWidth = Math.max(...rows.map((r) => formats(r).length));
  for (const r of rows) io.stdout(`${r.id.padEnd(width)}  ${r.defaultSeverity.padEnd(7)}  ${(r.fixable || '-').padEnd(6)}  ${formats(r).padEnd(formatWidth)}  ${r.summary}\n`);
  io.stdout(`\n${locale === 'zh-CN' ? '文档' : 'Docs'}: ${docsUrl('<rule-id>')}\n`);
  return 0;
}

/** Levenshtein distance, for "did you mean" on a mistyped rule id. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j];
      row[j] = next;
    }
  }
  return row[b.length];
}

/**
 * `rollout-lint explain <rule-id>` (ruff's `rule`): prints the rule's documentation page, then its
 * URL. Exit 0; 2 for an unknown id (with the nearest ids) or a missing page. The pages are written in
 * English only: under `--lang zh-CN` the Chinese summary of the rule and a note saying so come first.
 */
export function runExplain(ruleId: string, io: CliIo, lang?: string): number {
  const locale = cliLocale(lang, io.env);
  const zh = locale === 'zh-CN';
  const rule = RULES.find((r) => r.meta.id === ruleId);
  if (!rule) {
    const near = RULES.map((r) => r.meta.id)
      .filter((id) => id.includes(ruleId) || distance(id, ruleId) <= 3)
      .slice(0, 5);
    io.stderr(
      zh
        ? `rollout-lint explain: 未知的规则 id "${ruleId}"${near.length ? `；是否想找 ${near.join(', ')}？` : ''}（见 "rollout-lint rules"）\n`
        : `rollout-lint explain: unknown rule id "${ruleId}"${near.length ? `; did you mean ${near.join(', ')}?` : ''} (see "rollout-lint rules")\n`,
    );
    return 2;
  }
  const doc = ruleDoc(ruleId);
  if (!doc) {
    io.stderr(zh ? `rollout-lint explain: 未安装 ${ruleId} 的文档；请在 ${docsUrl(ruleId)} 阅读\n` : `rollout-lint explain: the documentation of ${ruleId} is not installed; read it at ${docsUrl(ruleId)}\n`);
    return 2;
  }
  const preface = zh ? `${ruleId}：${ruleSummary(ruleId, rule.meta.title, locale)}\n（规则文档目前只有英文版，以下为英文原文。）\n\n` : '';
  io.stdout(`${preface}${doc.markdown.trimEnd()}\n\n${docsUrl(ruleId)}\n`);
  return 0;
}
