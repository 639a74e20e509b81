import { createHash } from 'node:crypto';
import type { Severity } from '../../core/model/types';
import { LineIndex } from '../../core/positions';
import { rootRelativePath, type Formatter } from './types';
import { visibleFindings } from './visible';
import { messageWithRelated, relatedPlaces } from './related';

/** GitLab Code Quality severities by Rollout Lint severity (`info`, `minor`, `major`, `critical`, `blocker`). */
const SEVERITIES: Record<Severity, 'critical' | 'major' | 'info'> = { error: 'critical', warning: 'major', hint: 'info' };

/** One issue of a GitLab Code Quality report (a subset of the Code Climate issue format GitLab reads). */
export interface CodeQualityIssue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: 'critical' | 'major' | 'info';
  location: { path: string; lines: { begin: number; end: number } };
}

/**
 * GitLab Code Quality JSON (`artifacts: reports: codequality:`): an array of issues with
 * `description` (the message, then the rule id in brackets: GitLab's widget shows only the
 * description), `check_name` (the rule id), `severity`, `location.path` relative to the repository
 * root and 1-based `location.lines.begin`/`end`, per GitLab's "Code Quality report format" docs.
 * `fingerprint` (which GitLab uses to tell new issues from fixed ones) is a SHA-256 of the rule id,
 * the path, the (masked) message and the occurrence count of that triple, so it survives edits that
 * only move lines. Code Quality issues have one location, so related places (`Finding.related`) are
 * named in the description.
 */
export const formatGitlab: Formatter = (input) => {
  const issues: CodeQualityIssue[] = [];
  const seen = new Map<string, number>();
  for (const result of input.results) {
    if (result.notCandidate) continue;
    const index = result.text !== undefined ? new LineIndex(result.text) : undefined;
    const path = rootRelativePath(result, input.root);
    for (const f of visibleFindings(result.findings, input)) {
      const begin = (index?.positionAt(f.range.start).line ?? 0) + 1;
      const end = (index?.positionAt(f.range.end).line ?? begin - 1) + 1;
      const description = `${messageWithRelated(f.message, relatedPlaces(result, f, input.root))} [${f.ruleId}]`;
      const key = `${f.ruleId}\0${path}\0${description}`;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      issues.push({
        description,
        check_name: f.ruleId,
        fingerprint: createHash('sha256').update(`${key}\0${n}`).digest('hex'),
        severity: SEVERITIES[f.severity],
        location: { path, lines: { begin, end } },
      });
    }
  }
  return `${JSON.stringify(issues, null, 2)}\n`;
};
