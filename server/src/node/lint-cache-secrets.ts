import type { Range } from '../core/model/types';

/**
 * The secrets of one file, for `encodeWithoutSecrets`: `text` is the file's BOM-less text, `spans` the
 * ranges that hold keys or URL credentials (`secretRanges`), `values` keys as loaders decode them
 * (`documentSecrets`), which need not appear verbatim in `text`.
 */
export interface SecretSource {
  text: string;
  spans: readonly Range[];
  values: readonly string[];
}

/** Shorter secrets are not worth a reference (masking shows their length anyway). */
const MIN_SECRET = 6;
/** The key of an encoded string: `{"\u0000": [piece, …]}`, each piece a literal or a `[start, end]` range of the file's text. */
const MARK = '\u0000';

/** The secret strings of a file with where one copy of each lies in its text, longest first. */
function secretsOf(source: SecretSource): { value: string; start: number; end: number }[] {
  const out = new Map<string, { value: string; start: number; end: number }>();
  const add = (start: number, end: number) => {
    const text = source.text;
    while (start < end && /[\s"'`]/.test(text[start])) start++;
    while (end > start && /[\s"'`]/.test(text[end - 1])) end--;
    if (end - start >= MIN_SECRET && end <= text.length) {
      const value = text.slice(start, end);
      if (!out.has(value)) out.set(value, { value, start, end });
      const bearer = /^bearer\s+/i.exec(value);
      if (bearer) add(start + bearer[0].length, end);
    }
  };
  for (const s of source.spans) if (s.start >= 0 && s.end > s.start) add(s.start, s.end);
  return [...out.values()].sort((a, b) => b.value.length - a.value.length);
}

/**
 * `value` (JSON-shaped) with every occurrence of a secret of `source` inside its strings replaced by a
 * reference to where that secret lies in the file, so the cache holds no key the file does not
 * already hold in the same place. `undefined` when a key would still be stored as text (a decoded
 * value that is not a substring of the file): such an entry is not cached.
 */
export function encodeWithoutSecrets(value: unknown, source: SecretSource | undefined): { value: unknown; refs: boolean } | undefined {
  const secrets = source ? secretsOf(source) : [];
  const check = (source?.values ?? []).map((v) => v.replace(/^\s*bearer\s+/i, '').trim()).filter((v) => v.length >= 8);
  let leaked = false;
  let refs = false;
  const encodeString = (s: string): unknown => {
    if (secrets.length === 0 || !secrets.some((x) => s.includes(x.value))) {
      if (check.some((v) => s.includes(v))) leaked = true;
      return s;
    }
    const pieces: (string | [number, number])[] = [];
    let literal = '';
    let i = 0;
    outer: while (i < s.length) {
      for (const x of secrets) {
        if (s.startsWith(x.value, i)) {
          if (literal) pieces.push(literal);
          literal = '';
          pieces.push([x.start, x.end]);
          i += x.value.length;
          continue outer;
        }
      }
      literal += s[i++];
    }
    if (literal) pieces.push(literal);
    refs = true;
    for (const p of pieces) if (typeof p === 'string' && check.some((v) => p.includes(v))) leaked = true;
    return { [MARK]: pieces };
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return encodeString(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = walk(x);
      return out;
    }
    return v;
  };
  const out = walk(value);
  return leaked ? undefined : { value: out, refs };
}

/**
 * Undoes `encodeWithoutSecrets` (whose `value` is passed here; with `refs: false` it is the value itself
 * and need not be decoded) with the file's `text`; `undefined` when a reference does not fit `text` (a corrupt entry). */
export function decodeCached(value: unknown, text: string | undefined): { value: unknown } | undefined {
  let bad = false;
  const walk = (v: unknown): unknown => {
    if (bad) return undefined;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const keys = Object.keys(v);
      const pieces = (v as Record<string, unknown>)[MARK];
      if (keys.length === 1 && keys[0] === MARK && Array.isArray(pieces)) {
        let s = '';
        for (const p of pieces) {
          if (typeof p === 'string') s += p;
          else if (Array.isArray(p) && p.length === 2 && Number.isInteger(p[0]) && Number.isInteger(p[1]) && text !== undefined && 0 <= p[0] && p[0] < p[1] && p[1] <= text.length) s += text.slice(p[0], p[1]);
          else bad = true;
        }
        return s;
      }
      if (keys.includes(MARK)) bad = true;
      const out: Record<string, unknown> = {};
      for (const k of keys) out[k] = walk((v as Record<string, unknown>)[k]);
      return out;
    }
    return v;
  };
  const out = walk(value);
  return bad ? undefined : { value: out };
}
