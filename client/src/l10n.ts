import * as l10n from '@vscode/l10n';
import { localizeMask, normalizeLocale } from '../../server/src/core/messages/locale';
import ZH_CN from '../../l10n/bundle.l10n.zh-cn.json';

/**
 * The client's l10n bundles in VS Code's format (`l10n/bundle.l10n.<language>.json`, key = the
 * English message), by supported locale. The English bundle is the identity, so it needs no lookup.
 * They are bundled into the extension so a message follows `vscode.env.language` exactly as the
 * server's messages do (both are chosen by the same `normalizeLocale`).
 */
const BUNDLES = { en: {}, 'zh-CN': ZH_CN as Record<string, string> };

/**
 * Renders `message` (English, `{name}` placeholders) in the UI `language` with `@vscode/l10n`.
 * Key masks in `args` (`sk-…abcd, 51 chars`) are rendered in the same language.
 */
export function localize(language: string, message: string, args: Record<string, string | number> = {}): string {
  const locale = normalizeLocale(language);
  l10n.config({ contents: BUNDLES[locale] });
  const localized = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? localizeMask(v, locale) : v]));
  return l10n.t(message, localized);
}
