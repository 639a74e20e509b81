import { defineRule, type FixReport } from './rule';
import { isExampleFile, isMisparsed, replaceContent, subjectOf } from './util';
import { loaderNames } from './api-key-whitespace';
import { LOADERS, type Loader, type Setting } from '../model/types';
import { isPlaceholderKey } from '../model/keys';
import { maskSecret } from '../model/secret';
import { llmKeyEvidence } from '../evidence/key';

const QUOTE_EDGE = /^\s*["'`]|["'`]\s*$/;
const KEY_CHARS = /^[A-Za-z0-9._~+/=-]+$/;
const QUOTES = new Set(['"', "'", '`']);

/**
 * `text` without whitespace, quote characters and (with `escapes`) backslash-escaped quotes at
 * either end. A loop, not a regex: runs of quotes must not cost quadratic time.
 */
function stripEdges(text: string, escapes = false): string {
  const drop = (at: number, step: 1 | -1): number => {
    const c = text[at];
    if (c === undefined) return 0;
    if (escapes && step === 1 && c === '\\' && QUOTES.has(text[at + 1])) return 2;
    if (escapes && step === -1 && QUOTES.has(c) && text[at - 1] === '\\') return 2;
    return /\s/.test(c) || QUOTES.has(c) ? 1 : 0;
  };
  let start = 0;
  let end = text.length;
  for (let n = drop(start, 1); n > 0 && start < end; n = drop(start, 1)) start += n;
  for (let n = drop(end - 1, -1); n > 0 && end > start; n = drop(end - 1, -1)) end -= n;
  return text.slice(start, Math.max(start, end));
}

/**
 * The loaders that keep quote characters at an edge of a dotenv value, or `'all'` when every
 * reader does (the quotes are part of the value itself: `'"sk-…"'` in dotenv, `"'sk-…'"` in YAML,
 * JSON, Python or a shell word).
 */
function keepers(setting: Setting): Loader[] | 'all' {
  if (!setting.loaded) return setting.value !== undefined && QUOTE_EDGE.test(setting.value) ? 'all' : [];
  const present = LOADERS.filter((l) => typeof setting.loaded?.[l] === 'string' && setting.loaded[l]!.trim() !== '');
  const kept = present.filter((l) => QUOTE_EDGE.test(setting.loaded![l]!));
  return kept.length > 0 && kept.length === present.length ? 'all' : kept;
}

/**
 * A key value with quote characters that survive loading, so the client sends them inside
 * `Authorization: Bearer "sk-…"` and the server answers 401. In dotenv files `docker run --env-file`
 * keeps quotes (it does no quote processing; Docker CLI reference) while the other loaders strip
 * them: that case alone is a hint, since most projects load `.env` another way. Quotes inside the
 * value itself (`"'sk-…'"`) reach every client: warning. Template files are exempt.
 */
export default defineRule({
  meta: {
    id: 'api-key-quoted',
    title: 'API key carries quote characters that survive loading',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      loaders: '{key} ({masked}) is quoted, and these loaders keep the quotes as part of the key: {loaders}; a client started that way sends them and the server answers 401',
      all: '{key} ({masked}) contains literal quote characters; every client sends them as part of the key and the server answers 401',
      'fix.unquote': 'Remove the quote characters from the key',
    },
    'zh-CN': {
      loaders: '{key}（{masked}）带有引号，以下加载器会把引号当作密钥的一部分保留：{loaders}；以这种方式启动的客户端会发送引号，服务器会返回 401',
      all: '{key}（{masked}）含有字面引号；所有客户端都会把引号作为密钥的一部分发送，服务器会返回 401',
      'fix.unquote': '删除密钥中的引号',
    },
  },
  check({ document, extraction, resolution, report, locale }) {
    if (isExampleFile(document.path)) return;
    for (const setting of resolution.byRole('apiKey')) {
      const keyEvidence = llmKeyEvidence(setting, resolution);
      if (!keyEvidence) continue;
      if (setting.valueType !== 'string' || setting.value === undefined || isMisparsed(setting, extraction.parseProblems)) continue;
      const kept = keepers(setting);
      if (kept.length === 0) continue;
      const sample = kept === 'all' ? setting.value : setting.loaded![kept[0]]!;
      const key = stripEdges(sample);
      if (key === '' || isPlaceholderKey(key)) continue;
      const dockerOnly = kept !== 'all' && kept.every((l) => l === 'dockerEnvFile');
      report({
        severity: dockerOnly ? 'hint' : undefined,
        messageId: kept === 'all' ? 'all' : 'loaders',
        data: { key: setting.key, masked: maskSecret(key), loaders: kept === 'all' ? '' : loaderNames(kept, locale) },
        range: setting.contentRange,
        subject: subjectOf(setting),
        evidence: keyEvidence,
        fixes: dockerOnly ? [] : unquoteFix(document.text, setting, key),
      });
    }
  },
});

/** Dotenv: the bare key replaces the whole value; elsewhere the quote characters inside the string go. */
function unquoteFix(text: string, setting: Setting, key: string): FixReport[] {
  if (!KEY_CHARS.test(key)) return [];
  if (setting.format === 'dotenv') {
    return [{ titleId: 'fix.unquote', safety: 'unsafe', edits: [{ range: { ...setting.valueRange }, text: key }] }];
  }
  const source = text.slice(setting.contentRange.start, setting.contentRange.end);
  const stripped = stripEdges(source, true);
  return stripped === key ? [{ titleId: 'fix.unquote', safety: 'unsafe', edits: [replaceContent(setting, key)] }] : [];
}
