import { defineRule } from './rule';
import { replaceContent, shorten, subjectOf } from './util';
import { withPath } from '../resolve/urls';
import { documentsBasePath } from '../providers/profiles';

/**
 * Operation paths that clients append themselves; a base URL ending in one makes the client call
 * e.g. `/v1/chat/completions/chat/completions` (OpenAI API reference endpoint list; Anthropic `/v1/messages`).
 */
/** An endpoint path written twice in a full request URL (`…/chat/completions/chat/completions`). */
const DOUBLED_ENDPOINT = /\/(chat\/completions|completions|responses|messages|embeddings|models|generate)\/\1\/?$/;

const ENDPOINT = /(\/v\d+)?\/(chat\/completions|completions|responses|messages|embeddings|models|generate)\/?$/;

/** A base URL with an endpoint path pasted in (`…/v1/chat/completions`) under a consumer that appends one. */
export default defineRule({
  meta: {
    id: 'base-url-endpoint-path',
    title: 'Base URL ends with an endpoint path such as /chat/completions',
    defaultSeverity: 'error',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      endpoint: 'base URL "{value}" ends with the endpoint path /{endpoint}; the client appends it again and calls {url} (404)',
      endpointUnknown: 'base URL "{value}" ends with the endpoint path /{endpoint}; clients append their own path, so requests will 404',
      doubled: 'request URL "{value}" repeats the endpoint path /{endpoint}; the server will answer 404',
      'fix.strip': 'Remove /{endpoint} from the base URL',
      'fix.undouble': 'Remove the repeated /{endpoint}',
    },
    'zh-CN': {
      endpoint: 'base URL "{value}" 以接口路径 /{endpoint} 结尾；客户端会再次追加，实际请求 {url}（404）',
      endpointUnknown: 'base URL "{value}" 以接口路径 /{endpoint} 结尾；客户端会自行追加路径，请求会返回 404',
      doubled: '请求 URL "{value}" 重复了接口路径 /{endpoint}；服务器会返回 404',
      'fix.strip': '从 base URL 删除 /{endpoint}',
      'fix.undouble': '删除重复的 /{endpoint}',
    },
  },
  check({ resolution, report }) {
    for (const base of resolution.baseUrls) {
      const { setting, parsed } = base;
      if (!parsed || setting.value === undefined) continue;
      const appending = base.requests.filter((r) => r.consumer.id !== 'raw' || r.consumer.appendedPath);
      // Code hands the value whole to an HTTP call: it is a request URL, whatever else its name suggests.
      const usedWhole = base.consumers.some((c) => c.id === 'raw' && c.appendedPath === undefined);
      if ((base.consumers.length > 0 && appending.length === 0) || usedWhole) {
        const doubled = DOUBLED_ENDPOINT.exec(parsed.path);
        if (doubled) {
          report({
            messageId: 'doubled',
            data: { value: shorten(setting.value), endpoint: doubled[1] },
            range: setting.contentRange,
            subject: subjectOf(setting),
            fixes: [{ titleId: 'fix.undouble', data: { endpoint: doubled[1] }, safety: 'safe', edits: [replaceContent(setting, withPath(setting.value, parsed, parsed.path.slice(0, doubled.index + doubled[1].length + 1)))] }],
          });
        }
        continue;
      }
      const m = ENDPOINT.exec(parsed.path);
      if (!m || (m[2] === 'generate' && !m[1])) continue;
      // A provider that documents this very path as its base (Azure AI Foundry `…/models`) is right.
      if (documentsBasePath(base.providers, parsed.host.toLowerCase(), parsed.path.replace(/\/+$/, ''))) continue;
      const fixed = withPath(setting.value, parsed, parsed.path.slice(0, m.index) + (m[1] ?? ''));
      const request = appending[0];
      // A Python variable whose use is not visible (handed to `super().__init__`, another module): it may
      // be a whole request URL as much as a base (issue 23, kind 2), so nothing is proven.
      const unseen = !request && setting.format === 'python' && setting.kind === 'assignment';
      report({
        ...(unseen ? { evidence: { strength: 'plausible' as const, id: 'baseUrl.noConsumer' as const, data: { key: setting.key } } } : {}),
        messageId: request ? 'endpoint' : 'endpointUnknown',
        data: { value: shorten(setting.value), endpoint: m[2], url: request ? shorten(request.url, 100) : '' },
        range: setting.contentRange,
        subject: subjectOf(setting),
        fixes: [{ titleId: 'fix.strip', data: { endpoint: m[2] }, safety: 'unsafe', edits: [replaceContent(setting, fixed)] }],
      });
    }
  },
});
