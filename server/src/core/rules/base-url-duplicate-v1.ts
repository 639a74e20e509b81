import { defineRule } from './rule';
import { replaceContent, shorten, subjectOf } from './util';
import { parseBaseUrl } from '../resolve/urls';

const DOUBLED = /\/(v\d+)\/\1(?=\/|$|\?)/;

/**
 * A version segment that appears twice in a row in the request URL (`/v1/v1`): written in the value
 * itself, or produced because a consumer appends `/v1` (Anthropic SDK: `/v1/messages`; code such as
 * `f"{base}/v1/chat/completions"`) to a base that already ends in `/v1`. The server answers 404.
 */
export default defineRule({
  meta: {
    id: 'base-url-duplicate-v1',
    title: 'Base URL leads to a doubled version segment such as /v1/v1',
    defaultSeverity: 'error',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'safe',
  },
  messages: {
    en: {
      literal: 'base URL "{value}" repeats {segment}; requests will 404',
      appended: 'base URL "{value}" already ends in /{segment}, and {via} appends /{segment}: it will call {url} (404)',
      'fix.collapse': 'Remove the repeated /{segment}',
      'fix.dropTrailing': 'Remove the trailing /{segment} from the base URL',
    },
    'zh-CN': {
      literal: 'base URL "{value}" 重复了 {segment}，请求会返回 404',
      appended: 'base URL "{value}" 已以 /{segment} 结尾，而 {via} 会再追加 /{segment}：实际请求 {url}（404）',
      'fix.collapse': '删除重复的 /{segment}',
      'fix.dropTrailing': '从 base URL 末尾删除 /{segment}',
    },
  },
  check({ resolution, report }) {
    for (const base of resolution.baseUrls) {
      const { setting, parsed } = base;
      if (!parsed || setting.value === undefined) continue;
      const literal = DOUBLED.exec(parsed.path);
      // OpenClaw's `anthropic-messages` drops a trailing `/v1` itself: when every modelled client's URL is clean, so is the value.
      const normalizedAway = base.requests.length > 0 && base.requests.every((r) => r.clients.length > 0 && !DOUBLED.test(parseBaseUrl(r.url)?.path ?? ''));
      if (literal && !normalizedAway) {
        const collapsed = setting.value.replace(/\/(v\d+)\/\1(?=\/|\?|#|\s*$)/, '/$1');
        report({
          messageId: 'literal',
          data: { value: shorten(setting.value), segment: `/${literal[1]}/${literal[1]}` },
          range: setting.contentRange,
          subject: subjectOf(setting),
          fixes: [{ titleId: 'fix.collapse', data: { segment: literal[1] }, safety: 'safe', edits: [replaceContent(setting, collapsed)] }],
        });
        continue;
      }
      for (const request of base.requests) {
        const doubled = DOUBLED.exec(parseBaseUrl(request.url)?.path ?? '');
        if (!doubled) continue;
        const trimmed = setting.value.replace(/\/+$/, '');
        const suffix = `/${doubled[1]}`;
        const fixes = trimmed.endsWith(suffix)
          ? [{ titleId: 'fix.dropTrailing', data: { segment: doubled[1] }, safety: 'unsafe' as const, edits: [replaceContent(setting, trimmed.slice(0, -suffix.length))] }]
          : [];
        report({
          messageId: 'appended',
          data: { value: shorten(setting.value), segment: doubled[1], via: request.consumer.via, url: shorten(request.url, 100) },
          range: setting.contentRange,
          subject: subjectOf(setting),
          fixes,
        });
        break;
      }
    }
  },
});
