import type { Comment, Finding } from './model/types';
import type { LintDocument } from './rules/rule';
import type { Locale } from './messages/locale';

/**
 * Applies `rollout-lint-disable-*` directives. Placeholder until the suppression issue lands: keeps
 * every finding.
 */
export function applySuppressions(findings: Finding[], _comments: Comment[], _document: LintDocument, _ruleIds: string[], _locale: Locale): Finding[] {
  return findings;
}
