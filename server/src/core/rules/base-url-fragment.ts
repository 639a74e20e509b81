import { defineRule } from './rule';
import { replaceContent, shorten, subjectOf } from './util';
import { CLIENT_URL, clientViews } from '../resolve/clients';

/**
 * A base URL with a `#fragment`. No client sends a fragment; the ones that concatenate (openai-node,
 * anthropic-node, LangChain JS, Claude Code, Codex, OpenClaw, requests/httpx f-strings, curl) put their
 * endpoint path after the `#`, so it is dropped too and the request goes to the bare base
 * (`…/v1#prod` → `POST /v1`, recorded by the conformance suite). openai-python/anthropic-python cut the
 * fragment off before joining and are unaffected. Severity: error when every client that reads the
 * fragment loses its path, warning when only some do, hint when none does (the fragment is just noise).
 * The fix drops the fragment: safe, as no client ever sends it.
 */
export default defineRule({
  meta: {
    id: 'base-url-fragment',
    title: 'Base URL has a #fragment, which clients drop together with the endpoint path',
    defaultSeverity: 'error',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'safe',
  },
  messages: {
    en: {
      lost: 'base URL "{value}" has a fragment "#{fragment}"; clients never send it, and {client} puts its path after it, so it calls {url}',
      ignored: 'base URL "{value}" has a fragment "#{fragment}", which clients never send; remove it',
      'fix.drop': 'Remove the fragment #{fragment}',
    },
    'zh-CN': {
      lost: 'base URL "{value}" 含有片段 "#{fragment}"；客户端从不发送片段，而 {client} 把接口路径拼在它后面，因此实际请求的是 {url}',
      ignored: 'base URL "{value}" 含有片段 "#{fragment}"，客户端从不发送它；请删除',
      'fix.drop': '删除片段 #{fragment}',
    },
  },
  check({ resolution, report }) {
    for (const base of resolution.baseUrls) {
      const { setting } = base;
      const readings = setting.loaded ? Object.values(setting.loaded) : [setting.value];
      const hashed = readings.find((v): v is string => typeof v === 'string' && v.includes('#'));
      if (hashed === undefined || setting.value === undefined) continue;
      const fragment = hashed.slice(hashed.indexOf('#') + 1).trim();
      const lost: { client: string; url: string }[] = [];
      let readers = 0;
      const views = clientViews(base);
      for (const view of views) {
        if (!view.value.includes('#')) continue;
        readers++;
        const clean = CLIENT_URL[view.client].join(view.value.slice(0, view.value.indexOf('#')), view.path);
        if (view.sent && clean.url !== view.url) lost.push({ client: view.client, url: view.url });
      }
      if (views.length === 0 && setting.value.includes('#')) {
        // No modelled client: the SDK join (openai-node) is what the hover shows.
        const v = setting.value.trim();
        for (const r of base.requests) {
          readers++;
          if (r.url.slice(r.url.indexOf('#')).includes('/')) lost.push({ client: r.consumer.via, url: v.slice(0, v.indexOf('#')) });
        }
      }
      if (readers === 0 && base.requests.length > 0) continue;
      const value = setting.value.includes('#') ? setting.value.trim() : hashed.trim();
      const fixed = setting.contentRange.end > setting.contentRange.start ? dropFragment(setting) : undefined;
      const fixes = fixed === undefined ? [] : [{ titleId: 'fix.drop', data: { fragment }, safety: 'safe' as const, edits: [replaceContent(setting, fixed)] }];
      if (lost.length > 0) {
        report({
          severity: lost.length === readers ? 'error' : 'warning',
          messageId: 'lost',
          data: { value: shorten(value), fragment, client: lost[0].client, url: shorten(lost[0].url, 100) },
          range: setting.contentRange,
          subject: subjectOf(setting),
          fixes,
        });
      } else {
        report({ severity: 'hint', messageId: 'ignored', data: { value: shorten(value), fragment }, range: setting.contentRange, subject: subjectOf(setting), fixes });
      }
    }
  },
});

/** The characters inside the value's quotes without the `#…` tail and the spaces before it, or undefined when the source has no `#`. */
function dropFragment(setting: { raw: string; contentRange: { start: number; end: number }; valueRange: { start: number } }): string | undefined {
  const offset = setting.contentRange.start - setting.valueRange.start;
  const content = setting.raw.slice(offset, offset + setting.contentRange.end - setting.contentRange.start);
  const hash = content.indexOf('#');
  if (hash === -1) return undefined;
  return content.slice(0, hash).replace(/\s+$/, '') + content.slice(hash).replace(/^#[^\s'"]*/, '');
}
