import type { Severity } from '../model/types';
import type { Locale } from '../messages/locale';
import { formatMessage } from '../messages/locale';
import { EVIDENCE_MESSAGES, type EvidenceId } from './messages';

/**
 * How sure Rollout Lint is of the facts a finding rests on (DESIGN "Evidence"):
 * - `proven`: the files say it (a provider's key name, a key in the same block as its base URL, a
 *   value passed to a known client, a parser's own error);
 * - `known`: a known provider or client makes it so, but the link is one step removed;
 * - `plausible`: the name or place suggests it, nothing confirms it.
 */
export type Strength = 'proven' | 'known' | 'plausible';

/** Why a finding is believed, as a message id of `EVIDENCE_MESSAGES` with its data, and how sure. */
export interface Evidence {
  strength: Strength;
  id: EvidenceId;
  data?: Record<string, string | number>;
}

const RANK: Record<Severity, number> = { hint: 0, warning: 1, error: 2 };

/** The highest severity a strength allows: error = proven, warning = known, hint = plausible. */
export function severityCap(strength: Strength): Severity {
  return strength === 'proven' ? 'error' : strength === 'known' ? 'warning' : 'hint';
}

/** The lower of two severities. */
export function lowerSeverity(a: Severity, b: Severity): Severity {
  return RANK[a] <= RANK[b] ? a : b;
}

/** The weaker of two strengths. */
export function weaker(a: Strength, b: Strength): Strength {
  const order: Strength[] = ['plausible', 'known', 'proven'];
  return order[Math.min(order.indexOf(a), order.indexOf(b))];
}

/** One line of evidence in `locale` (English when a template is missing). */
export function renderEvidence(evidence: Evidence, locale: Locale): string {
  const template = EVIDENCE_MESSAGES[locale][evidence.id] ?? EVIDENCE_MESSAGES.en[evidence.id];
  return formatMessage(template, evidence.data);
}
