import { LineIndex } from '../../core/positions';
import { maskSpans } from '../../core/model/secret';
import type { Formatter } from './types';
import { visibleFindings } from './visible';
import { displayWidth } from './width';

const COLORS = { error: '\x1b[31m', warning: '\x1b[33m', hint: '\x1b[36m', dim: '\x1b[2m', bold: '\x1b[1m', reset: '\x1b[0m' };

/**
 * actionlint-style text: `path:line:col: severity: message [rule-id]` (1-based line and column,
 * columns in UTF-16 code units as ESLint counts them), then the source line (control characters
 * shown as spaces) and a caret line under the range, aligned by terminal width (CJK characters take
 * two columns). A summary line ends the output when anything was found.
 */
export const formatText: Formatter = (input) => {
  const paint = (color: keyof typeof COLORS, s: string) => (input.color ? `${COLORS[color]}${s}${COLORS.reset}` : s);
  const lines: string[] = [];
  let errors = 0;
  let warnings = 0;
  let hints = 0;
  for (const result of input.results) {
    const findings = visibleFindings(result.findings, input);
    if (findings.length === 0) continue;
    const index = result.text !== undefined ? new LineIndex(result.text) : undefined;
    for (const f of findings) {
      if (f.severity === 'error') errors++;
      else if (f.severity === 'warning') warnings++;
      else hints++;
      const start = index?.positionAt(f.range.start) ?? { line: 0, character: 0 };
      const end = index?.positionAt(f.range.end) ?? start;
      lines.push(`${paint('bold', `${result.relPath}:${start.line + 1}:${start.character + 1}`)}: ${paint(f.severity, f.severity)}: ${f.message} ${paint('dim', `[${f.ruleId}]`)}`);
      if (index && result.text) {
        const lineStart = index.offsetAt({ line: start.line, character: 0 });
        const source = maskSpans(
          index.lineText(start.line),
          (result.secrets ?? []).map((r) => ({ start: r.start - lineStart, end: r.end - lineStart })),
        );
        if (source.length <= 300) {
          const endCharacter = end.line === start.line ? end.character : source.length;
          const width = Math.max(1, displayWidth(source.slice(start.character, endCharacter)));
          lines.push(`  ${source.replace(/[\x00-\x1f\x7f]/g, ' ')}`);
          lines.push(`  ${' '.repeat(displayWidth(source.slice(0, start.character)))}${paint(f.severity, '^'.repeat(width))}`);
        }
      }
    }
  }
  const total = errors + warnings + hints;
  if (total > 0) {
    const parts = [`${errors} error${errors === 1 ? '' : 's'}`, `${warnings} warning${warnings === 1 ? '' : 's'}`];
    if (hints > 0) parts.push(`${hints} hint${hints === 1 ? '' : 's'}`);
    lines.push('', paint('bold', `✖ ${total} problem${total === 1 ? '' : 's'} (${parts.join(', ')})`));
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
};
