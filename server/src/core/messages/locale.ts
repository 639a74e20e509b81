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
 * datum is visible in tests rather than silently empty.
 */
export function formatMessage(template: string, data: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(data, name) ? String(data[name]) : whole,
  );
}
