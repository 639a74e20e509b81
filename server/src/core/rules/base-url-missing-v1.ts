import { defineRule } from './rule';
import type { Setting } from '../model/types';
import { replaceContent, shorten, subjectOf } from './util';
import { sdkJoin, withPath } from '../resolve/urls';
import { findVerified, worksAsConfigured } from '../model/verified';
import { isLocalHost } from '../model/hosts';
import { serverOnPort } from '../evidence/local-server';
import { hostMatches, providerName, splitDocumentedUrl } from '../providers/profiles';

/**
 * A base URL whose path lacks the API version its consumer needs:
 * - warning: the path is empty or `/`, the consumer joins OpenAI paths (`/chat/completions`,
 *   `/responses`), and no matching provider profile documents a version-less base (DeepSeek does);
 * - hint instead when an SDK reads the value and the host is neither local nor in any provider profile:
 *   several providers serve the OpenAI API at the root, so only a probe can tell; but a warning naming
 *   the server when the URL's port is a local inference server's default (`serverOnPort`: Ollama
 *   11434, vLLM 8000, SGLang 30000, LM Studio 1234, llama.cpp 8080 all serve under /v1);
 * - warning naming the documented base: the path is empty and the matching profile documents another
 *   path (DashScope `…/compatible-mode/v1`, Zhipu `…/api/paas/v4`, Groq `…/openai/v1`);
 * - hint: a provider profile documents a different base for this consumer (TaoToken's `…/api` under the
 *   OpenAI SDK calls `…/api/chat/completions`, while TaoToken documents `…/api/v1/chat/completions`).
 * Other version segments (`/v4`, `/v1beta/openai`, `/openai`) are never reported.
 * A connection probe result (`context.verified`) for the same base URL and consumer decides either way:
 * when the configured base answered, nothing is reported; when another base answered, the finding is a
 * warning whose fix is that proven base.
 */
/**
 * Settings an OpenAI SDK reads itself (env vars, constructor arguments, values code passes on). A
 * provider entry of a tool's config (openclaw.json, Codex, YAML) stays a warning: the tool documents
 * its base with the version.
 */
const SDK_READ_KINDS = new Set<Setting['kind']>(['env', 'envDefault', 'kwarg', 'assignment', 'dictEntry']);
/** The endpoint path at the end of a full request URL (OpenAI API reference: chat completions, responses, completions). */
const RAW_ENDPOINT = /\/(chat\/completions|responses|completions)\/?$/;

export default defineRule({
  meta: {
    id: 'base-url-missing-v1',
    title: 'Base URL has no /v1 where its client needs one',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      bare: 'base URL "{value}" has no path; {via} will call {url}, which OpenAI-compatible servers serve under /v1',
      profile: 'base URL "{value}": {via} will call {url}, but {provider} documents {documented}; verify with {testConnection}',
      bareServer: 'base URL "{value}" has no path; {via} will call {url}, but port {port} is the default of {server}, which serves its OpenAI-compatible API under /v1',
      bareUnknown: 'base URL "{value}" has no path; {via} will call {url}. Most OpenAI-compatible servers serve under /v1, a few at the root; verify with {testConnection}',
      'fix.append': 'Append /v1 to the base URL',
      'fix.documented': 'Use the documented base {documented}',
      verified: 'base URL "{value}": {via} calls {url}, which did not answer as an API in the connection test, while {verifiedUrl} did; use {working}',
      'fix.verified': 'Use the verified base {working}',
    },
    'zh-CN': {
      bare: 'base URL "{value}" 没有路径；{via} 会请求 {url}，而 OpenAI 兼容服务通常在 /v1 下提供接口',
      profile: 'base URL "{value}"：{via} 会请求 {url}，但 {provider} 文档给出的是 {documented}；可用 {testConnection} 验证',
      bareServer: 'base URL "{value}" 没有路径；{via} 会请求 {url}，但端口 {port} 是 {server} 的默认端口，它在 /v1 下提供 OpenAI 兼容接口',
      bareUnknown: 'base URL "{value}" 没有路径；{via} 会请求 {url}。多数 OpenAI 兼容服务在 /v1 下提供接口，少数在根路径；可用 {testConnection} 验证',
      'fix.append': '在 base URL 末尾追加 /v1',
      'fix.documented': '改用文档中的 base {documented}',
      verified: 'base URL "{value}"：{via} 会请求 {url}，测试连接时它没有作为 API 应答，而 {verifiedUrl} 应答了；请改用 {working}',
      'fix.verified': '改用已验证的 base {working}',
    },
  },
  check({ resolution, report, verified, locale }) {
    const apiVersions = resolution.byRole('apiVersion');
    for (const base of resolution.baseUrls) {
      const { setting, parsed } = base;
      if (!parsed || setting.value === undefined) continue;
      const sdk = base.requests.find((r) => r.consumer.id === 'openai-sdk' || r.consumer.id === 'openai-responses');
      // A full request URL used as written (curl, `requests.post("…/chat/completions")`): its base is the part before the endpoint.
      const raw = sdk ? undefined : base.requests.find((r) => r.consumer.id === 'raw' && r.consumer.appendedPath === undefined);
      const endpoint = raw ? RAW_ENDPOINT.exec(parsed.path)?.[0] : '';
      const request = sdk ?? raw;
      if (!request || endpoint === undefined) continue;
      // An api-version beside the base (Codex `query_params`, `?api-version=`) is Azure's dated API, served without /v1.
      if (/(^|&)api-version=/i.test(parsed.query ?? '') || apiVersions.some((a) => a.group === setting.group || a.group.startsWith(`${setting.group}.`))) continue;
      const v = setting.value.trim();
      const proof = findVerified(verified, v, request.consumer.id);
      if (proof && worksAsConfigured(proof)) continue;
      const reportProven = (): boolean => {
        if (!proof) return false;
        report({
          severity: 'warning',
          messageId: 'verified',
          data: { value: shorten(v), via: request.consumer.via, url: shorten(request.url, 100), verifiedUrl: shorten(proof.url, 100), working: proof.workingBaseUrl, verifiedAt: proof.at },
          range: setting.contentRange,
          subject: subjectOf(setting),
          fixes: [{ titleId: 'fix.verified', data: { working: proof.workingBaseUrl }, safety: 'unsafe', edits: [replaceContent(setting, proof.workingBaseUrl)] }],
        });
        return true;
      };
      const profileBases = base.providers.flatMap((p) => p.openaiBases.map((b) => ({ provider: p, base: b, parsed: splitDocumentedUrl(b) })));
      const host = parsed.host.toLowerCase();
      const sameHost = (b: (typeof profileBases)[number]) => b.parsed !== undefined && ((b.provider.localPorts?.length ?? 0) > 0 || hostMatches(b.parsed.host, host));
      const sameHostPaths = profileBases.filter(sameHost).map((b) => b.parsed!.path);
      const path = parsed.path.slice(0, parsed.path.length - endpoint.length).replace(/\/+$/, '');
      /** Reports the documented base of `documented`'s provider (a warning for a bare host, else a hint). */
      const reportDocumented = (documented: (typeof profileBases)[number], severity: 'warning' | 'hint') => {
        const fixed = withPath(v, parsed, documented.parsed!.path + endpoint);
        const documentedBase = withPath(v, parsed, documented.parsed!.path);
        report({
          severity,
          messageId: 'profile',
          data: {
            value: shorten(v),
            via: request.consumer.via,
            url: shorten(request.url, 100),
            provider: providerName(documented.provider, locale),
            documented: sdkJoin(documentedBase, endpoint || (request.consumer.id === 'openai-responses' ? '/responses' : '/chat/completions')),
          },
          range: setting.contentRange,
          subject: subjectOf(setting),
          fixes: [{ titleId: 'fix.documented', data: { documented: fixed }, safety: 'unsafe', edits: [replaceContent(setting, fixed)] }],
        });
      };
      if (path === '' && sameHostPaths.length > 0 && !sameHostPaths.includes('') && !sameHostPaths.includes('/v1')) {
        // A provider whose documented base has another path (DashScope …/compatible-mode/v1, Zhipu …/api/paas/v4): name it.
        if (!reportProven()) reportDocumented(profileBases.find(sameHost)!, 'warning');
        continue;
      }
      if (path === '') {
        if (sameHostPaths.includes('') || reportProven()) continue;
        // A host no profile knows, on the default port of a local inference server: that server's /v1 (`serverOnPort`).
        const onPort = serverOnPort(parsed, base.providers);
        const unknownHost = !onPort && base.providers.length === 0 && !isLocalHost(parsed.host) && SDK_READ_KINDS.has(setting.kind);
        report({
          severity: unknownHost ? 'hint' : undefined,
          messageId: onPort ? 'bareServer' : unknownHost ? 'bareUnknown' : 'bare',
          data: { value: shorten(v), via: request.consumer.via, url: shorten(request.url, 100), server: onPort?.server ?? '', port: onPort?.port ?? '' },
          range: setting.contentRange,
          subject: subjectOf(setting),
          fixes: [{ titleId: 'fix.append', safety: 'unsafe', edits: [replaceContent(setting, withPath(v, parsed, `/v1${endpoint}`))] }],
        });
        continue;
      }
      if (sameHostPaths.length === 0 || sameHostPaths.includes(path)) continue;
      const documented = profileBases.find((b) => sameHost(b) && b.parsed!.path.startsWith(path));
      if (documented && !reportProven()) reportDocumented(documented, 'hint');
    }
  },
});
