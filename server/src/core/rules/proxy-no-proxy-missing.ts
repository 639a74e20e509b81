import { defineRule } from './rule';
import { subjectOf } from './util';
import { destinations, noProxyMatches } from './hosts';
import { isPrivateHost } from '../model/hosts';
import { appendToNoProxy, coveringCidrs, proxyFor, proxySetup, requestsOnly } from './proxy';

/**
 * A proxy is set (`http_proxy`/`https_proxy`/`all_proxy`) and the same file sends requests to a
 * loopback or private address that `no_proxy` does not exempt. Python's urllib, httpx (the openai
 * SDK) and requests apply no default exemption for `localhost`/127.0.0.1 on Linux, so the request
 * goes to the proxy, which cannot reach the rollout server (502/503, or a hang until the timeout).
 * Hosts a CIDR entry meant to cover are left to `proxy-no-proxy-cidr`.
 */
export default defineRule({
  meta: {
    id: 'proxy-no-proxy-missing',
    title: 'Proxy set, but a private/loopback destination is not in no_proxy',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      missing: '{host} ({key}) is a loopback or private address, but {proxyKey} is set and no_proxy does not exempt it: requests go through the proxy, which cannot reach it (502/503 or a timeout). Add {host} to no_proxy',
      'fix.append': 'Add {host} to {key}',
    },
    'zh-CN': {
      missing: '{host}（{key}）是回环或内网地址，但设置了 {proxyKey} 而 no_proxy 没有豁免它：请求会经过代理，而代理无法访问它（502/503 或超时）。请把 {host} 加入 no_proxy',
      'fix.append': '把 {host} 加入 {key}',
    },
  },
  check({ document, extraction, resolution, config, report }) {
    const setup = proxySetup(resolution);
    if (setup.proxies.length === 0) return;
    const cidrRuleOn = config.rules['proxy-no-proxy-cidr'] !== 'off' && !requestsOnly(document);
    const seen = new Set<string>();
    for (const dest of destinations(extraction)) {
      if (!isPrivateHost(dest.host) || setup.proxies.includes(dest.setting)) continue;
      const proxy = proxyFor(setup, dest.scheme);
      if (!proxy || setup.entries.some((e) => noProxyMatches(e, dest.host))) continue;
      if (cidrRuleOn && coveringCidrs(setup.entries, dest.host).length > 0) continue;
      if (requestsOnly(document) && coveringCidrs(setup.entries, dest.host).length > 0) continue;
      const target = setup.noProxy[setup.noProxy.length - 1];
      const edit = target && !seen.has(dest.host) ? appendToNoProxy(target, [dest.host], document.text) : undefined;
      seen.add(dest.host);
      report({
        messageId: 'missing',
        data: { host: dest.host, key: dest.setting.key, proxyKey: proxy.key },
        range: dest.setting.contentRange,
        subject: subjectOf(dest.setting),
        fixes: edit ? [{ titleId: 'fix.append', data: { host: dest.host, key: target.key }, safety: 'unsafe', edits: [edit] }] : [],
      });
    }
  },
});
