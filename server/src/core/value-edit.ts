import type { Setting, TextEdit } from './model/types';

/**
 * Source text for `value` inside the quotes a setting is written with, or `undefined` when this
 * quoting cannot hold it without a change of meaning (a line break in a plain or single-quoted
 * value, a quote character in a shell or dotenv value). Escapes per format:
 * - JSON and YAML double-quoted: JSON string escapes (YAML 1.2 double-quoted scalars accept them)
 * - YAML single-quoted: `'` doubled
 * - Python: backslash escapes (`\\`, the quote, control characters)
 */
export function encodeValue(setting: Setting, value: string): string | undefined {
  const { format, quote } = setting;
  const controls = /[\u0000-\u001f\u007f]/;
  if ((format === 'json' || format === 'yaml') && quote === '"') return JSON.stringify(value).slice(1, -1);
  if (format === 'yaml' && quote === "'") return controls.test(value) ? undefined : value.replace(/'/g, "''");
  if (format === 'python' && (quote === '"' || quote === "'")) {
    return JSON.stringify(value)
      .slice(1, -1)
      .replace(/\\"/g, quote === '"' ? '\\"' : '"')
      .replace(/'/g, quote === "'" ? "\\'" : "'");
  }
  if (controls.test(value)) return undefined;
  if (quote === '') return /^\s|\s$|\s#|^#|["'`\\$]/.test(value) || (format === 'yaml' && /^[-?:,[\]{}&*!|>%@]|: |\s#/.test(value)) ? undefined : value;
  return value.includes(quote) || value.includes('\\') || (quote === '"' && /[$`]/.test(value)) ? undefined : value;
}

/**
 * An edit that makes the setting's decoded value `value`, touching only the characters of the
 * value: whitespace and comments around an unquoted value stay (`K=v  # c`), escapes in the part
 * of the value that does not change stay as written. `undefined` when the new value cannot be
 * written in the setting's quoting (see `encodeValue`); then no fix should be offered.
 * Fix safety is proven again after the edit (`verifyFix` in `lint.ts`).
 */
export function valueEdit(setting: Setting, value: string): TextEdit | undefined {
  const { contentRange, valueRange, raw } = setting;
  const source = raw.slice(contentRange.start - valueRange.start, contentRange.end - valueRange.start);
  const old = setting.value;
  if (old !== undefined && old !== '') {
    let prefix = 0;
    const max = Math.min(old.length, value.length);
    while (prefix < max && old[prefix] === value[prefix]) prefix++;
    let suffix = 0;
    while (suffix < max - prefix && old[old.length - 1 - suffix] === value[value.length - 1 - suffix]) suffix++;
    const at = source.indexOf(old);
    if (at >= 0 && source.indexOf(old, at + 1) < 0 && !/\S/.test(source.slice(0, at) + source.slice(at + old.length))) {
      const inserted = encodeValue(setting, value.slice(prefix, value.length - suffix));
      if (inserted !== undefined && encodeValue(setting, value) !== undefined) {
        return { range: { start: contentRange.start + at + prefix, end: contentRange.start + at + old.length - suffix }, text: inserted, intendedValue: value };
      }
      return undefined;
    }
  }
  const encoded = encodeValue(setting, value);
  return encoded === undefined || /^\s|\s$/.test(source) && setting.quote === '' ? undefined : { range: { ...contentRange }, text: encoded, intendedValue: value };
}
