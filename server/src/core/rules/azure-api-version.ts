import { defineRule } from './rule';
import { joinList } from '../messages/locale';
import { replaceContent, shorten, subjectOf } from './util';
import type { Setting } from '../model/types';
import { isCodexBaseUrl } from '../resolve/consumers';
import { AZURE_OPENAI_API_VERSIONS, classifyAzureApiVersion, nearestAzureApiVersions } from '../providers/azure-api-versions';

/**
 * `?api-version=…` written into a base URL / Azure endpoint. The openai SDKs append the operation
 * path after the whole base string (openai-python `_enforce_trailing_slash` + `merge_url` on the raw
 * path; `AzureOpenAI` builds `{azure_endpoint}/openai/…`), so the query swallows the path and the
 * call 404s. `AzureOpenAI(api_version=…)` (or `OPENAI_API_VERSION`) adds it to every request instead
 * (openai-python `lib/azure.py`). This rule owns `api-version` queries; `base-url-query-string` skips them.
 * It also checks the value of an api-version setting Azure reads against the documented versions
 * (`providers/azure-api-versions.ts`): `api-version=` written inside the value (safe fix: keep the
 * version); a value that is not version-shaped (a model version such as `gpt-4o-2024-08-06`, `0613`)
 * or an impossible date (`2024-13-45`): an error when a known Azure client sends it, else a warning;
 * a real date that is no documented version (`2023-01-01`): a warning when a known Azure client sends
 * it, else a hint, naming the nearest documented versions; a date after the newest documented version
 * is a hint (Azure may have released it since). No fix: which version is meant cannot be known.
 */
/** A model name or model version (`gpt-4o-2024-08-06`, `0613`) written where the API version goes. */
const MODEL_VERSION = /^(gpt|o\d|text-|davinci|chatgpt)|^\d{4}$|[a-z]-\d{4}-\d{2}-\d{2}$/i;
/**
 * Callees that are Azure OpenAI clients: openai-python/-node `AzureOpenAI`/`AsyncAzureOpenAI`, LangChain
 * `AzureChatOpenAI`/`AzureOpenAIEmbeddings`, LlamaIndex `AzureOpenAI`/`AzureOpenAIEmbedding`, AutoGen
 * `AzureOpenAIChatCompletionClient`, Semantic Kernel `AzureChatCompletion`/`AzureTextCompletion`/
 * `AzureTextEmbedding`. Other Azure SDKs (AI Search, Document Intelligence) take their own `api_version`.
 */
const AZURE_OPENAI_CLIENT = /azure_?(chat_?)?openai|^Azure(Chat|Text)Completion$|^AzureTextEmbedding$/i;
const AZURE_HOST = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/i;

/**
 * An api-version setting that Azure OpenAI reads: `OPENAI_API_VERSION` (read only by `AzureOpenAI`),
 * an Azure OpenAI client's `api_version=`/`openai_api_version=` (`AZURE_OPENAI_CLIENT`), Codex `query_params` `api-version`, or one
 * beside an Azure endpoint. Other `api_version` keys belong to other services and are never read.
 */
function isAzureVersionSetting(setting: Setting, azureGroups: ReadonlySet<string>): boolean {
  if (setting.kind === 'env' || setting.kind === 'envDefault') return /^openai_api_version$/i.test(setting.key);
  if (setting.kind === 'kwarg') return AZURE_OPENAI_CLIENT.test((setting.callee ?? '').split('.').pop() ?? '');
  if (/(^|\.)query_params\.api-version$/.test(setting.path)) return true;
  return azureGroups.has(setting.group);
}

/**
 * Whether a known Azure client sends this value to Azure: an Azure OpenAI client's keyword argument,
 * `OPENAI_API_VERSION` (read only by `AzureOpenAI` and LangChain's Azure classes, openai-python
 * `lib/azure.py`), or Codex `query_params` of a provider whose base URL is an Azure host. A config
 * key beside an Azure endpoint, or Codex `query_params` of another host, has no visible Azure client.
 */
function sentByAzureClient(setting: Setting, azureGroups: ReadonlySet<string>): boolean {
  if (setting.kind === 'env' || setting.kind === 'envDefault' || setting.kind === 'kwarg') return true;
  return /(^|\.)query_params\.api-version$/.test(setting.path) && azureGroups.has(setting.group.replace(/\.query_params$/, ''));
}

const NEWEST_GA = [...AZURE_OPENAI_API_VERSIONS].reverse().find((v) => !v.endsWith('-preview'))!;
const NEWEST_PREVIEW = [...AZURE_OPENAI_API_VERSIONS].reverse().find((v) => v.endsWith('-preview'))!;

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
      prefixed: '{key} is "{value}": the value already starts with "api-version=", so the request carries api-version=api-version=…; Azure answers 400 (unsupported API version). Keep only "{version}"',
      'fix.unprefix': 'Keep only {version}',
      notVersion: '{key} is "{value}", which is not an Azure OpenAI API version (YYYY-MM-DD or YYYY-MM-DD-preview, e.g. {ga} or {preview}); Azure answers 400 (unsupported API version){model}',
      impossibleDate: '{key} is "{value}": no such date, so it is no Azure OpenAI API version; Azure answers 400 (unsupported API version). Documented versions include {ga} (GA) and {preview}',
      undocumented: '{key} is "{value}", which is not a documented Azure OpenAI API version; Azure answers 400 (unsupported API version). Nearest documented: {nearest}',
      newer: '{key} is "{value}", newer than the Azure OpenAI API versions Rollout Lint knows (up to {preview}); if Azure has not released it, requests get 400 (unsupported API version)',
      modelHint: '. It looks like a model version: the model goes in the deployment, not in api-version',
    },
    'zh-CN': {
      query: 'base URL "{value}" 带有 ?api-version={version}；SDK 会把路径拼在查询串之后，请求会返回 404。请给 AzureOpenAI 传 api_version="{version}"（或设置 OPENAI_API_VERSION），并从 URL 中删除它',
      'fix.drop': '从 URL 中删除 api-version（改为传 api_version="{version}"）',
      codex: 'base URL "{value}" 带有 ?api-version={version}；Codex 会把路径拼在查询串之后，请求会返回 404。请把它写进该 provider 的 query_params = { api-version = "{version}" }，并从 URL 中删除',
      'fix.dropCodex': '从 URL 中删除 api-version（改在 query_params 中设置）',
      prefixed: '{key} 的值是 "{value}"：值本身已以 "api-version=" 开头，请求会带上 api-version=api-version=…；Azure 会返回 400（不支持的 API 版本）。只保留 "{version}"',
      'fix.unprefix': '只保留 {version}',
      notVersion: '{key} 的值 "{value}" 不是 Azure OpenAI API 版本（应为 YYYY-MM-DD 或 YYYY-MM-DD-preview，例如 {ga} 或 {preview}）；Azure 会返回 400（不支持的 API 版本）{model}',
      impossibleDate: '{key} 的值 "{value}" 不是真实存在的日期，因此不是 Azure OpenAI API 版本；Azure 会返回 400（不支持的 API 版本）。已文档化的版本包括 {ga}（GA）和 {preview}',
      undocumented: '{key} 的值 "{value}" 不是文档中列出的 Azure OpenAI API 版本；Azure 会返回 400（不支持的 API 版本）。最接近的已文档化版本：{nearest}',
      newer: '{key} 的值 "{value}" 比 Rollout Lint 已知的 Azure OpenAI API 版本（最新为 {preview}）更新；如果 Azure 尚未发布该版本，请求会返回 400（不支持的 API 版本）',
      modelHint: '。它看起来像模型版本：模型由部署决定，不写在 api-version 里',
    },
  },
  check({ resolution, report, t, locale }) {
    const azureGroups = new Set(resolution.baseUrls.filter((b) => b.parsed && AZURE_HOST.test(b.parsed.host)).map((b) => b.setting.group));
    for (const setting of resolution.byRole('apiVersion')) {
      const value = setting.value?.trim();
      if (!value || !isAzureVersionSetting(setting, azureGroups)) continue;
      const prefix = /^api-version=/i.exec(value);
      if (prefix) {
        const version = value.slice(prefix[0].length).trim();
        report({
          messageId: 'prefixed',
          data: { key: setting.key, value: shorten(value), version },
          range: setting.contentRange,
          subject: subjectOf(setting),
          fixes: !['notVersion', 'impossibleDate'].includes(classifyAzureApiVersion(version)) ? [{ titleId: 'fix.unprefix', data: { version }, safety: 'safe', edits: [replaceContent(setting, version)] }] : [],
        });
        continue;
      }
      const kind = classifyAzureApiVersion(value);
      if (kind === 'documented') continue;
      const client = sentByAzureClient(setting, azureGroups);
      const severity = kind === 'newer' ? 'hint' : kind === 'undocumented' ? (client ? 'warning' : 'hint') : client ? 'error' : 'warning';
      report({
        messageId: kind,
        severity,
        data: {
          key: setting.key,
          value: shorten(value),
          ga: NEWEST_GA,
          preview: NEWEST_PREVIEW,
          nearest: joinList(nearestAzureApiVersions(value), locale),
          model: kind === 'notVersion' && MODEL_VERSION.test(value) ? t('modelHint') : '',
        },
        range: setting.contentRange,
        subject: subjectOf(setting),
      });
    }
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
