import type { Extraction, Range } from './model/types';
import { urlSecretSpans } from './model/secret';
import { patternSecretSpans } from './redact';

/**
 * The spans of a document that hold secrets, for hosts that echo source text (the CLI's source line
 * under a finding): every literal key and `Authorization` value (not `os.environ["K"]` and other
 * expressions), credentials inside URL values, and anywhere in `text` (where a parse error may have
 * hidden the setting) every key-shaped token and URL credential (`patternSecretSpans`). Offsets
 * are UTF-16, into the linted text. Reads roles filled in by `resolve`.
 */
export function secretRanges(extraction: Extraction, text = ''): Range[] {
  const out: Range[] = patternSecretSpans(text);
  for (const s of extraction.settings) {
    const { start, end } = s.contentRange;
    if (end <= start) continue;
    if (s.role === 'apiKey' || s.role === 'header') {
      if (s.value !== undefined && s.valueType !== 'dynamic') out.push({ start, end });
    } else if (s.value?.includes('://')) {
      for (const span of urlSecretSpans(s.raw.slice(s.contentRange.start - s.valueRange.start))) {
        out.push({ start: start + span.start, end: Math.min(end, start + span.end) });
      }
    }
  }
  return out;
}
