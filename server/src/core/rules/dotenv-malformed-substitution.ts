import { defineRule } from './rule';
import { isExampleFile, shorten, subjectOf } from './util';

/** `${NAME…` with no closing brace anywhere after it in the value. */
const UNCLOSED = /\$\{([A-Za-z_][A-Za-z0-9_]*)([^}]*)$/g;
/** What follows `${NAME` in a default/alternative form (`${NAME:-d`): there the closing brace belongs at an unknown place. */
const OPERATOR = /^:?[-=?+]/;
/** `$NAME}`: a closing brace with no opening one. */
const STRAY_CLOSE = /(^|[^\\{])\$([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * A malformed variable substitution in a dotenv value, which the loaders keep literally:
 * - `${VAR` (no closing brace): python-dotenv 1.2 keeps `${VAR` as the value (its interpolation only
 *   matches `${NAME}` / `${NAME:-default}`, python-dotenv `variables.py` `_posix_variable`), and so do
 *   npm dotenv + dotenv-expand 12 (its pattern needs the closing brace);
 * - `$VAR}`: python-dotenv keeps `$VAR}` (it never expands bare `$NAME`), dotenv-expand expands
 *   `$VAR` and keeps the `}` (`1}`).
 * Both checked by running the loaders (python-dotenv 1.2.2 from the pip mirror; dotenv 18.0.10 +
 * dotenv-expand 12.0.3 from npm). Single-quoted values are literal by design and skipped, as are
 * template files (`.env.example`).
 */
export default defineRule({
  meta: {
    id: 'dotenv-malformed-substitution',
    title: 'Malformed ${VAR substitution in a dotenv value, kept literally by the loaders',
    defaultSeverity: 'error',
    formats: ['dotenv'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      unclosed: '{key} has "${{name}" with no closing brace: python-dotenv and dotenv-expand keep the text "{text}" literally instead of the value of {name}',
      strayClose: '{key} has "${name}}", a closing brace with no opening one: python-dotenv keeps "${name}}" literally and dotenv-expand leaves a stray "}" after the value of {name}',
      'fix.close': 'Write ${{name}}',
    },
    'zh-CN': {
      unclosed: '{key} 中的 "${{name}" 缺少右花括号：python-dotenv 和 dotenv-expand 会原样保留文本 "{text}"，而不是 {name} 的值',
      strayClose: '{key} 中的 "${name}}" 有右花括号却没有左花括号：python-dotenv 会原样保留 "${name}}"，dotenv-expand 会在 {name} 的值后多出一个 "}"',
      'fix.close': '改为 ${{name}}',
    },
  },
  check({ document, extraction, report }) {
    if (isExampleFile(document.path)) return;
    for (const setting of extraction.settings) {
      if (setting.format !== 'dotenv' || setting.kind !== 'env' || setting.quote === "'" || !setting.raw.includes('$')) continue;
      const offset = setting.contentRange.start;
      const content = document.text.slice(setting.contentRange.start, setting.contentRange.end);
      for (const m of content.matchAll(UNCLOSED)) {
        const name = m[1];
        const range = { start: offset + m.index, end: offset + m.index + 2 + name.length };
        report({
          messageId: 'unclosed',
          data: { key: setting.key, name, text: shorten(m[0], 40) },
          range,
          subject: `${subjectOf(setting)}@${m.index}`,
          fixes: OPERATOR.test(m[2]) ? [] : [{ titleId: 'fix.close', data: { name }, safety: 'unsafe', edits: [{ range: { start: range.end, end: range.end }, text: '}' }] }],
        });
      }
      for (const m of content.matchAll(STRAY_CLOSE)) {
        const name = m[2];
        const start = offset + m.index + m[1].length;
        const range = { start, end: start + name.length + 2 };
        report({
          messageId: 'strayClose',
          data: { key: setting.key, name },
          range,
          subject: `${subjectOf(setting)}@${m.index}`,
          fixes: [{ titleId: 'fix.close', data: { name }, safety: 'unsafe', edits: [{ range, text: `\${${name}}` }] }],
        });
      }
    }
  },
});
