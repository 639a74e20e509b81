import { defineRule } from './rule';
import { replaceContent, shorten, subjectOf } from './util';
import { documentedBaseFor, matchWebsite, providerName, splitDocumentedUrl, type ProviderProfile } from '../providers/profiles';
import type { ResolvedBaseUrl } from '../resolve/resolve';
import { TRACKING } from './base-url-query-string';

/** The known provider whose website this base URL is, or `undefined`. */
function websiteOf(base: ResolvedBaseUrl, profiles: readonly ProviderProfile[]): ProviderProfile | undefined {
  const value = base.setting.value?.trim() ?? '';
  const byWebsite = matchWebsite(value, profiles);
  if (byWebsite) return byWebsite;
  const parsed = base.parsed!;
  const path = parsed.path.replace(/\/+$/, '');
  const remote = base.providers.find((p) => p.hosts.length > 0);
  if (!remote) return undefined;
  if (path === '') {
    // The API host itself (taotoken.net, openrouter.ai) at its root with a tracking query: a page link.
    const names = (parsed.query ?? '').split('&').map((pair) => safeDecode(pair.split('=')[0] ?? ''));
    return names.some((n) => TRACKING.test(n)) ? remote : undefined;
  }
  // A host that serves both the website (its docs live there) and the API under documented paths
  // (TaoToken: `/api/…`; OpenRouter: `/api/v1`): any other first path segment is a page (`/console/keys`, `/docs/…`).
  const host = parsed.host.toLowerCase();
  if (hostOf(remote.docsUrl) !== host) return undefined;
  const apiRoots = [...remote.openaiBases, remote.anthropicBase ?? ''].map((b) => firstSegment(splitDocumentedUrl(b)?.path ?? '')).filter((s) => s !== '');
  if (apiRoots.length === 0 || apiRoots.length !== remote.openaiBases.length + (remote.anthropicBase ? 1 : 0)) return undefined;
  return apiRoots.includes(firstSegment(path)) ? undefined : remote;
}

function firstSegment(path: string): string {
  return path.split('/')[1] ?? '';
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * A base URL that is a known provider's website, docs or console page (`https://platform.openai.com/…`,
 * `https://bailian.console.aliyun.com`, `https://taotoken.net/?utm_source=…`, `https://taotoken.net/console/keys`
 * on a host that serves both the website and the API) instead of its API base:
 * every client gets an HTML page or 404. One finding names the API base (per the provider profile)
 * and wins over the URL-shape rules about the same value (query string, missing /v1, trailing slash).
 */
export default defineRule({
  meta: {
    id: 'base-url-provider-website',
    title: "Base URL is a provider's website, not its API",
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      website: 'base URL "{value}" is {provider}\'s website, not its API; clients will get a web page or 404. {provider} documents the API base {api}',
      'fix.api': 'Use the API base {api}',
    },
    'zh-CN': {
      website: 'base URL "{value}" 是 {provider} 的网站页面，不是 API 地址；客户端会拿到网页或 404。{provider} 文档给出的 API base 是 {api}',
      'fix.api': '改用 API base {api}',
    },
  },
  check({ resolution, report, locale }) {
    for (const base of resolution.baseUrls) {
      if (!base.parsed || base.setting.value === undefined) continue;
      const provider = websiteOf(base, resolution.providers);
      if (!provider) continue;
      const consumer = base.consumers.some((c) => c.id === 'anthropic') && provider.anthropicBase ? 'anthropic' : 'openai-sdk';
      const api = documentedBaseFor(provider, consumer);
      if (!api) continue;
      report({
        messageId: 'website',
        data: { value: shorten(base.setting.value.trim()), provider: providerName(provider, locale), api },
        range: base.setting.contentRange,
        subject: subjectOf(base.setting),
        // A base with the user's own resource or region in it (`https://{resource}.openai.azure.com/openai/v1`) is named, not written.
        fixes: /[{*]/.test(api) ? [] : [{ titleId: 'fix.api', data: { api }, safety: 'unsafe', edits: [replaceContent(base.setting, api)] }],
      });
    }
  },
});
