import { defineRule } from './rule';
import { joinList } from '../messages/locale';
import { replaceContent, shorten, subjectOf } from './util';
import { CLIENT_URL, clientViews } from '../resolve/clients';

/**
 * Click-tracking parameters left on a URL copied from a web page or a chat app. Sources: Google
 * Analytics campaign parameters (`utm_*`), Facebook `fbclid`, Google Ads `gclid`/`dclid`/`gbraid`/`wbraid`,
 * Microsoft `msclkid`, Yandex `yclid`, Mailchimp `mc_cid`/`mc_eid`, Alibaba/Taobao `spm`.
 */
export const TRACKING = /^(utm_[a-z_]+|fbclid|gclid|dclid|gbraid|wbraid|msclkid|yclid|mc_cid|mc_eid|spm|_ga|_gl)$/i;

/**
 * A base URL with a query string. Clients append their path after the whole base string, so the query
 * ends up inside the path (`…/v1?utm_source=x/chat/completions`) and the call 404s or hits a web page.
 * `api-version` belongs to `azure-api-version`.
 */
export default defineRule({
  meta: {
    id: 'base-url-query-string',
    title: 'Base URL carries a query string (tracking parameters or others)',
    defaultSeverity: 'error',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'safe',
  },
  messages: {
    en: {
      tracking: 'base URL "{value}" carries tracking parameters ({params}); clients append paths after them, so requests will fail',
      query: 'base URL "{value}" has a query string ({params}); clients append paths after it, so requests will likely 404',
      'fix.stripTracking': 'Remove the tracking parameters',
      'fix.stripQuery': 'Remove the query string',
    },
    'zh-CN': {
      tracking: 'base URL "{value}" 带有跟踪参数（{params}）；客户端会在其后追加路径，请求会失败',
      query: 'base URL "{value}" 带有查询字符串（{params}）；客户端会在其后追加路径，请求很可能返回 404',
      'fix.stripTracking': '删除跟踪参数',
      'fix.stripQuery': '删除查询字符串',
    },
  },
  check({ resolution, report, locale }) {
    for (const base of resolution.baseUrls) {
      const { setting, parsed } = base;
      if (!parsed || parsed.query === undefined || setting.value === undefined) continue;
      if (base.consumers.length > 0 && base.consumers.every((c) => c.id === 'raw' && c.appendedPath === undefined)) continue;
      const pairs = parsed.query.split('&').filter((p) => p.length > 0);
      const names = pairs.map((p) => decodeURIComponent(p.split('=')[0] ?? ''));
      const others = pairs.filter((_, i) => !TRACKING.test(names[i]) && names[i].toLowerCase() !== 'api-version');
      const tracking = pairs.filter((_, i) => TRACKING.test(names[i]));
      const v = setting.value.trim();
      const queryStart = v.indexOf('?');
      // Per client: openai-node 7 and OpenClaw's chat path move the query after the path, so the request still
      // reaches its endpoint; then the parameters are only noise (hint). Python SDKs and concatenating clients break.
      const views = clientViews(base);
      const harmless = views.length > 0 && views.every((view) => {
        const q = view.value.indexOf('?');
        if (q === -1) return true;
        const clean = CLIENT_URL[view.client].join(view.value.slice(0, q), view.path);
        return view.sent && clean.sent && new URL(view.url).pathname === new URL(clean.url).pathname;
      });
      const hash = parsed.hash !== undefined ? `#${parsed.hash}` : '';
      /** Whitespace around the value is another finding's business: the fixes keep it. */
      const edges = (middle: string) => `${/^\s*/.exec(setting.value!)![0]}${middle}${/\s*$/.exec(setting.value!)![0]}`;
      if (tracking.length > 0) {
        const keep = pairs.filter((p) => !tracking.includes(p));
        const fixed = v.slice(0, queryStart) + (keep.length ? `?${keep.join('&')}` : '') + hash;
        report({
          severity: harmless ? 'hint' : 'error',
          messageId: 'tracking',
          data: { value: shorten(v), params: joinList(tracking.map((p) => p.split('=')[0]), locale) },
          range: setting.contentRange,
          subject: subjectOf(setting),
          fixes: [{ titleId: 'fix.stripTracking', safety: 'safe', edits: [replaceContent(setting, edges(fixed))] }],
        });
      } else if (others.length > 0) {
        report({
          severity: harmless ? 'hint' : 'warning',
          messageId: 'query',
          data: { value: shorten(v), params: joinList(others.map((p) => p.split('=')[0]), locale) },
          range: setting.contentRange,
          subject: subjectOf(setting),
          fixes: [{ titleId: 'fix.stripQuery', safety: 'unsafe', edits: [replaceContent(setting, edges(v.slice(0, queryStart) + hash))] }],
        });
      }
    }
  },
});
