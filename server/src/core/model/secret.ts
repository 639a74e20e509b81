import { localizeMask, type Locale } from '../messages/locale';

/**
 * What a mask shows of an API key (DESIGN "Security model"): keys of 20 or more characters show their
 * prefix class and last 4 characters (`sk-…abcd`); shorter ones only the prefix class (`sk-…`, or `…`),
 * since 4 characters of a short key are too much of it. The prefix class is the leading
 * `sk-ant-`/`sk-or-`/`sk-proj-`/`sk-` style segment, if any. `length` counts UTF-16 code units of the
 * key as given (whitespace included).
 */
export function maskParts(key: string): { shown: string; length: number } {
  const trimmed = key.trim();
  const prefix = /^(sk-(?:ant-|or-|proj-)?|gsk_|hf_|xai-|pk-|tt-)/i.exec(trimmed)?.[1] ?? '';
  return { shown: trimmed.length >= 20 ? `${prefix}…${trimmed.slice(-4)}` : `${prefix}…`, length: key.length };
}

/**
 * Masks an API key for display, one form for short and long keys: `sk-…abcd, 51 chars` (long),
 * `sk-…, 12 chars` / `…, 12 chars` (short), `(empty key)`; in zh-CN `sk-…abcd，51 个字符` and `（空密钥）`.
 * The form has no parentheses of its own (except the empty one), so `KEY ({masked})` reads cleanly.
 * Messages formatted with a locale render English masks in that locale (`formatMessage`).
 */
export function maskSecret(key: string, locale: Locale = 'en'): string {
  if (key.length === 0) return localizeMask('(empty key)', locale);
  const { shown, length } = maskParts(key);
  return localizeMask(`${shown}, ${length} chars`, locale);
}

/**
 * Replaces every occurrence of each secret in `text` with its mask; used on anything that may echo a
 * key back (server error bodies, logs). Secrets shorter than 4 characters are left alone.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    for (const variant of new Set([secret, secret.trim()])) {
      if (variant.length >= 4) out = out.split(variant).join(maskSecret(secret));
    }
  }
  return out;
}

/** Query parameters that carry credentials (`?key=` for Gemini-style APIs, `api_key`, `token`, signatures). */
const SECRET_QUERY = /([?&](?:api[_-]?key|key|token|access[_-]?token|auth|secret|sig|signature|password|x-api-key)=)([^&#\s]*)/gi;

/**
 * Hides credentials inside a URL for display: the password of `user:pass@` and the values of
 * credential query parameters become `****`. Other text is returned unchanged.
 */
export function redactUrlSecrets(value: string): string {
  if (!value.includes('://') && !value.includes('?')) return value;
  return value.replace(/(\/\/[^/?#@\s:]*):[^/?#@\s]*@/, '$1:****@').replace(SECRET_QUERY, (_m, name: string, v: string) => (v ? `${name}****` : name));
}

/**
 * The spans of `text` that hold credentials inside URLs (passwords in `user:pass@`, credential query
 * values), as `[start, end)` offsets relative to `text`.
 */
export function urlSecretSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  for (const m of text.matchAll(/\/\/[^/?#@\s:]*:([^/?#@\s]+)@/g)) {
    const start = m.index + m[0].length - 1 - m[1].length;
    spans.push({ start, end: start + m[1].length });
  }
  for (const m of text.matchAll(SECRET_QUERY)) if (m[2]) spans.push({ start: m.index + m[1].length, end: m.index + m[0].length });
  return spans;
}

/**
 * Masks the characters of `line` inside `spans` (offsets into `line`) without changing its length, so
 * carets under the line stay aligned: a long secret keeps its first 3 and last 4 characters.
 */
export function maskSpans(line: string, spans: readonly { start: number; end: number }[]): string {
  let out = line;
  for (const { start, end } of spans) {
    const s = Math.max(0, start);
    const e = Math.min(line.length, end);
    if (e <= s) continue;
    const keepHead = e - s >= 16 ? 3 : 0;
    const keepTail = e - s >= 16 ? 4 : 0;
    out = out.slice(0, s + keepHead) + '*'.repeat(e - s - keepHead - keepTail) + out.slice(e - keepTail);
  }
  return out;
}
