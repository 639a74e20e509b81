import { defineRule } from './rule';
import { isMisparsed, replaceContent, shorten, subjectOf } from './util';
import { isPlaceholderUrl, isTemplated, schemelessHost } from './url-shape';
import { isLocalHost } from '../model/hosts';

/**
 * A base URL written without `http://` or `https://` (`api.example.com/v1`, `127.0.0.1:30000/v1`).
 * openai-node builds a WHATWG `URL` from it and throws "Invalid URL"; openai-python hands it to httpx,
 * which raises `UnsupportedProtocol` ("missing an 'http://' or 'https://' protocol", or reads
 * `localhost:` as the scheme) and the SDK retries it as a connection error. `requests` raises
 * `MissingSchema`. Error when a client of the value is visible, warning when none is.
 */
export default defineRule({
  meta: {
    id: 'base-url-missing-scheme',
    title: 'Base URL has no http:// or https://',
    defaultSeverity: 'error',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      consumer: 'base URL "{value}" has no scheme; {via} cannot build a request URL from it and fails before sending anything: write {scheme}://…',
      unknown: 'base URL "{value}" has no scheme (http:// or https://); HTTP clients reject it or read "{host}" as a path',
      'fix.add': 'Prepend {scheme}://',
    },
    'zh-CN': {
      consumer: 'base URL "{value}" 缺少协议；{via} 无法据此构造请求 URL，在发送任何请求前就会失败：请写成 {scheme}://…',
      unknown: 'base URL "{value}" 缺少协议（http:// 或 https://）；HTTP 客户端会拒绝它，或把 "{host}" 当作路径',
      'fix.add': '在开头加上 {scheme}://',
    },
  },
  check({ extraction, resolution, report }) {
    for (const base of resolution.baseUrls) {
      const { setting, parsed } = base;
      if (parsed || setting.value === undefined || setting.valueType !== 'string' || isMisparsed(setting, extraction.parseProblems)) continue;
      const value = setting.value.trim();
      const host = schemelessHost(value);
      if (host === undefined || isTemplated(value) || isPlaceholderUrl(value)) continue;
      const scheme = isLocalHost(host) ? 'http' : 'https';
      const consumer = base.consumers[0];
      report({
        severity: consumer ? 'error' : 'warning',
        messageId: consumer ? 'consumer' : 'unknown',
        data: { value: shorten(value), via: consumer?.via ?? '', scheme, host },
        range: setting.contentRange,
        subject: subjectOf(setting),
        fixes: [{ titleId: 'fix.add', data: { scheme }, safety: 'unsafe', edits: [replaceContent(setting, `${scheme}://${value.replace(/^\/\//, '')}`)] }],
      });
    }
  },
});
