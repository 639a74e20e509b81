import { STATUS_CODES } from 'node:http';
import type { ProbeReport, ProbeStep } from '../../../server/src/core/probe/index';
import type { ProbePlan } from './target';
import { probeLocale, say } from './texts';

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

/** The one-line notification: mark, provider, time, then the explanation's first sentence (names the URL). */
export function verdictLine(report: ProbeReport, plan: Pick<ProbePlan, 'providerName'>, language: string): string {
  const explanation = report.explanation[probeLocale(language)];
  return `${mark(report)} ${plan.providerName} · ${requestMs(report)} ms — ${firstSentence(explanation)}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** `YYYY-MM-DD HH:MM:SS` in local time. */
export function localTime(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

function stepLine(step: ProbeStep, widths: { name: number; method: number }): string {
  const status = step.status === undefined ? (step.detail ?? '') : `${step.status} ${STATUS_CODES[step.status] ?? ''}`.trim();
  const method = step.method ? `${step.method.padEnd(widths.method)}  ` : '';
  const parts = [`${step.verdict === 'ok' ? '✓' : '✗'} ${step.name.padEnd(widths.name)}`, `${method}${step.url ?? ''}`, status, `${Math.round(step.ms)} ms`];
  if (step.verdict !== 'ok') parts.push(`(${step.verdict})`);
  return parts.filter((p) => p !== '').join('   ');
}

/**
 * The full report as a `rollout-lint-report` document (syntaxes/rollout-lint-report.tmLanguage.json):
 * a heading, `Label: value` lines (verdict first), the steps, the explanation and the fix. `keyLine`
 * names the key as masked; the report itself holds no key.
 */
export function reportText(report: ProbeReport, plan: ProbePlan, keyLine: string, language: string, at: Date): string {
  const t = (id: Parameters<typeof say>[1], data?: Record<string, string | number>) => say(language, id, data);
  const locale = probeLocale(language);
  const also = report.secondary.length ? ` (${t('report.also')}: ${report.secondary.join(', ')})` : '';
  const lines = [`# ${t('title')}`, `${t('report.verdict')}: ${report.verdict}${also}`, `${t('report.provider')}: ${plan.providerName}`, `${t('report.baseUrl')}: ${report.baseUrl}`, `${t('report.consumer')}: ${report.consumer}`];
  if (plan.setting) lines.push(`${t('report.setting')}: ${t('report.settingAt', { key: plan.setting.key, path: plan.setting.file, line: plan.setting.line })}`);
  if (report.model) lines.push(`${t('report.model')}: ${report.model}`);
  lines.push(`${t('report.key')}: ${keyLine}`);
  if (report.logprobsShape) lines.push(`${t('report.logprobs')}: ${report.logprobsShape}`);
  lines.push(`${t('report.testedAt')}: ${localTime(at)}`, '', `## ${t('report.steps')}`);
  const widths = { name: Math.max(...report.steps.map((s) => s.name.length), 4), method: Math.max(0, ...report.steps.map((s) => (s.method ?? '').length)) };
  lines.push(...report.steps.map((s) => stepLine(s, widths)));
  lines.push('', `## ${t('report.explanation')}`, report.explanation[locale]);
  if (report.fix) {
    const consumer = report.fix.consumer ? `; ${t('report.useConsumer', { consumer: report.fix.consumer })}` : '';
    lines.push('', `## ${t('report.fix')}`, `${t('report.baseUrl')}: ${report.fix.baseUrl} (${t(report.fix.verified ? 'report.verified' : 'report.unverified')})${consumer}`, report.fix.reason[locale]);
  }
  return `${lines.join('\n')}\n`;
}
