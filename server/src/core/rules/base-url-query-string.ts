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
 * A base URL with a query string. Most clients append their path after the whole base string, so the
 * path ends up inside the query and the call 404s or hits a web page: openai-python sends
 * `/v1?utm_source=x/chat/completions`, openai-node 6.49.0 `/v1?utm_source=x%2Fchat%2Fcompletions`
 * (`buildURL` re-serialises the query), curl and f-string joins the same as written. openai-node 7.59.0
 * splits the query off and sends `/v1/chat/completions?utm_source=x` (each checked on a recording server
 * on 127.0.0.1; `resolve/clients.ts`): when every client of the value does that, the finding is a hint.
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
      trackingNoise: 'base URL "{value}" carries tracking parameters ({params}); the client reading it ({clients}) moves them after the path, so requests arrive, but they mean nothing to an API',
      queryNoise: 'base URL "{value}" has a query string ({params}); the client reading it ({clients}) moves it after the path, so requests arrive; clients that append the path after the query (openai-python, openai-node 6) would 404',
      'fix.stripTracking': 'Remove the tracking parameters',
      'fix.stripQuery': 'Remove the query string',
    },
    'zh-CN': {
      tracking: 'base URL "{value}" 带有跟踪参数（{params}）；客户端会在其后追加路径，请求会失败',
      query: 'base URL "{value}" 带有查询字符串（{params}）；客户端会在其后追加路径，请求很可能返回 404',
      trackingNoise: 'base URL "{value}" 带有跟踪参数（{params}）；读取它的客户端（{clients}）会把它们移到路径之后发送，请求能到达，但这些参数对 API 没有意义',
      queryNoise: 'base URL "{value}" 带有查询字符串（{params}）；读取它的客户端（{clients}）会把它移到路径之后发送，请求能到达；把路径拼在查询串之后的客户端（openai-python、openai-node 6）会返回 404',
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
      // Per client: openai-node 7.59.0 and OpenClaw's chat path move the query after the path, so the request still
      // reaches its endpoint; then the parameters are only noise (hint). Python SDKs, openai-node 6.49.0 and
      // concatenating clients break.
      const views = clientViews(base);
      const harmless = views.length > 0 && views.every((view) => {
        const q = view.value.indexOf('?');
        if (q === -1) return true;
        const clean = CLIENT_URL[view.client].join(view.value.slice(0, q), view.path);
        return view.sent && clean.sent && new URL(view.url).pathname === new URL(clean.url).pathname;
      });
      const clients = joinList([...new Set(views.map((view) => view.client))], locale);
      const hash = parsed.hash !== undefined ? `#${parsed.hash}` : '';
      /** Whitespace around the value is another finding's business: the fixes keep it. */
      const edges = (middle: string) => `${/^\s*/.exec(setting.value!)![0]}${middle}${/\s*$/.exec(setting.value!)![0]}`;
      if (tracking.length > 0) {
        const keep = pairs.filter((p) => !tracking.includes(p));
        const fixed = v.slice(0, queryStart) + (keep.length ? `?${keep.join('&')}` : '') + hash;
        report({
          severity: harmless ? 'hint' : 'error',
          messageId: harmless ? 'trackingNoise' : 'tracking',
          data: { value: shorten(v), params: joinList(tracking.map((p) => p.split('=')[0]), locale), clients },
          range: setting.contentRange,
          subject: subjectOf(setting),
          fixes: [{ titleId: 'fix.stripTracking', safety: 'safe', edits: [replaceContent(setting, edges(fixed))] }],
        });
      } else if (others.length > 0) {
        report({
          severity: harmless ? 'hint' : 'warning',
          messageId: harmless ? 'queryNoise' : 'query',
          data: { value: shorten(v), params: joinList(others.map((p) => p.split('=')[0]), locale), clients },
          range: setting.contentRange,
          subject: subjectOf(setting),
          fixes: [{ titleId: 'fix.stripQuery', safety: 'unsafe', edits: [replaceContent(setting, edges(v.slice(0, queryStart) + hash))] }],
        });
      }
    }
  },
});
