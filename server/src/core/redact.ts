import { maskSecret, redactSecrets } from './model/secret';
import type { Extraction } from './model/types';
import { isPlaceholderKey } from './model/keys';

/**
 * One redaction for every channel (CLI formats, LSP diagnostics, hover, code actions, lenses,
 * request results, ping reports and errors, logs): applied where text leaves Rollout Lint.
 *
 * What it hides, whatever produced the text (a rule message, a parser's error quoting a token, a
 * server's error body, a URL):
 * - the secrets the caller knows (literal keys of the document, the key a probe sends): masked
 *   with `maskSecret`;
 * - tokens shaped like provider keys (`sk-…`, `sk-ant-…`, `sk-proj-…`, `gsk_…`, `hf_…`, `xai-…`,
 *   `tt-…`, `AIza…`, GitHub `ghp_…`) and the credential after `Bearer `: masked the same way;
 * - credentials inside URLs: the password of `user:pass@` and credential query values become `****`.
 * Masks are left alone (redaction is idempotent).
 */
export function redact(text: string, known: readonly string[] = []): string {
  let out = known.length ? redactSecrets(text, known) : text;
  for (const secret of known) out = maskFragments(out, secret.trim());
  out = out.replace(KEY_SHAPED, (token) => maskSecret(token));
  out = out.replace(BEARER, (_m, word: string, token: string) => `${word}${maskSecret(token)}`);
  return redactUrlCredentials(out);
}

/** Shortest piece of a known secret that is masked on its own (a message may show a cut value). */
const MIN_FRAGMENT = 12;

/** Replaces every run of `MIN_FRAGMENT` or more characters of `secret` found in `text` with `…`. */
function maskFragments(text: string, secret: string): string {
  if (secret.length < MIN_FRAGMENT + 4) return text;
  let out = text;
  for (let i = 0; i + MIN_FRAGMENT <= secret.length; i++) {
    let at = out.indexOf(secret.slice(i, i + MIN_FRAGMENT));
    while (at >= 0) {
      let start = at;
      let end = at + MIN_FRAGMENT;
      for (let k = i; k > 0 && start > 0 && out[start - 1] === secret[k - 1]; k--) start--;
      for (let k = i + MIN_FRAGMENT; k < secret.length && end < out.length && out[end] === secret[k]; k++) end++;
      out = `${out.slice(0, start)}…${out.slice(end)}`;
      at = out.indexOf(secret.slice(i, i + MIN_FRAGMENT), start + 1);
    }
  }
  return out;
}

/**
 * Tokens shaped like provider API keys (prefixes as documented by each provider), at least 16
 * characters after the prefix; also right after an escaped line break or tab (`\nsk-…`), as parsers
 * quote tokens in their messages.
 */
export const KEY_SHAPED = /(?:(?<![\w-])|(?<=\\[nrt]))(?:sk-(?:ant-(?:api\d\d-)?|or-(?:v\d-)?|proj-|svcacct-)?|gsk_|hf_|xai-|tt-|pk-|AIza|ghp_|github_pat_|glpat-)[A-Za-z0-9_-]{16,}/g;
const BEARER = /(\bBearer\s+)([A-Za-z0-9._~+/=-]{8,})/gi;
const SECRET_QUERY = /([?&](?:api[_-]?key|key|token|access[_-]?token|auth|secret|sig|signature|password|x-api-key)=)([^&#\s"'`<>]+)/gi;

/** Hides every `user:pass@` password and credential query value in `text` (any number of URLs). */
export function redactUrlCredentials(text: string): string {
  if (!text.includes('@') && !text.includes('=')) return text;
  return text.replace(/(\/\/[^/?#@\s:"'`<>]*):[^/?#@\s"'`<>]+@/g, '$1:****@').replace(SECRET_QUERY, (_m, name: string) => `${name}****`);
}

/**
 * The strings of a document that must never be shown: every literal value of a key or
 * `Authorization` header setting of 8 or more characters that is not a placeholder (`YOUR_API_KEY`
 * stays readable in the message that names it). For `redact(text, known)`.
 */
export function documentSecrets(extraction: Extraction): string[] {
  const out = new Set<string>();
  for (const s of extraction.settings) {
    if ((s.role === 'apiKey' || s.role === 'header') && s.value !== undefined && s.valueType !== 'dynamic') {
      const value = s.role === 'header' ? s.value.replace(/^\s*bearer\s+/i, '') : s.value;
      if (value.trim().length >= 8 && !isPlaceholderKey(value.trim())) out.add(value);
    }
  }
  return [...out];
}

/** `[start, end)` spans of `text` holding key-shaped tokens or URL credentials, for excerpts (see `maskSpans`). */
export function patternSecretSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  for (const m of text.matchAll(KEY_SHAPED)) spans.push({ start: m.index, end: m.index + m[0].length });
  for (const m of text.matchAll(BEARER)) spans.push({ start: m.index + m[1].length, end: m.index + m[0].length });
  for (const m of text.matchAll(/\/\/[^/?#@\s:"'`<>]*:([^/?#@\s"'`<>]+)@/g)) {
    const start = m.index + m[0].length - 1 - m[1].length;
    spans.push({ start, end: start + m[1].length });
  }
  for (const m of text.matchAll(SECRET_QUERY)) spans.push({ start: m.index + m[1].length, end: m.index + m[0].length });
  return spans;
}

/**
 * Redacts one line of an LSP message trace (`trace.server: verbose`): document texts in
 * `didOpen`/`didChange` params (`"text": "…"`) are replaced by their length, then `redact` runs, so
 * the Output channel never holds a file's secrets.
 */
export function redactTrace(text: string): string {
  return redact(text.replace(/("text"\s*:\s*)"((?:[^"\\]|\\.)*)"/g, (_m, head: string, body: string) => `${head}"<${body.length} characters of document text not logged>"`));
}
