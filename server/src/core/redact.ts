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
  out = maskSpans(out, evidenceSecretSpans(out));
  return redactUrlCredentials(out);
}

/**
 * Source text with every secret masked (`maskSecret`) and everything else byte-exact, for hosts that
 * print whole files or hunks (`--diff`): the spans `patternSecretSpans` finds plus each occurrence of
 * a `known` secret (8 or more characters, e.g. the values `secretRanges` covers). Line structure is kept.
 */
export function redactSource(text: string, known: readonly string[] = []): string {
  const spans = patternSecretSpans(text);
  for (const secret of new Set(known.map((k) => k.trim()).filter((k) => k.length >= 8))) {
    for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + secret.length)) spans.push({ start: at, end: at + secret.length });
  }
  return maskSpans(text, spans);
}

/** `text` with each span replaced by `maskSecret` of what it covers (spans may overlap; later ones inside earlier masks are skipped). */
function maskSpans(text: string, spans: readonly { start: number; end: number }[]): string {
  if (spans.length === 0) return text;
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (const span of sorted) {
    if (span.start < at) continue;
    const secret = text.slice(span.start, span.end);
    // A multi-line span (a header value across a continuation) keeps its line breaks.
    out += text.slice(at, span.start) + (secret.includes('\n') ? secret.replace(/[^\n]+/g, (part) => maskSecret(part)) : maskSecret(secret));
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * Setting names whose value is a secret whatever its shape (Azure's 32-hex keys, Mistral's and
 * Together's prefix-less keys): `*_API_KEY`, `apiKey`, `--api-key`, `*_AUTH_TOKEN`, `*_ACCESS_TOKEN`,
 * `*_SECRET_KEY`, `client_secret`, `password` (case-insensitive, `-`/`_` optional).
 */
const KEY_NAME = String.raw`(?:api[_-]?key|auth[_-]?token|access[_-]?token|secret[_-]?key|client[_-]?secret|password)`;
/** A literal secret value: 8–512 characters without spaces, quotes or expression syntax. */
const LITERAL = String.raw`([A-Za-z0-9_\-+/=.~:]{8,512})`;
/**
 * Secrets found by evidence on one line, without a parse (so also where a parse fails at that line):
 * 1. the literal value of a key-named setting (`AZURE_OPENAI_API_KEY=…`, `api_key: "…"`, `"apiKey": "…"`, `--api-key …`);
 * 2. a fallback literal after a key name (`process.env.OPENAI_API_KEY ?? "…"`, `|| "…"`, Python `or "…"`);
 * 3. the default of a key variable read (`os.getenv("X_API_KEY", "…")`, `os.environ.get(…)`);
 * 4. the literal joined after `"Bearer " +` (or `'Bearer ' + f"…"`).
 * Each group 1 is the secret. All quantifiers are bounded, so each line costs linear time.
 */
const EVIDENCE: RegExp[] = [
  new RegExp(String.raw`${KEY_NAME}["'\`]?\s{0,8}[:=]\s{0,8}["'\`]?${LITERAL}(?![A-Za-z0-9_\-+/=.~:(\[])`, 'gi'),
  // `--api-key VALUE`: that the name is part of a `--` flag is checked in code (`isFlag`).
  new RegExp(String.raw`${KEY_NAME}\s{1,8}["'\`]?${LITERAL}(?![A-Za-z0-9_\-+/=.~:(\[])`, 'gi'),
  new RegExp(String.raw`${KEY_NAME}[^\n]{0,200}?(?:\?\?|\|\||\bor\b)\s{0,8}f?["'\`]${LITERAL}["'\`]`, 'gi'),
  new RegExp(String.raw`(?:getenv|environ\.get|env\.get)\(\s{0,8}["'][^"'\n]{0,128}${KEY_NAME}[^"'\n]{0,64}["']\s{0,8},\s{0,8}f?["']${LITERAL}["']`, 'gi'),
  new RegExp(String.raw`\bBearer\s{0,8}["'\`]\s{0,8}\+\s{0,8}f?["'\`]${LITERAL}["'\`]`, 'gi'),
];

/** Whether the name matched at `at` is part of a `--flag` (at most 64 name characters back to `--`). */
function isFlag(text: string, at: number): boolean {
  let i = at;
  while (i > 0 && at - i < 64 && /[A-Za-z0-9_-]/.test(text[i - 1])) i--;
  return text.startsWith('--', i) || (i >= 2 && text.startsWith('--', i - 2));
}

/** Values that are never secrets even after a key name (absent, booleans, environment references). */
const NOT_SECRET = /^(?:none|null|nil|undefined|true|false|empty|required|optional|string|os\.|process\.|env\.|\$)/i;

/**
 * `[start, end)` spans of `text` holding a secret by evidence rather than by shape (see `EVIDENCE`):
 * the value of a key-named setting, a fallback literal next to a key name, the literal after
 * `"Bearer " +`. Placeholders (`YOUR_API_KEY`, `<key>`) are left readable. Linear in `text`.
 */
export function evidenceSecretSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  for (const re of EVIDENCE) {
    for (const m of text.matchAll(re)) {
      if (re === EVIDENCE[1] && !isFlag(text, m.index)) continue;
      const value = m[1];
      if (NOT_SECRET.test(value) || isPlaceholderKey(value) || value.startsWith('…') || /^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_]/.test(value) && !/[0-9]/.test(value)) continue;
      const start = m.index + m[0].lastIndexOf(value);
      spans.push({ start, end: start + value.length });
    }
  }
  return spans;
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

/** `[start, end)` spans of `text` holding key-shaped tokens, URL credentials or secrets by evidence (`evidenceSecretSpans`), for excerpts (see `maskSpans`). */
export function patternSecretSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  for (const m of text.matchAll(KEY_SHAPED)) spans.push({ start: m.index, end: m.index + m[0].length });
  for (const m of text.matchAll(BEARER)) spans.push({ start: m.index + m[1].length, end: m.index + m[0].length });
  for (const m of text.matchAll(/\/\/[^/?#@\s:"'`<>]*:([^/?#@\s"'`<>]+)@/g)) {
    const start = m.index + m[0].length - 1 - m[1].length;
    spans.push({ start, end: start + m[1].length });
  }
  for (const m of text.matchAll(SECRET_QUERY)) spans.push({ start: m.index + m[1].length, end: m.index + m[0].length });
  spans.push(...evidenceSecretSpans(text));
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
