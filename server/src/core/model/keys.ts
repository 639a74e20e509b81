/**
 * Facts about API key values shared by the key rules.
 */

/** Placeholder shapes seen in READMEs and templates: `YOUR_API_KEY`, `<key>`, `sk-xxxx`, `${KEY}` left literal. */
const PLACEHOLDER_PATTERNS: readonly RegExp[] = [
  /^<[^<>]*>$/,
  /^\[[^[\]]*\]$/,
  /^\{\{.*\}\}$/,
  /\$\{[^}]*\}/,
  /^\$[A-Za-z_][A-Za-z0-9_]*$/,
  /your[_\-\s]?(own[_\-\s]?)?([a-z0-9]+[_\-\s])?(api[_\-\s]?|secret[_\-\s]?|access[_\-\s]?)*(key|token)/i,
  /(替换|填写|填入|输入|粘贴|你的|您的|在此|这里).*(密钥|秘钥|令牌|key|token)/i,
  /^(add|insert|put|enter|paste|replace|set)[_\-\s]?(your|the|a|api|key)/i,
  /[_\-\s]here$/i,
  /^(changeme|change[_-]me|replace[_-]?me|todo|tbd|fixme|placeholder|dummy|none|null|undefined|secret|password|api[_-]?key|key|token)$/i,
  /^(sk-?)?(x{3,}|\*{3,}|\.{3,}|…|0{3,}x*)$/i,
  /^sk-\.\.\./i,
  /x{6,}/i,
];

/**
 * The name of a key's variable written as its value (`api_key="OPENAI_API_KEY"`, `TAOTOKEN_API_KEY`):
 * all capitals or all lower case, ending in `API_KEY`, `_KEY`, `_TOKEN` or `_SECRET`.
 */
const KEY_VARIABLE_NAME = /^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:API_?KEY|KEY|TOKEN|SECRET)|[a-z][a-z0-9]*(?:_[a-z0-9]+)*_(?:api_?key|token|secret))$/;

/** True when a key value is the name of a variable (see `KEY_VARIABLE_NAME`), not a key. */
export function isKeyVariableName(value: string): boolean {
  const v = value.trim();
  return KEY_VARIABLE_NAME.test(v) && !/^(your|my|enter|insert|put|add|paste|replace)_/i.test(v);
}

/**
 * True when a key value is a placeholder rather than a key. `EMPTY` (the vLLM/SGLang convention for
 * servers started without `--api-key`) is a real value and not a placeholder.
 */
export function isPlaceholderKey(value: string): boolean {
  const v = value.trim();
  if (v === '' || v === 'EMPTY') return false;
  return isKeyVariableName(v) || PLACEHOLDER_PATTERNS.some((re) => re.test(v));
}

/** Shannon entropy in bits per character. */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** Key prefixes of the providers in the profiles and common gateways. */
const KEY_PREFIX = /^(sk-ant-(?:api\d+-)?|sk-or-v\d+-|sk-or-|sk-proj-|sk-|gsk_|hf_|xai-|pk-|tt-)/;

/**
 * DESIGN's "real-looking" key: a provider prefix or ≥ 20 characters, Shannon entropy ≥ 3.0 bits/char
 * after the prefix, not a run of one character, not a placeholder, no whitespace inside.
 */
export function isRealLookingKey(value: string): boolean {
  const v = value.trim();
  if (v.length < 8 || /\s/.test(v) || isPlaceholderKey(v)) return false;
  const prefix = KEY_PREFIX.exec(v)?.[1] ?? '';
  if (!prefix && v.length < 20) return false;
  const body = v.slice(prefix.length);
  if (/^(.)\1*$/.test(body)) return false;
  return shannonEntropy(body) >= 3.0;
}
