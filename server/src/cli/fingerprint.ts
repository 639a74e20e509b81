import { createHash } from 'node:crypto';
import type { Finding } from '../core/model/types';
import { LineIndex } from '../core/positions';

/** The `partialFingerprints` key SARIF logs carry the fingerprint under (versioned: a new scheme gets a new key). */
export const FINGERPRINT_KEY = 'rolloutLintFingerprint/v1';

/**
 * Content fingerprints of a file's findings, one per finding in the same order: 32 hex digits of
 * SHA-256 over the rule id, the text of the finding's first line with whitespace runs collapsed
 * and trimmed, and how many earlier findings of the file had the same rule and line text (0-based).
 * Neither the line number nor the message (whose related places name line numbers) goes in, so a
 * finding keeps its fingerprint when lines above it are added or removed; editing its own line
 * changes it. The path is not hashed: a baseline entry and a SARIF result carry it beside the
 * fingerprint. `text` is the text the findings' ranges index (UTF-16 offsets); without it (a
 * skipped file) the line text is empty.
 */
export function fingerprintsOf(findings: readonly Finding[], text: string | undefined): string[] {
  // A finding fingerprinted before (the baseline saw the file's full list, before baselined findings were
  // dropped) keeps that fingerprint, so SARIF and the baseline agree on occurrence numbers.
  if (findings.length > 0 && findings.every((f) => memo.has(f))) return findings.map((f) => memo.get(f)!);
  const index = text !== undefined ? new LineIndex(text) : undefined;
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const line = index ? index.lineText(index.positionAt(f.range.start).line).replace(/\s+/g, ' ').trim() : '';
    const key = `${f.ruleId}\0${line}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    const print = createHash('sha256').update(`${key}\0${n}`).digest('hex').slice(0, 32);
    memo.set(f, print);
    return print;
  });
}

const memo = new WeakMap<Finding, string>();
