import { escapeForLine } from '../sanitize';
import { LineIndex } from '../../core/positions';
import type { Severity } from '../../core/model/types';
import type { Locale } from '../../core/messages/locale';
import { maskSpans } from '../../core/model/secret';
import { overlapping } from '../../core/range-lookup';
import type { Formatter } from './types';
import { visibleFindings } from './visible';
import { relatedPlaces } from './related';
import { displayWidth } from './width';

/** Severity words in finding lines. */
const SEVERITY_WORDS: Record<Locale, Record<Severity, string>> = {
  en: { error: 'error', warning: 'warning', hint: 'hint' },
  'zh-CN': { error: '错误', warning: '警告', hint: '提示' },
};

/** The closing line: `✖ 10 problems (7 errors, 3 warnings)` / `✖ 共 10 个问题（7 个错误，3 个警告）`. */
function summary(locale: Locale, total: number, errors: number, warnings: number, hints: number): string {
  if (locale === 'zh-CN') {
    const parts = [`${errors} 个错误`, `${warnings} 个警告`, ...(hints > 0 ? [`${hints} 个提示`] : [])];
    return `✖ 共 ${total} 个问题（${parts.join('，')}）`;
  }
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts = [plural(errors, 'error'), plural(warnings, 'warning'), ...(hints > 0 ? [plural(hints, 'hint')] : [])];
  return `✖ ${plural(total, 'problem')} (${parts.join(', ')})`;
}

/** `[*] 3 fixable with --fix (1 more with --fix-unsafe)`: what `--fix` would do, ESLint's and ruff's closing hint. */
function fixableLine(locale: Locale, safe: number, unsafeOnly: number): string | undefined {
  if (safe === 0 && unsafeOnly === 0) return undefined;
  if (locale === 'zh-CN') {
    const more = unsafeOnly > 0 ? `${safe > 0 ? '；另有' : ''} ${unsafeOnly} 个可用 --fix-unsafe 修复（可能改变含义，请检查）` : '';
    return safe > 0 ? `[*] ${safe} 个可用 --fix 自动修复${more}` : `[*]${more}`;
  }
  const more = unsafeOnly > 0 ? `${safe > 0 ? ' (' : ' '}${unsafeOnly} ${safe > 0 ? 'more ' : ''}with --fix-unsafe, which may change meaning: review them${safe > 0 ? ')' : ''}` : '';
  return safe > 0 ? `[*] ${safe} fixable with --fix${more}` : `[*]${more}`;
}

/** `✔ 5 problems fixed in 2 files` after `--fix`. */
function fixedLine(locale: Locale, fixed: { count: number; files: number }): string {
  if (locale === 'zh-CN') return `✔ 已修复 ${fixed.count} 个问题（${fixed.files} 个文件）`;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `✔ ${plural(fixed.count, 'problem')} fixed in ${plural(fixed.files, 'file')}`;
}

/**
 * After a fix, what was left and why: `2 fixable not fixed: 1 in git-ignored files (name them to fix
 * them), 1 only with --fix-unsafe`. `undefined` when nothing was left.
 */
export function skippedNote(locale: Locale, skipped: { gitIgnored: number; unsafe: number } | undefined, withCheck = true): string | undefined {
  if (!skipped || skipped.gitIgnored + skipped.unsafe === 0) return undefined;
  const total = skipped.gitIgnored + skipped.unsafe;
  if (locale === 'zh-CN') {
    const why = [...(skipped.gitIgnored ? [`${skipped.gitIgnored} 个在 git 忽略的文件中（在命令行中指定该文件即可修复）`] : []), ...(skipped.unsafe ? [`${skipped.unsafe} 个只能用 --fix-unsafe 修复`] : [])];
    return `${withCheck ? '[*] ' : ''}${total} 个可修复的问题未修复：${why.join('；')}`;
  }
  const why = [...(skipped.gitIgnored ? [`${skipped.gitIgnored} in git-ignored files (name them to fix them)`] : []), ...(skipped.unsafe ? [`${skipped.unsafe} only with --fix-unsafe`] : [])];
  return `${withCheck ? '[*] ' : ''}${total} fixable not fixed: ${why.join(', ')}`;
}

const COLORS = { error: '\x1b[31m', warning: '\x1b[33m', hint: '\x1b[36m', dim: '\x1b[2m', bold: '\x1b[1m', reset: '\x1b[0m' };

/**
 * actionlint-style text: `path:line:col: severity: message [rule-id]` (1-based line and column,
 * columns in UTF-16 code units as ESLint counts them), then the source line (control characters
 * shown as spaces) and a caret line under the range, aligned by terminal width (CJK characters take
 * two columns), then one `  → path:line:col: message` line per related place (`Finding.related`, paths
 * relative to the repository root). `[*]` ends the line of a finding that `--fix` fixes. A summary line ends the output
 * when anything was found, then what `--fix`/`--fix-unsafe` would fix, or after a fix how many were fixed.
 */
export const formatText: Formatter = (input) => {
  const paint = (color: keyof typeof COLORS, s: string) => (input.color ? `${COLORS[color]}${s}${COLORS.reset}` : s);
  const lines: string[] = [];
  let errors = 0;
  let warnings = 0;
  let hints = 0;
  let safeFixable = 0;
  let unsafeFixable = 0;
  for (const result of input.results) {
    const findings = visibleFindings(result.findings, input);
    if (findings.length === 0) continue;
    const index = result.text !== undefined ? new LineIndex(result.text) : undefined;
    const secretsAt = overlapping(result.secrets ?? [], (r) => r);
    for (const f of findings) {
      if (f.severity === 'error') errors++;
      else if (f.severity === 'warning') warnings++;
      else hints++;
      const start = index?.positionAt(f.range.start) ?? { line: 0, character: 0 };
      const end = index?.positionAt(f.range.end) ?? start;
      const safe = f.fixes.some((x) => x.safety === 'safe' && x.edits.length > 0);
      if (safe) safeFixable++;
      else if (f.fixes.some((x) => x.edits.length > 0)) unsafeFixable++;
      const marker = safe ? ` ${paint('bold', '[*]')}` : '';
      lines.push(`${paint('bold', `${escapeForLine(result.relPath)}:${start.line + 1}:${start.character + 1}`)}: ${paint(f.severity, SEVERITY_WORDS[input.locale ?? 'en'][f.severity])}: ${escapeForLine(f.message.replace(/\n/g, ' '))} ${paint('dim', `[${f.ruleId}]`)}${marker}`);
      if (index && result.text) {
        const lineStart = index.offsetAt({ line: start.line, character: 0 });
        const source = maskSpans(
          index.lineText(start.line),
          secretsAt({ start: lineStart, end: lineStart + index.lineText(start.line).length }).map((r) => ({ start: r.start - lineStart, end: r.end - lineStart })),
        );
        if (source.length <= 300) {
          const endCharacter = end.line === start.line ? end.character : source.length;
          const width = Math.max(1, displayWidth(source.slice(start.character, endCharacter)));
          lines.push(`  ${source.replace(/[\x00-\x1f\x7f-\x9f]/g, ' ')}`);
          lines.push(`  ${' '.repeat(displayWidth(source.slice(0, start.character)))}${paint(f.severity, '^'.repeat(width))}`);
        }
      }
      for (const p of relatedPlaces(result, f, input.root)) lines.push(`  ${paint('dim', '→')} ${escapeForLine(`${p.path}:${p.line}:${p.column}`)}: ${escapeForLine(p.message.replace(/\n/g, ' '))}`);
    }
  }
  const total = errors + warnings + hints;
  const locale = input.locale ?? 'en';
  if (total > 0) {
    lines.push('', paint('bold', summary(locale, total, errors, warnings, hints)));
    const fixable = fixableLine(locale, safeFixable, unsafeFixable);
    if (fixable && !input.fixed) lines.push(fixable);
  }
  if (input.fixed && input.fixed.count > 0) lines.push(paint('bold', fixedLine(locale, input.fixed)));
  const left = input.fixed ? skippedNote(locale, input.skipped) : undefined;
  if (left) lines.push(left);
  return lines.length ? `${lines.join('\n')}\n` : '';
};
