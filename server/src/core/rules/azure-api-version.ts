import { defineRule } from './rule';
import { replaceContent, shorten, subjectOf } from './util';
import { isCodexBaseUrl } from '../resolve/consumers';

/**
 * `?api-version=…` written into a base URL / Azure endpoint. The openai SDKs append the operation
 * path after the whole base string (openai-python `_enforce_trailing_slash` + `merge_url` on the raw
 * path; `AzureOpenAI` builds `{azure_endpoint}/openai/…`), so the query swallows the path and the
 * call 404s. `AzureOpenAI(api_version=…)` (or `OPENAI_API_VERSION`) adds it to every request instead
 * (openai-python `lib/azure.py`). This rule owns `api-version` queries; `base-url-query-string` skips them.
 */
export default defineRule({
  meta: {
    id: 'azure-api-version',
    title: 'api-version in the base URL instead of api_version=',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      query: 'base URL "{value}" carries ?api-version={version}; the SDK appends its path after the query, so requests 404. Pass api_version="{version}" to AzureOpenAI (or set OPENAI_API_VERSION) and drop it from the URL',
      'fix.drop': 'Remove api-version from the URL (pass api_version="{version}" instead)',
      codex: 'base URL "{value}" carries ?api-version={version}; Codex appends its path after the query, so requests 404. Put it in query_params = { api-version = "{version}" } of this provider and drop it from the URL',
      'fix.dropCodex': 'Remove api-version from the URL (set it in query_params instead)',
    },
    'zh-CN': {
      query: 'base URL "{value}" 带有 ?api-version={version}；SDK 会把路径拼在查询串之后，请求会返回 404。请给 AzureOpenAI 传 api_version="{version}"（或设置 OPENAI_API_VERSION），并从 URL 中删除它',
      'fix.drop': '从 URL 中删除 api-version（改为传 api_version="{version}"）',
      codex: 'base URL "{value}" 带有 ?api-version={version}；Codex 会把路径拼在查询串之后，请求会返回 404。请把它写进该 provider 的 query_params = { api-version = "{version}" }，并从 URL 中删除',
      'fix.dropCodex': '从 URL 中删除 api-version（改在 query_params 中设置）',
    },
  },
  check({ resolution, report }) {
    for (const { setting, parsed, consumers } of resolution.baseUrls) {
      if (!parsed || parsed.query === undefined || setting.value === undefined) continue;
      if (consumers.length > 0 && consumers.every((c) => c.id === 'raw' && c.appendedPath === undefined)) continue;
      const pairs = parsed.query.split('&').filter((p) => p.length > 0);
      const version = pairs.find((p) => p.split('=')[0].toLowerCase() === 'api-version');
      if (!version) continue;
      const v = setting.value.trim();
      const keep = pairs.filter((p) => p !== version);
      const hash = parsed.hash !== undefined ? `#${parsed.hash}` : '';
      const fixed = v.slice(0, v.indexOf('?')) + (keep.length ? `?${keep.join('&')}` : '') + hash;
      const versionValue = version.includes('=') ? version.slice(version.indexOf('=') + 1) : '';
      const codex = isCodexBaseUrl(setting);
      report({
        messageId: codex ? 'codex' : 'query',
        data: { value: shorten(v), version: versionValue },
        range: setting.contentRange,
        subject: subjectOf(setting),
        fixes: [{ titleId: codex ? 'fix.dropCodex' : 'fix.drop', data: { version: versionValue }, safety: 'unsafe', edits: [replaceContent(setting, fixed)] }],
      });
    }
  },
});
