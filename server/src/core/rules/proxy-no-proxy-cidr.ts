import { defineRule } from './rule';
import { joinList } from '../messages/locale';
import { subjectOf } from './util';
import { destinations, isCidrEntry, noProxyEntries } from './hosts';
import { appendToNoProxy, coveringCidrs, requestsOnly } from './proxy';

/**
 * A CIDR range in `no_proxy` (`10.0.0.0/8`). httpx (and so the openai SDK) and urllib match
 * `no_proxy` entries by host name only (httpx `get_environment_proxies`; urllib
 * `proxy_bypass_environment`), so requests to hosts inside the range still go through the proxy,
 * which usually cannot reach cluster-internal addresses. `requests` does honour CIDR ranges
 * (`should_bypass_proxies`); Python files whose only client is `requests` are not flagged.
 */
export default defineRule({
  meta: {
    id: 'proxy-no-proxy-cidr',
    title: 'no_proxy holds a CIDR range, which httpx/openai/urllib ignore',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      hosts: '{key} entry {cidr} is a CIDR range; httpx (the openai SDK) and urllib match no_proxy by host name only, so requests to {hosts} still go through the proxy. List those hosts in {key}',
      range: '{key} entry {cidr} is a CIDR range; httpx (the openai SDK) and urllib match no_proxy by host name only, so hosts in that range still go through the proxy. List the hosts themselves',
      'fix.append': 'Add {hosts} to {key}',
    },
    'zh-CN': {
      hosts: '{key} 中的 {cidr} 是 CIDR 网段；httpx（openai SDK）和 urllib 只按主机名匹配 no_proxy，发往 {hosts} 的请求仍会经过代理。请把这些主机写进 {key}',
      range: '{key} 中的 {cidr} 是 CIDR 网段；httpx（openai SDK）和 urllib 只按主机名匹配 no_proxy，该网段内的主机仍会经过代理。请直接列出这些主机',
      'fix.append': '把 {hosts} 加入 {key}',
    },
  },
  check({ document, extraction, resolution, report, locale }) {
    if (requestsOnly(document)) return;
    const dests = destinations(extraction);
    for (const setting of resolution.byRole('noProxy')) {
      if (setting.value === undefined) continue;
      const entries = noProxyEntries(setting.value);
      const cidrs = entries.filter(isCidrEntry);
      if (cidrs.length === 0) continue;
      const hosts = [...new Set(dests.filter((d) => coveringCidrs(cidrs, d.host).length > 0 && !entries.includes(d.host)).map((d) => d.host))];
      const source = document.text.slice(setting.contentRange.start, setting.contentRange.end);
      const at = source.indexOf(cidrs[0]);
      const range = at >= 0 ? { start: setting.contentRange.start + at, end: setting.contentRange.start + at + cidrs[0].length } : setting.contentRange;
      const edit = hosts.length > 0 ? appendToNoProxy(setting, hosts, document.text) : undefined;
      report({
        messageId: hosts.length > 0 ? 'hosts' : 'range',
        data: { key: setting.key, cidr: joinList(cidrs, locale), hosts: joinList(hosts, locale) },
        range,
        subject: subjectOf(setting),
        fixes: edit ? [{ titleId: 'fix.append', data: { hosts: hosts.join(','), key: setting.key }, safety: 'unsafe', edits: [edit] }] : [],
      });
    }
  },
});
