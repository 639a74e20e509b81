import { defineRule } from './rule';
import { isExampleFile, replaceSource, subjectOf } from './util';
import { LOADERS, type Loader, type Setting } from '../model/types';
import { maskSecret } from '../model/secret';
import { joinList, type Locale } from '../messages/locale';

/** Display names of dotenv loaders for messages, per locale (the glossary's "loader" names). */
export const LOADER_NAMES: Record<Locale, Record<Loader, string>> = {
  en: {
    nodeDotenv: 'Node dotenv',
    pythonDotenv: 'python-dotenv',
    posixShell: 'a POSIX shell (source .env)',
    compose: 'Docker Compose',
    dockerEnvFile: 'docker --env-file',
  },
  'zh-CN': {
    nodeDotenv: 'Node dotenv',
    pythonDotenv: 'python-dotenv',
    posixShell: 'POSIX shell（source .env）',
    compose: 'Docker Compose',
    dockerEnvFile: 'docker --env-file',
  },
};

/** `loaders` as a list in `locale` (`Node dotenv, python-dotenv`; `Node dotenv、python-dotenv`). */
export function loaderNames(loaders: readonly Loader[], locale: Locale): string {
  return joinList(loaders.map((l) => LOADER_NAMES[locale][l]), locale);
}

/** Whitespace and the invisible zero-width characters (U+200B–U+200D, U+2060) pasted keys pick up. */
const EDGE_WHITESPACE = /^[\s\u200b-\u200d\u2060]|[\s\u200b-\u200d\u2060]$/;

/**
 * Whitespace at either end of a value's source text, written plainly or as an escape that decodes
 * to whitespace (`\n`, `\t`, `\r`, `\u0020` in JSON, Python and YAML double-quoted strings).
 */
const SOURCE_EDGE_WHITESPACE = /^(?:[\s\u200b-\u200d\u2060]|\\[nrt]|\\u00(?:20|09|0[aAdD])|\\u200[bcd])+|(?:[\s\u200b-\u200d\u2060]|\\[nrt]|\\u00(?:20|09|0[aAdD])|\\u200[bcd])+$/g;

/** The loaders that keep leading/trailing whitespace in a dotenv value; every reader for other formats. */
function keepers(setting: Setting): Loader[] | 'all' | [] {
  if (setting.loaded) return LOADERS.filter((l) => typeof setting.loaded?.[l] === 'string' && EDGE_WHITESPACE.test(setting.loaded[l]!));
  return setting.value !== undefined && EDGE_WHITESPACE.test(setting.value) ? 'all' : [];
}

/**
 * A key value with leading/trailing whitespace (a space, a tab, `\r` from a CRLF file) that at least one
 * loader keeps: the `Authorization` header then carries it and the server answers 401.
 */
export default defineRule({
  meta: {
    id: 'api-key-whitespace',
    title: 'API key has leading or trailing whitespace that a loader keeps',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell'],
    fixable: 'safe',
  },
  messages: {
    en: {
      loaders: '{key} ({masked}) has {where} whitespace, which these loaders keep: {loaders}; the server will answer 401',
      all: '{key} ({masked}) has {where} whitespace inside the quotes; every client sends it and the server will answer 401',
      crlf: '{key} ({masked}): this file has CRLF line endings, and these loaders keep the "\\r" at the end of the key: {loaders}; the server will answer 401. Save the file with LF line endings',
      'fix.trim': 'Trim the whitespace from the key',
      leading: 'leading',
      trailing: 'trailing',
    },
    'zh-CN': {
      loaders: '{key}（{masked}）含有{where}空白，{loaders} 会保留它；服务器会返回 401',
      all: '{key}（{masked}）在引号内含有{where}空白；所有客户端都会原样发送，服务器会返回 401',
      crlf: '{key}（{masked}）：此文件使用 CRLF 换行，{loaders} 会保留密钥末尾的 "\\r"；服务器会返回 401。请以 LF 换行保存文件',
      'fix.trim': '删除密钥两端的空白',
      leading: '开头',
      trailing: '末尾',
    },
  },
  check({ document, resolution, report, t, locale }) {
    if (isExampleFile(document.path)) return;
    for (const setting of resolution.byRole('apiKey')) {
      if (setting.kind === 'envDefault') continue;
      const kept = keepers(setting);
      if (kept.length === 0) continue;
      const source = document.text.slice(setting.contentRange.start, setting.contentRange.end);
      const trimmed = source.replace(SOURCE_EDGE_WHITESPACE, '');
      if (trimmed === '' || trimmed.startsWith('#')) continue;
      const onlyLineBreak = trimmed === source;
      const where = /^(?:\s|\\[nrt]|\\u00)/.test(source) ? 'leading' : 'trailing';
      report({
        messageId: onlyLineBreak ? 'crlf' : kept === 'all' ? 'all' : 'loaders',
        data: {
          key: setting.key,
          masked: maskSecret(trimmed),
          where: t(where),
          loaders: kept === 'all' ? '' : loaderNames(kept, locale),
        },
        range: setting.contentRange,
        subject: subjectOf(setting),
        fixes: onlyLineBreak ? [] : [{ titleId: 'fix.trim', safety: 'safe', edits: [replaceSource(setting, document.text, trimmed, setting.value?.replace(/^[\s\u200b-\u200d\u2060]+|[\s\u200b-\u200d\u2060]+$/g, ''))] }],
      });
    }
  },
});
