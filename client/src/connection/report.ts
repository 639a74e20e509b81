import { STATUS_CODES } from 'node:http';
import type { ProbeReport, ProbeStep } from '../../../server/src/core/probe/index';
import type { ProbePlan } from './target';
import { probeLocale, say } from './texts';
import { consumerWord, stepWord, verdictWord } from './words';

/** Steps that send the consumer's own request (the one whose time the status item shows). */
const MAIN_STEPS: ReadonlySet<ProbeStep['name']> = new Set(['chat', 'responses', 'messages', 'completions', 'generate', 'request', 'retry']);

/** Shapes in which log probs came back. */
const WITH_LOGPROBS = new Set(['chat', 'legacy', 'sglang', 'responses']);

/** ✓ for ok, ✗ for any other verdict. */
export function mark(report: Pick<ProbeReport, 'verdict'>): string {
  return report.verdict === 'ok' ? '✓' : '✗';
}

/** Milliseconds of the consumer's own request, else of all steps together (rounded). */
export function requestMs(report: Pick<ProbeReport, 'steps'>): number {
  const main = [...report.steps].reverse().find((s) => MAIN_STEPS.has(s.name));
  return Math.round(main ? main.ms : report.steps.reduce((sum, s) => sum + s.ms, 0));
}

/** `✓`/`✗` for whether log probs came back; `undefined` when they were not asked for or not reached. */
function logprobsMark(report: Pick<ProbeReport, 'logprobsShape'>): string | undefined {
  if (report.logprobsShape && WITH_LOGPROBS.has(report.logprobsShape)) return '✓';
  return report.logprobsShape === 'none' ? '✗' : undefined;
}

/** The language status text, e.g. `local vLLM ✓ 212 ms · logprobs ✓` or `TaoToken ✗ not-found`. */
export function statusText(report: Pick<ProbeReport, 'verdict' | 'steps' | 'logprobsShape'>, providerName: string): string {
  if (report.verdict !== 'ok' && report.verdict !== 'no-logprobs') return `${providerName} ✗ ${report.verdict}`;
  const logprobs = logprobsMark(report);
  return `${providerName} ${mark(report)} ${requestMs(report)} ms${logprobs ? ` · logprobs ${logprobs}` : ''}`;
}

/**
 * The language status detail: when the test ran (`tested at 14:05`). The item's text already carries
 * provider, mark, time and verdict, and the notification and report the explanation: the popup shows
 * one row per item, and a longer detail pushes the "Test again" action out of its width.
 */
export function statusDetail(at: Date, language: string): string {
  return say(language, 'status.testedAt', { time: `${pad(at.getHours())}:${pad(at.getMinutes())}` });
}

/** The first sentence of an explanation: up to the first `. ` or `。` outside “quotes”. */
export function firstSentence(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '“') depth++;
    else if (ch === '”') depth = Math.max(0, depth - 1);
    else if (depth === 0 && ((ch === '.' && text[i + 1] === ' ') || ch === '。')) return text.slice(0, i + 1);
  }
  return text;
}

/**
 * The one-line notification: mark, provider, time, the explanation's first sentence (it names the URL
 * or host), and the suggested base URL when there is one.
 */
export function verdictLine(report: ProbeReport, plan: Pick<ProbePlan, 'providerName'>, language: string): string {
  const explanation = report.explanation[probeLocale(language)];
  const space = probeLocale(language) === 'zh-CN' ? '' : ' ';
  const fix = report.fix ? `${space}${say(language, 'report.fix')}${colon(language)}${report.fix.baseUrl} (${say(language, report.fix.verified ? 'report.verified' : 'report.unverified')})` : '';
  return `${mark(report)} ${plan.providerName} · ${requestMs(report)} ms — ${firstSentence(explanation)}${fix}`;
}

/** `: ` in English, `：` in Chinese. */
function colon(language: string): string {
  return probeLocale(language) === 'zh-CN' ? '：' : ': ';
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** `YYYY-MM-DD HH:MM:SS` in local time. */
export function localTime(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The step table's cells: mark and step, method and URL, status (or error code), time, verdict when failed. */
function stepCells(step: ProbeStep, language: string): string[] {
  const status = step.status === undefined ? (step.detail ?? '-') : `${step.status} ${STATUS_CODES[step.status] ?? ''}`.trim();
  const where = step.method ? `${step.method.padEnd(4)} ${step.url ?? ''}` : (step.url ?? '');
  return [`${step.verdict === 'ok' ? '✓' : '✗'} ${stepWord(language, step.name)}`, where, status, `${Math.round(step.ms)} ms`, step.verdict === 'ok' ? '' : `(${verdictWord(language, step.verdict)})`];
}

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => r[i].length))) ?? [];
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd());
}

/**
 * The full report as a `rollout-lint-report` document (syntaxes/rollout-lint-report.tmLanguage.json):
 * a heading, `Label: value` lines (verdict first), the steps, the explanation and the fix. `keyLine`
 * names the key as masked; the report itself holds no key.
 */
export function reportText(report: ProbeReport, plan: ProbePlan, keyLine: string, language: string, at: Date): string {
  const t = (id: Parameters<typeof say>[1], data?: Record<string, string | number>) => say(language, id, data);
  const label = (id: Parameters<typeof say>[1], value: string) => `${t(id)}${colon(language)}${value}`;
  const locale = probeLocale(language);
  const also = report.secondary.length ? ` (${t('report.also')}${colon(language)}${report.secondary.map((v) => verdictWord(language, v)).join(locale === 'zh-CN' ? '、' : ', ')})` : '';
  const lines = [`# ${t('title')}`, label('report.verdict', `${verdictWord(language, report.verdict)}${also}`), label('report.provider', plan.providerName), label('report.baseUrl', report.baseUrl), label('report.consumer', consumerWord(language, report.consumer))];
  if (plan.setting) lines.push(label('report.setting', t('report.settingAt', { key: plan.setting.key, path: plan.setting.file, line: plan.setting.line })));
  if (report.model) lines.push(label('report.model', report.model));
  lines.push(label('report.key', keyLine));
  if (report.logprobsShape) lines.push(label('report.logprobs', report.logprobsShape));
  lines.push(label('report.testedAt', localTime(at)), '', `## ${t('report.steps')}`, ...table(report.steps.map((s) => stepCells(s, language))));
  lines.push('', `## ${t('report.explanation')}`, report.explanation[locale]);
  if (report.fix) {
    const consumer = report.fix.consumer ? `; ${t('report.useConsumer', { consumer: consumerWord(language, report.fix.consumer) })}` : '';
    lines.push('', `## ${t('report.fix')}`, label('report.baseUrl', `${report.fix.baseUrl} (${t(report.fix.verified ? 'report.verified' : 'report.unverified')})${consumer}`), report.fix.reason[locale]);
  }
  return `${lines.join('\n')}\n`;
}
