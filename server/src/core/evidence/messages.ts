import type { Locale } from '../messages/locale';

/** Evidence lines shown in hover and in `--format json` (`evidence`), one short sentence each. */
const EN = {
  'key.providerName': '{key} is an LLM endpoint key: its name names {provider}',
  'key.sameBlock': '{key} is an LLM endpoint key: it is set beside the base URL {baseKey}',
  'key.client': '{key} is an LLM endpoint key: it is passed to {client}',
  'key.modelPath': '{key} may be an LLM endpoint key: it sits under {path}; nothing else ties it to an endpoint',
  'key.generic': '{key} may be an LLM endpoint key: only its name says so',
  'key.dummySelfHosted': '{key} is a deliberate dummy value beside a self-hosted base URL ({baseKey}); servers started without --api-key accept any key',
  'key.dummy': '{key} holds a dummy value ("{value}"), the usual one for self-hosted servers that take no key',
  'key.emptyAzureAd': '{key} is empty beside Azure settings ({other}): an Azure client then authenticates with Azure AD (Entra ID) instead of a key',
  'key.emptyAlternative': '{key} is empty beside another credential ({other}) that the client uses instead',
  'key.emptyDefaults': '{key} is an empty default in {dict}, a table that environment variables overlay: empty means "not set"',
  'setting.role': '{key} is read as {role} from its name',
  'setting.unusedVariable': '{key} is a variable or a field default (a server\'s own request model); no request visibly sends it',
  'baseUrl.consumer': '{key} is read by {consumer} ({via})',
  'baseUrl.noConsumer': '{key} is read as a base URL from its name; no client reading it is visible',
  'baseUrl.vendorName': '{key} is the base URL of {provider} by its name; no client reading it is visible here',
  'baseUrl.provider': '{key} points at {provider}, a known provider',
  'host.destination': '{key} is used as a destination ({use})',
  'host.name': '{key} is read as a destination host from its name; its use is not visible in this file',
  'site.rollout': 'this is a rollout request: {reason}',
  'site.request': 'this is a request to the {api} API ({callee})',
  'parse.parser': 'reported by the {format} parser in a part that holds a setting Rollout Lint reads',
  'parse.grammar': 'the {format} grammar could not read a part that holds a setting Rollout Lint reads; valid code the grammar does not cover looks the same',
  'parse.duplicate': '{key} appears twice in one mapping and holds a setting Rollout Lint reads; PyYAML keeps the last one',
  text: 'from the {format} text at this position',
  'model.served': '{key} goes to {url}, which {launch} starts; its served model names are known from that line',
  'model.verified': '{key} goes to {url}, whose GET /models listed its models {when}',
} as const;

export type EvidenceId = keyof typeof EN;

const ZH: Record<EvidenceId, string> = {
  'key.providerName': '{key} 是 LLM 端点密钥：名称中带有 {provider}',
  'key.sameBlock': '{key} 是 LLM 端点密钥：它与 base URL {baseKey} 设置在同一处',
  'key.client': '{key} 是 LLM 端点密钥：它被传给 {client}',
  'key.modelPath': '{key} 可能是 LLM 端点密钥：它位于 {path} 下；没有其他依据把它与端点联系起来',
  'key.generic': '{key} 可能是 LLM 端点密钥：仅凭其名称判断',
  'key.dummySelfHosted': '{key} 是有意填写的占位值，旁边是自托管的 base URL（{baseKey}）；未设置 --api-key 的服务器接受任意密钥',
  'key.dummy': '{key} 是占位值（"{value}"），自托管且不需要密钥的服务器通常这样填写',
  'key.emptyAzureAd': '{key} 为空且旁边有 Azure 设置（{other}）：Azure 客户端此时改用 Azure AD（Entra ID）认证而不是密钥',
  'key.emptyAlternative': '{key} 为空，但旁边有客户端改用的另一凭据（{other}）',
  'key.emptyDefaults': '{key} 是 {dict} 中的空默认值，该表会被环境变量覆盖：空表示“未设置”',
  'setting.role': '根据名称，{key} 被视为 {role}',
  'setting.unusedVariable': '{key} 是变量或字段默认值（例如服务器自己的请求模型）；看不到有请求发送它',
  'baseUrl.consumer': '{key} 由 {consumer} 读取（{via}）',
  'baseUrl.noConsumer': '根据名称，{key} 被视为 base URL；看不到读取它的客户端',
  'baseUrl.vendorName': '根据名称，{key} 是 {provider} 的 base URL；此处看不到读取它的客户端',
  'baseUrl.provider': '{key} 指向已知服务商 {provider}',
  'host.destination': '{key} 被用作连接目标（{use}）',
  'host.name': '根据名称，{key} 被视为连接目标主机；本文件中看不到它的用法',
  'site.rollout': '这是 rollout 请求：{reason}',
  'site.request': '这是对 {api} API 的请求（{callee}）',
  'parse.parser': '由 {format} 解析器报告，出错部分含有 Rollout Lint 读取的设置',
  'parse.grammar': '{format} 语法无法读取含有 Rollout Lint 所读设置的部分；语法未覆盖的合法代码看起来也是这样',
  'parse.duplicate': '{key} 在同一映射中出现两次，且含有 Rollout Lint 读取的设置；PyYAML 保留后一个',
  text: '依据此处的 {format} 文本',
  'model.served': '{key} 发往 {url}，该服务由 {launch} 启动；其提供的模型名来自该启动行',
  'model.verified': '{key} 发往 {url}，其 GET /models 已于{when}列出模型',
};

export const EVIDENCE_MESSAGES: Record<Locale, Record<EvidenceId, string>> = { en: EN, 'zh-CN': ZH };

/** Field names of roles in evidence lines. */
export const ROLE_NAMES: Record<Locale, Record<string, string>> = {
  en: {
    baseUrl: 'a base URL', host: 'a destination host', port: 'a destination port', apiKey: 'an API key', header: 'an Authorization header',
    logprobs: 'a log-probs switch', topLogprobs: 'top_logprobs', model: 'a model name', proxy: 'a proxy', noProxy: 'no_proxy',
    maxLogprobs: 'a log-probs cap', apiType: 'an API type', apiVersion: 'an API version',
  },
  'zh-CN': {
    baseUrl: 'base URL', host: '连接目标主机', port: '连接目标端口', apiKey: 'API 密钥', header: 'Authorization 请求头',
    logprobs: 'log probs 开关', topLogprobs: 'top_logprobs', model: '模型名', proxy: '代理', noProxy: 'no_proxy',
    maxLogprobs: 'log probs 上限', apiType: 'API 类型', apiVersion: 'API 版本',
  },
};
