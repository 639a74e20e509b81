import { defineRule } from './rule';
import { isMisparsed, replaceContent, replaceSource, shorten, subjectOf } from './util';
import { isPlaceholderUrl, isTemplated, schemelessHost } from './url-shape';
import { CLIENT_URL, clientViews } from '../resolve/clients';

interface Diagnosis {
  messageId: 'whitespace' | 'lookalike' | 'missingColon' | 'slashes' | 'schemeTypo' | 'noHost' | 'port' | 'unparsable';
  data?: Record<string, string>;
  /** The corrected value, when the correction is obvious. */
  fixed?: string;
}

/** Levenshtein distance, for scheme typos (`htps`, `htttp`, `hxxp`). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** `http` or `https` when `scheme` is a near miss of one of them, else `undefined`. */
function intendedScheme(scheme: string): 'http' | 'https' | undefined {
  const toHttps = distance(scheme, 'https');
  const toHttp = distance(scheme, 'http');
  const best = Math.min(toHttp, toHttps);
  if (best > 2 || (best === 2 && scheme.length < 4)) return undefined;
  return toHttps <= toHttp ? 'https' : 'http';
}

/**
 * Characters that input methods and chat apps slip into pasted URLs: zero-width spaces and joiners,
 * BOM/word joiner, and full-width `：` `／` `．` (what a Chinese IME types in full-width mode), each
 * with its ASCII replacement (`''` = delete).
 */
const LOOKALIKES: Record<string, string> = { '\u200b': '', '\u200c': '', '\u200d': '', '\u2060': '', '\ufeff': '', '\uff1a': ':', '\uff0f': '/', '\uff0e': '.', '\u3002': '.' };
const LOOKALIKE = /[\u200b-\u200d\u2060\ufeff\uff1a\uff0f\uff0e\u3002]/g;

/** Why `value` (trimmed, not templated, not scheme-less) is not a usable http(s) URL, or `undefined`. */
function diagnose(value: string): Diagnosis | undefined {
  const odd = value.match(LOOKALIKE);
  if (odd) {
    const chars = [...new Set(odd)].map((c) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join(', ');
    return { messageId: 'lookalike', data: { chars }, fixed: value.replace(LOOKALIKE, (c) => LOOKALIKES[c] ?? '') };
  }
  if (/\s/.test(value)) return /[./:]/.test(value) ? { messageId: 'whitespace' } : undefined;
  const noColon = /^(https?)\/\/(.+)$/i.exec(value);
  if (noColon) return { messageId: 'missingColon', fixed: `${noColon[1]}://${noColon[2]}` };
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):([\\/]*)(.*)$/.exec(value);
  if (!m) return undefined;
  const [, scheme, slashes, rest] = m;
  const lower = scheme.toLowerCase();
  if (lower !== 'http' && lower !== 'https') {
    const intended = intendedScheme(lower);
    return intended && rest !== '' ? { messageId: 'schemeTypo', data: { scheme, intended }, fixed: `${intended}://${rest}` } : undefined;
  }
  if (slashes !== '//') return rest === '' ? { messageId: 'noHost' } : { messageId: 'slashes', fixed: `${scheme}://${rest}` };
  const authority = /^(?:[^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*)(?::([^/?#]*))?/.exec(rest);
  if (!authority || authority[1] === '') return { messageId: 'noHost' };
  const port = authority[2];
  if (port !== undefined && port !== '' && (!/^\d+$/.test(port) || Number(port) > 65535)) return { messageId: 'port', data: { port } };
  try {
    new URL(value);
  } catch {
    return { messageId: 'unparsable' };
  }
  return undefined;
}

/**
 * A base URL that no HTTP client can parse: whitespace inside, `http:/host` or `https//host`, a
 * misspelt scheme (`htps://`), no host, a port that is not a number from 0 to 65535. WHATWG `URL`
 * (openai-node) and httpx (openai-python) both reject these, so no request is ever sent.
 * Values with a template (`${…}`, `{host}`) and placeholders are left to other rules.
 */
export default defineRule({
  meta: {
    id: 'base-url-malformed',
    title: 'Base URL cannot be parsed as an http(s) URL',
    defaultSeverity: 'error',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      whitespace: 'base URL "{value}" contains whitespace; clients cannot parse it and send no request',
      edgeWhitespace: 'base URL "{value}" has whitespace at its {where} that the client keeps; requests go to a mangled URL and fail',
      edgeWhitespaceClient: 'base URL "{value}" has whitespace at its {where} that {client} keeps; it calls {url}',
      edgeWhitespaceUnsent: 'base URL "{value}" has whitespace at its {where} that {client} keeps; it cannot parse the URL and sends no request',
      lookalike: 'base URL "{value}" contains {chars} (invisible or full-width characters from an input method); clients cannot parse it or call the wrong host',
      start: 'start',
      end: 'end',
      missingColon: 'base URL "{value}" lacks the ":" after the scheme; clients cannot parse it and send no request',
      slashes: 'base URL "{value}" needs "//" after "{scheme}:"; clients reject it or read the host as a path',
      schemeTypo: 'base URL "{value}" starts with the unknown scheme "{scheme}:"; did you mean {intended}://? Clients send no request',
      noHost: 'base URL "{value}" has no host; clients cannot send a request to it',
      port: 'base URL "{value}" has the port "{port}", which is not a number from 0 to 65535; clients cannot parse it',
      unparsable: 'base URL "{value}" is not a valid URL; clients cannot parse it and send no request',
      'fix.fixed': 'Change it to {fixed}',
    },
    'zh-CN': {
      whitespace: 'base URL "{value}" 含有空白字符；客户端无法解析，不会发出请求',
      edgeWhitespace: 'base URL "{value}" 的{where}有空白字符，客户端会保留它；请求会发往错误的 URL 并失败',
      edgeWhitespaceClient: 'base URL "{value}" 的{where}有空白字符，{client} 会保留它；实际请求的是 {url}',
      edgeWhitespaceUnsent: 'base URL "{value}" 的{where}有空白字符，{client} 会保留它；它无法解析该 URL，不会发出请求',
      lookalike: 'base URL "{value}" 含有 {chars}（输入法带入的不可见字符或全角字符）；客户端无法解析，或会请求错误的主机',
      start: '开头',
      end: '末尾',
      missingColon: 'base URL "{value}" 的协议后缺少 ":"；客户端无法解析，不会发出请求',
      slashes: 'base URL "{value}" 在 "{scheme}:" 之后需要 "//"；客户端会拒绝它，或把主机名当作路径',
      schemeTypo: 'base URL "{value}" 以未知协议 "{scheme}:" 开头；是否应为 {intended}://？客户端不会发出请求',
      noHost: 'base URL "{value}" 没有主机名；客户端无法向它发送请求',
      port: 'base URL "{value}" 的端口 "{port}" 不是 0 到 65535 之间的数字；客户端无法解析',
      unparsable: 'base URL "{value}" 不是合法的 URL；客户端无法解析，不会发出请求',
      'fix.fixed': '改为 {fixed}',
    },
  },
  check({ document, file, extraction, resolution, report, t }) {
    if (file.kind === 'template') return;
    for (const base of resolution.baseUrls) {
      const { setting } = base;
      if (setting.value === undefined || setting.valueType !== 'string' || isMisparsed(setting, extraction.parseProblems)) continue;
      const value = setting.value.trim();
      // Built once per base URL (each view is a fresh object; the four uses below only read them).
      const readers = clientViews(base);
      const views = readers.filter((v) => v.value !== v.value.trim());
      if (readers.length > 0 && value !== '') {
        // Whitespace per reader: only a client that receives it and sends a different URL (or none) because of it counts.
        const broken = views.filter((v) => {
          const clean = CLIENT_URL[v.client].join(v.value.trim(), v.path);
          return !v.sent || clean.url !== v.url;
        });
        const all = readers.length;
        if (broken.length > 0) {
          const first = broken[0];
          const source = setting.raw.slice(setting.contentRange.start - setting.valueRange.start, setting.contentRange.end - setting.valueRange.start);
          const trimmed = source.trim();
          report({
            severity: broken.length === all ? 'error' : 'warning',
            messageId: first.sent ? 'edgeWhitespaceClient' : 'edgeWhitespaceUnsent',
            data: { value: shorten(value), where: t(/^\s/.test(first.value) ? 'start' : 'end'), client: first.client, url: shorten(first.url, 100) },
            range: setting.contentRange,
            subject: subjectOf(setting),
            fixes: trimmed !== source && trimmed !== '' ? [{ titleId: 'fix.fixed', data: { fixed: shorten(value) }, safety: 'safe', edits: [replaceContent(setting, trimmed)] }] : [],
          });
          continue;
        }
      }
      const kept = readers.length > 0 ? undefined : [setting.value, ...Object.values(setting.loaded ?? {})].find((v): v is string => typeof v === 'string' && v.trim() === value && v !== value && !/[\r\n]$/.test(v));
      if (kept !== undefined && value !== '') {
        const source = setting.raw.slice(setting.contentRange.start - setting.valueRange.start, setting.contentRange.end - setting.valueRange.start);
        const trimmed = source.trim();
        report({
          severity: 'warning',
          messageId: 'edgeWhitespace',
          data: { value: shorten(value), where: t(/^\s/.test(kept) ? 'start' : 'end') },
          range: setting.contentRange,
          subject: subjectOf(setting),
          fixes: trimmed !== source && trimmed !== '' ? [{ titleId: 'fix.fixed', data: { fixed: shorten(value) }, safety: 'safe', edits: [replaceSource(setting, document.text, trimmed, value)] }] : [],
        });
        continue;
      }
      if (value === '' || isTemplated(value) || isPlaceholderUrl(value) || schemelessHost(value) !== undefined) continue;
      const diagnosis = diagnose(value);
      if (!diagnosis) continue;
      const scheme = /^[A-Za-z][A-Za-z0-9+.-]*/.exec(value)?.[0] ?? '';
      const fixed = diagnosis.fixed;
      report({
        messageId: diagnosis.messageId,
        data: { value: shorten(value), scheme, ...diagnosis.data },
        range: setting.contentRange,
        subject: subjectOf(setting),
        fixes: fixed ? [{ titleId: 'fix.fixed', data: { fixed: shorten(fixed) }, safety: 'unsafe', edits: [replaceContent(setting, fixed)] }] : [],
      });
    }
  },
});
