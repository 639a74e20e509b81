/** Supported UI languages. Every message id exists in both (a meta-test checks). */
export type Locale = 'en' | 'zh-CN';

export const LOCALES: readonly Locale[] = ['en', 'zh-CN'];

/**
 * Maps a BCP 47 tag or POSIX locale (`zh_CN.UTF-8`, `zh-cn`, `zh-Hans`, `en_US`) to a supported
 * locale; anything Chinese becomes `zh-CN`, everything else `en`.
 */
export function normalizeLocale(tag: string | undefined): Locale {
  if (!tag) return 'en';
  return /^zh\b|^zh[-_]/i.test(tag) ? 'zh-CN' : 'en';
}

/**
 * Fills `{name}` placeholders from `data`. Unknown placeholders are left as written so a missing
 * datum is visible in tests rather than silently empty. With `locale` `zh-CN`, key masks inside the
 * data (`sk-…abcd, 51 chars`, made by `maskSecret` before the locale was known) are rendered in
 * Chinese (`sk-…abcd，51 个字符`; see `localizeMask`).
 */
export function formatMessage(template: string, data: Record<string, string | number> = {}, locale: Locale = 'en'): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(data, name) ? (locale === 'en' ? String(data[name]) : localizeMask(String(data[name]), locale)) : whole,
  );
}

/** The list separator of `locale`: `, ` in English, the enumeration comma `、` in Chinese. */
export function joinList(items: readonly string[], locale: Locale): string {
  return items.join(locale === 'zh-CN' ? '、' : ', ');
}

/** The English mask forms `maskSecret` writes: `<shown>, <n> chars` and `(empty)`. */
const MASK_EN = /((?:[A-Za-z][\w-]*)?…[\w-]{0,4}), (\d+) chars\b/g;

/**
 * Renders the key masks in `text` (`sk-…abcd, 51 chars`, `…, 12 chars`, `(empty key)`) in `locale`:
 * `sk-…abcd，51 个字符`, `（空密钥）` in zh-CN. Other text is unchanged.
 */
export function localizeMask(text: string, locale: Locale): string {
  if (locale === 'en' || !text.includes('…') && !text.includes('(empty key)')) return text;
  return text.replace(MASK_EN, '$1，$2 个字符').replace(/\(empty key\)/g, '（空密钥）');
}
