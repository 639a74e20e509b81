import type { Severity } from '../../core/model/types';
import { LineIndex } from '../../core/positions';
import { rootRelativePath, type Formatter } from './types';
import { visibleFindings } from './visible';
import { messageWithRelated, relatedPlaces } from './related';

const COMMANDS: Record<Severity, string> = { error: 'error', warning: 'warning', hint: 'notice' };

/** Workflow-command data escaping (`@actions/core` `escapeData`): `%`, `\r`, `\n`. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Workflow-command property escaping (`@actions/core` `escapeProperty`): data escaping plus `:` and `,`. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * GitHub Actions annotations, one workflow command a line:
 * `::error file=<path>,line=<l>,col=<c>,endLine=<l>,endColumn=<c>,title=<rule-id>::<message>`
 * (hints as `::notice`). Lines and columns are 1-based, columns in UTF-16 code units, `endColumn`
 * just past the range; `col`/`endColumn` are left out when the range spans lines, as the
 * `@actions/core` annotation properties require. An annotation has one location, so related places
 * (`Finding.related`) are named in the message. Paths are relative to the repository root (`input.root`), as GitHub resolves `file=`.
 */
export const formatGithub: Formatter = (input) => {
  const lines: string[] = [];
  for (const result of input.results) {
    const index = result.text !== undefined ? new LineIndex(result.text) : undefined;
    for (const f of visibleFindings(result.findings, input)) {
      const props: [string, string | number][] = [['file', rootRelativePath(result, input.root)]];
      if (index) {
        const s = index.positionAt(f.range.start);
        const e = index.positionAt(f.range.end);
        props.push(['line', s.line + 1]);
        if (s.line === e.line) props.push(['col', s.character + 1]);
        props.push(['endLine', e.line + 1]);
        if (s.line === e.line) props.push(['endColumn', e.character + 1]);
      }
      props.push(['title', f.ruleId]);
      const properties = props.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',');
      lines.push(`::${COMMANDS[f.severity]} ${properties}::${escapeData(messageWithRelated(f.message, relatedPlaces(result, f, input.root)))}`);
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
};
