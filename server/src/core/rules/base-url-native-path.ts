import { defineRule } from './rule';
import { replaceContent, shorten, subjectOf } from './util';
import { hostMatches, providerName, splitDocumentedUrl } from '../providers/profiles';
import { withPath } from '../resolve/urls';

/**
 * A base URL on a provider's own, non-OpenAI API (DashScope `https://dashscope.aliyuncs.com/api/v1`,
 * Gemini `…/v1beta` without `/openai`, Ollama `…/api`) read by a client that joins OpenAI paths: the
 * OpenAI SDK calls `…/api/v1/chat/completions`, which that API does not serve. The message names the
 * OpenAI-compatible base the same provider documents (per its profile).
 */
export default defineRule({
  meta: {
    id: 'base-url-native-path',
    title: "Base URL is a provider's native API, not its OpenAI-compatible one",
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      native: 'base URL "{value}" is {provider}\'s native API; {via} will call {url}, which it does not serve. {provider} documents {documented} for OpenAI-compatible clients',
      'fix.documented': 'Use the OpenAI-compatible base {documented}',
    },
    'zh-CN': {
      native: 'base URL "{value}" 是 {provider} 的原生接口；{via} 会请求 {url}，该接口并不提供。{provider} 为 OpenAI 兼容客户端给出的是 {documented}',
      'fix.documented': '改用 OpenAI 兼容的 base {documented}',
    },
  },
  check({ resolution, report, locale }) {
    for (const base of resolution.baseUrls) {
      const { setting, parsed } = base;
      if (!parsed || setting.value === undefined) continue;
      const request = base.requests.find((r) => r.consumer.id === 'openai-sdk' || r.consumer.id === 'openai-responses');
      if (!request) continue;
      const host = parsed.host.toLowerCase();
      const path = parsed.path.replace(/\/+$/, '');
      for (const provider of base.providers) {
        const local = (provider.localPorts?.length ?? 0) > 0;
        const onHost = (url: string) => {
          const d = splitDocumentedUrl(url);
          return d !== undefined && (local || hostMatches(d.host, host)) ? d : undefined;
        };
        const openai = provider.openaiBases.map(onHost).filter((d) => d !== undefined);
        if (openai.length === 0 || openai.some((d) => path === d.path || path.startsWith(`${d.path}/`))) continue;
        const native = (provider.nativeBases ?? []).map(onHost).find((d) => d !== undefined && (path === d.path || path.startsWith(`${d.path}/`)));
        if (!native) continue;
        const v = setting.value.trim();
        const documented = withPath(v, parsed, openai[0].path);
        report({
          messageId: 'native',
          data: {
            value: shorten(v),
            provider: providerName(provider, locale),
            via: request.consumer.via,
            url: shorten(request.url, 100),
            documented: shorten(documented, 100),
          },
          range: setting.contentRange,
          subject: subjectOf(setting),
          fixes: [{ titleId: 'fix.documented', data: { documented }, safety: 'unsafe', edits: [replaceContent(setting, documented)] }],
        });
        break;
      }
    }
  },
});
