import type { Finding } from '../model/types';

/**
 * One finding per root cause (DESIGN "Precedence"): when a winner reports about a subject, the
 * losers' findings about the same subject are dropped.
 */
export const PRECEDENCE: readonly { winner: string; losers: readonly string[] }[] = [
  { winner: 'top-logprobs-without-logprobs', losers: ['logprobs-missing'] },
  {
    winner: 'base-url-provider-website',
    losers: ['base-url-query-string', 'base-url-missing-v1', 'base-url-trailing-slash', 'base-url-endpoint-path', 'base-url-native-path', 'base-url-duplicate-v1'],
  },
  { winner: 'base-url-native-path', losers: ['base-url-missing-v1'] },
  { winner: 'logprobs-provider-unsupported', losers: ['logprobs-missing'] },
  { winner: 'base-url-endpoint-path', losers: ['base-url-missing-v1', 'base-url-trailing-slash'] },
  { winner: 'base-url-placeholder', losers: ['base-url-missing-scheme', 'base-url-malformed', 'base-url-missing-v1'] },
  { winner: 'base-url-malformed', losers: ['base-url-missing-v1'] },
  { winner: 'dotenv-comment-as-value', losers: ['api-key-empty', 'api-key-whitespace', 'api-key-placeholder'] },
  { winner: 'api-key-whitespace', losers: ['api-key-quoted'] },
  { winner: 'proxy-no-proxy-cidr', losers: ['proxy-no-proxy-missing'] },
  { winner: 'azure-api-version', losers: ['base-url-query-string'] },
  { winner: 'config-string-boolean', losers: ['logprobs-wrong-type'] },
];

/** The subject key of a finding: its explicit subject or its range. */
export function subjectKey(f: Pick<Finding, 'subject' | 'range'>): string {
  return f.subject ?? `${f.range.start}:${f.range.end}`;
}

/** Drops findings that lose to another finding about the same subject. Order is preserved. */
export function applyPrecedence<T extends Pick<Finding, 'ruleId' | 'subject' | 'range'>>(findings: T[]): T[] {
  const present = new Set(findings.map((f) => `${f.ruleId}|${subjectKey(f)}`));
  return findings.filter((f) => {
    const key = subjectKey(f);
    return !PRECEDENCE.some((p) => p.losers.includes(f.ruleId) && present.has(`${p.winner}|${key}`));
  });
}
