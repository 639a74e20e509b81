/**
 * Masks an API key for display (DESIGN "Security model"): keys of 20 or more characters show their
 * prefix class and last 4 characters (`sk-…abcd (51 chars)`); shorter ones show only the prefix class
 * and length (`sk-… (12 chars)`), since 4 characters of a short key are too much of it.
 * The prefix class is the leading `sk-ant-`/`sk-or-`/`sk-proj-`/`sk-` style segment, if any.
 */
export function maskSecret(key: string): string {
  const trimmed = key.trim();
  const prefix = /^(sk-(?:ant-|or-|proj-)?|gsk_|hf_|xai-|pk-|tt-)/i.exec(trimmed)?.[1] ?? '';
  const length = `${key.length} chars`;
  if (key.length === 0) return '(empty)';
  if (trimmed.length >= 20) return `${prefix}…${trimmed.slice(-4)} (${length})`;
  return `${prefix}… (${length})`;
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
