import { defineRule } from './rule';
import { shorten, subjectOf } from './util';
import { isPrivateHost } from '../model/hosts';
import { plainHttpServer } from '../evidence/local-server';
import { parseBaseUrl } from '../resolve/urls';
import { findVerified, worksAsConfigured } from '../model/verified';
import { providerName, providerNames } from '../providers/profiles';


/**
 * The scheme does not match the server: `https://` to a loopback/LAN address on a local server's
 * default plain-HTTP port (the TLS handshake meets plain HTTP and fails: "wrong version number",
 * `SSL: WRONG_VERSION_NUMBER`), or `http://` to a hosted provider that serves only HTTPS (the
 * connection is refused or redirected, and a redirected POST arrives as a GET). `https://` to a
 * loopback/LAN address on any other port is a hint (it may have TLS in front), a warning once a probe
 * reached it only over `http://`, and nothing once a probe reached it as written. A URL under another
 * name (`LLM_ENDPOINT=https://127.0.0.1:11434/v1`) is reported when its port alone names the server
 * (`plainHttpServer`).
 */
export default defineRule({
  meta: {
    id: 'base-url-scheme-mismatch',
    title: 'https:// to a plain-HTTP local server, or http:// to an HTTPS-only provider',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      tlsToPlain: 'base URL "{value}" uses https:// for {host}:{port}, the default port of {server}, which speaks plain HTTP; the TLS handshake will fail (SSL: WRONG_VERSION_NUMBER). Use http:// unless you put TLS in front of it',
      plainToTls: 'base URL "{value}" uses http:// for {provider}, which serves its API over HTTPS only; the connection fails or is redirected (a redirected POST becomes a GET). Use https://',
      'fix.scheme': 'Use {scheme}://',
      tlsToPrivate: 'base URL "{value}" uses https:// for the local address {host}; local servers (SGLang, vLLM, Ollama) speak plain HTTP unless set up with TLS, and then the handshake fails with "wrong version number". Use http:// unless this server has a certificate; {testConnection} tells',
      tlsToPrivateVerified: 'base URL "{value}" uses https:// for the local address {host}, but Test Connection reached it only over http:// ({working}); use http://',
      tlsToPlainUrl: '{key} "{value}" uses https:// for {host}:{port}, the default port of {server}, which speaks plain HTTP; the TLS handshake will fail (SSL: WRONG_VERSION_NUMBER). Use http:// unless you put TLS in front of it',
    },
    'zh-CN': {
      tlsToPlain: 'base URL "{value}" 对 {host}:{port} 使用了 https://，而这是{server}（纯 HTTP）的默认端口；TLS 握手会失败（SSL: WRONG_VERSION_NUMBER）。除非前面另有 TLS 代理，请改用 http://',
      plainToTls: 'base URL "{value}" 对 {provider} 使用了 http://，而它只通过 HTTPS 提供 API；连接会失败或被重定向（重定向后的 POST 会变成 GET）。请改用 https://',
      'fix.scheme': '改用 {scheme}://',
      tlsToPrivate: 'base URL "{value}" 对本地地址 {host} 使用了 https://；本地服务器（SGLang、vLLM、Ollama）除非配置了 TLS，否则只说纯 HTTP，握手会以 "wrong version number" 失败。除非该服务器有证书，请改用 http://；可用 {testConnection} 验证',
      tlsToPrivateVerified: 'base URL "{value}" 对本地地址 {host} 使用了 https://，但测试连接只能通过 http:// 访问它（{working}）；请改用 http://',
      tlsToPlainUrl: '{key} "{value}" 对 {host}:{port} 使用了 https://，而这是 {server}（纯 HTTP）的默认端口；TLS 握手会失败（SSL: WRONG_VERSION_NUMBER）。除非前面另有 TLS 代理，请改用 http://',
    },
  },
  check({ document, extraction, resolution, report, verified, locale }) {
    // A URL under any other name (`LLM_ENDPOINT`, `ollama_url`) meets the same server when its port names one (`plainHttpServer`).
    for (const setting of extraction.settings) {
      if (setting.role === 'baseUrl' || setting.value === undefined) continue;
      const parsed = parseBaseUrl(setting.value);
      const server = parsed && plainHttpServer(parsed, setting.key, false);
      if (!parsed || !server) continue;
      const source = document.text.slice(setting.contentRange.start, setting.contentRange.end);
      const lead = source.length - source.trimStart().length;
      const schemeRange = { start: setting.contentRange.start + lead, end: setting.contentRange.start + lead + parsed.scheme.length };
      if (document.text.slice(schemeRange.start, schemeRange.end).toLowerCase() !== parsed.scheme) continue;
      report({
        messageId: 'tlsToPlainUrl',
        data: { key: setting.key, value: shorten(setting.value.trim()), host: parsed.host, port: parsed.port, server },
        range: schemeRange,
        subject: subjectOf(setting),
        fixes: [{ titleId: 'fix.scheme', data: { scheme: 'http' }, safety: 'unsafe', edits: [{ range: schemeRange, text: 'http' }] }],
      });
    }
    for (const base of resolution.baseUrls) {
      const { setting, parsed } = base;
      if (!parsed || setting.value === undefined) continue;
      const source = document.text.slice(setting.contentRange.start, setting.contentRange.end);
      const lead = source.length - source.trimStart().length;
      const schemeRange = { start: setting.contentRange.start + lead, end: setting.contentRange.start + lead + parsed.scheme.length };
      if (document.text.slice(schemeRange.start, schemeRange.end).toLowerCase() !== parsed.scheme) continue;
      const value = shorten(setting.value.trim());
      if (plainHttpServer(parsed, setting.key, true)) {
        const server = providerNames(base.providers.filter((p) => p.localPorts), locale) || (locale === 'zh-CN' ? '本地服务器' : 'a local server');
        report({
          messageId: 'tlsToPlain',
          data: { value, host: parsed.host, port: parsed.port, server },
          range: schemeRange,
          subject: subjectOf(setting),
          fixes: [{ titleId: 'fix.scheme', data: { scheme: 'http' }, safety: 'unsafe', edits: [{ range: schemeRange, text: 'http' }] }],
        });
      } else if (parsed.scheme === 'https' && isPrivateHost(parsed.host)) {
        const proofs = base.consumers.map((c) => findVerified(verified, setting.value?.trim() ?? '', c.id)).filter((p) => p !== undefined);
        if (proofs.some(worksAsConfigured)) continue;
        const plain = proofs.find((p) => p.workingBaseUrl.toLowerCase().startsWith('http://'));
        report({
          severity: plain ? 'warning' : 'hint',
          messageId: plain ? 'tlsToPrivateVerified' : 'tlsToPrivate',
          data: { value, host: parsed.host, working: plain?.workingBaseUrl ?? '' },
          range: schemeRange,
          subject: subjectOf(setting),
          fixes: [{ titleId: 'fix.scheme', data: { scheme: 'http' }, safety: 'unsafe', edits: [{ range: schemeRange, text: 'http' }] }],
        });
      } else if (parsed.scheme === 'http' && (parsed.port === '' || parsed.port === '80')) {
        const provider = base.providers.find((p) => p.hosts.length > 0 && p.openaiBases.every((b) => b.startsWith('https://')));
        if (!provider) continue;
        report({
          messageId: 'plainToTls',
          data: { value, provider: providerName(provider, locale) },
          range: schemeRange,
          subject: subjectOf(setting),
          fixes: [{ titleId: 'fix.scheme', data: { scheme: 'https' }, safety: 'unsafe', edits: [{ range: schemeRange, text: 'https' }] }],
        });
      }
    }
  },
});
