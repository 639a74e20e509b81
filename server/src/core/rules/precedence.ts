import type { Finding } from '../model/types';

/**
 * One finding per root cause (DESIGN "Precedence"): when a winner reports about a subject, the
 * losers' findings about the same subject are dropped, except those `kept` names (another root
 * cause on the same value that has a safe fix of its own).
 */
export const PRECEDENCE: readonly { winner: string; losers: readonly string[]; kept?: (f: { ruleId: string; messageId?: string }) => boolean }[] = [
  { winner: 'top-logprobs-without-logprobs', losers: ['logprobs-missing'] },
  {
    winner: 'base-url-provider-website',
    losers: ['base-url-query-string', 'base-url-missing-v1', 'base-url-trailing-slash', 'base-url-endpoint-path', 'base-url-native-path', 'base-url-duplicate-v1'],
    // Tracking parameters are a cause of their own, with a safe fix (strip them) that Fix All applies;
    // the website finding's fix (the API base) is unsafe. A link such as https://taotoken.net/?utm_source=…
    // gets both; once stripped, what is left of the value is judged again.
    kept: (f) => f.ruleId === 'base-url-query-string' && (f.messageId === 'tracking' || f.messageId === 'trackingNoise'),
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
export function applyPrecedence<T extends Pick<Finding, 'ruleId' | 'subject' | 'range'> & { messageId?: string }>(findings: T[]): T[] {
  const present = new Set(findings.map((f) => `${f.ruleId}|${subjectKey(f)}`));
  return findings.filter((f) => {
    const key = subjectKey(f);
    return !PRECEDENCE.some((p) => p.losers.includes(f.ruleId) && present.has(`${p.winner}|${key}`) && !p.kept?.(f));
  });
}
