import type { Finding } from '../../core/model/types';
import type { FormatInput } from './types';

/** The findings a formatter prints for a file, after `--include-hints` and `--quiet`. */
export function visibleFindings(findings: readonly Finding[], input: Pick<FormatInput, 'includeHints' | 'quiet'>): Finding[] {
  return findings.filter((f) => (input.quiet ? f.severity === 'error' : f.severity !== 'hint' || input.includeHints));
}
