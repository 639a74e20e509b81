import { defineRule } from './rule';
import { replaceContent, shorten, subjectOf } from './util';

/**
 * Azure endpoints: openai-python builds `{azure_endpoint.rstrip("/")}/openai/…` (lib/azure.py), so a
 * slash is harmless; so is one on a LiteLLM `api_base`, which goes to such SDK clients.
 */
const AZURE_ENDPOINT = /^(--)?azure[_-](openai[_-])?endpoint$/i;

/**
 * A trailing `/` on a base URL that is concatenated naively (`f"{base}/chat/completions"` →
 * `…/v1//chat/completions`) or whose consumer is unknown. The OpenAI and Anthropic SDKs remove one
 * slash at the seam (see `sdkJoin`), so under them alone it is harmless and not reported.
 */
export default defineRule({
  meta: {
    id: 'base-url-trailing-slash',
    title: 'Trailing slash on a base URL that is concatenated naively',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      naive: 'base URL "{value}" ends with "/"; {via} appends "{path}", giving {url}, which many servers answer with 404',
      unknown: 'base URL "{value}" ends with "/"; a client that appends "/chat/completions" calls a "//" path, which many servers answer with 404',
      'fix.strip': 'Remove the trailing slash',
    },
    'zh-CN': {
      naive: 'base URL "{value}" 以 "/" 结尾；{via} 会追加 "{path}"，得到 {url}，许多服务器会返回 404',
      unknown: 'base URL "{value}" 以 "/" 结尾；追加 "/chat/completions" 的客户端会请求含 "//" 的路径，许多服务器会返回 404',
      'fix.strip': '删除末尾的斜杠',
    },
  },
  check({ resolution, report }) {
    for (const base of resolution.baseUrls) {
      const { setting, parsed } = base;
      if (!parsed || setting.value === undefined || parsed.query !== undefined || parsed.hash !== undefined) continue;
      const v = setting.value.trim();
      if (!v.endsWith('/') || AZURE_ENDPOINT.test(setting.key) || /(^|\.)litellm_params\.api_base$/.test(setting.path)) continue;
      const naive = base.requests.find((r) => r.consumer.appendedPath?.startsWith('/'));
      if (!naive && base.consumers.length > 0) continue;
      report({
        messageId: naive ? 'naive' : 'unknown',
        data: naive
          ? { value: shorten(v), via: naive.consumer.via, path: naive.consumer.appendedPath ?? '', url: shorten(naive.url, 100) }
          : { value: shorten(v) },
        range: setting.contentRange,
        subject: subjectOf(setting),
        fixes: [{ titleId: 'fix.strip', safety: 'unsafe', edits: [replaceContent(setting, v.replace(/\/+$/, ''))] }],
      });
    }
  },
});
