import { formatMessage, type Locale } from '../core/messages/locale';

/** Texts the language server shows besides rule messages (code actions, hover, lens, progress). */
const EN = {
  'action.unsafe': '{title} (unsafe: check who reads this value)',
  'action.fixAllRule': 'Fix all {ruleId} problems in this file',
  'action.fixAllSafe': 'Fix all safely fixable Rollout Lint problems',
  'action.disableLine': 'Disable {ruleId} for this line',
  'action.disableInConfig': 'Disable {ruleId} in .rolloutlintrc.json',
  'action.showDocs': 'Show documentation for {ruleId}',
  'lens.testConnection': 'Test connection',
  'progress.title': 'Rollout Lint',
  'progress.scanning': 'checking {done}/{total} files',
  'hover.baseUrl': 'base URL {key}',
  'hover.provider': 'Provider: {name} ([docs]({docs}))',
  'hover.noProvider': 'Provider: not one Rollout Lint knows (add it with `rolloutLint.extraProviders`)',
  'hover.providerFacts': 'Documented OpenAI-style base: {bases} · log probs in chat completions: {logprobs}',
  'hover.logprobs.supported': 'supported',
  'hover.logprobs.no': 'not returned',
  'hover.logprobs.unknown': 'not documented',
  'hover.requests': 'Chat requests go to:',
  'hover.request': '- {consumer} ({via}): {url}',
  'hover.sendsNothing': 'no request (the client cannot parse this URL)',
  'hover.consumerUnknown':
    'Consumer unknown: nothing in this file shows which client reads this URL, so Rollout Lint cannot tell the request URL. Run {testConnection} to see what the server answers.',
  'hover.ifOpenAiSdk': 'Read by the openai SDK it would be {url}.',
  'hover.verifiedWorks': 'The connection test verified at {time}: {url} answered for the {consumer}.',
  'hover.verifiedFix': 'The connection test verified at {time}: this base does not answer for the {consumer}, {working} does ({url} answered).',
  'hover.notLiteral': 'The value is not a literal URL here, so no request URL can be computed.',
  'hover.apiKey': 'API key {key}',
  'hover.keyValue': 'Value: {masked} ({length} chars)',
  'hover.keyEmpty': 'Value: empty',
  'hover.keyDynamic': 'The value is not a literal here (a variable or a call); it is read at run time.',
  'hover.loadersKeep': 'Leading/trailing whitespace is kept by: {loaders}',
  'hover.loadersTrim': 'No loader keeps leading or trailing whitespace in this value.',
  'hover.loadersDrop': 'Dropped or rejected by: {loaders}',
  'hover.edgeWhitespace': 'The value has leading or trailing whitespace inside the quotes; every client sends it.',
  'hover.envRead': 'environment variable {name}',
  'hover.envValues': 'Values from the .env files in this folder:',
  'hover.envValue': '- {file}: {value}',
  'hover.envNone': 'No .env file in this folder defines {name}.',
  'hover.envDefault': 'Default in code: {value}',
  'hover.envNoDefault': 'No default in code: unset means the client falls back to its own default.',
  'hover.evidence': '`{ruleId}` ({severity}) · why: {evidence}',
  'severity.error': 'error',
  'severity.warning': 'warning',
  'severity.hint': 'hint',
  'hover.envChain': 'Definitions in load order (the first that applies wins):',
  'hover.envChainEntry': '{n}. {file} {value} · {reason}',
  'hover.envNowhere': 'No file in this workspace defines {name}: its value comes from the environment the process is started in.',
  'chain.process': 'process environment (export, Compose, settings.json)',
  'chain.override': 'dotenv with override=True (wins over the process environment)',
  'chain.dotenv-local': '.env.local (dotenv-flow, Vite, Next.js)',
  'chain.dotenv-mode': '.env.<mode>',
  'chain.dotenv': '.env (python-dotenv, dotenv)',
  'chain.env-file': 'loaded only when named (env_file:, --env-file)',
  'chain.service-env-file': 'named in a Compose service\'s env_file:',
  'chain.elsewhere': 'not loaded for this file (another folder)',
  'chain.template': 'template, never loaded',
  'consumer.openai-sdk': 'openai SDK',
  'consumer.openai-responses': 'OpenAI Responses API',
  'consumer.anthropic': 'Anthropic client',
  'consumer.v1-appending': 'code that appends a path',
  'consumer.raw': 'used as written',
  'consumer.sglang-native': 'SGLang native API',
} as const;

export type ServerMessageId = keyof typeof EN;

const ZH: Record<ServerMessageId, string> = {
  'action.unsafe': '{title}（不安全：请确认谁读取这个值）',
  'action.fixAllRule': '修复此文件中所有 {ruleId} 问题',
  'action.fixAllSafe': '修复所有可安全修复的 Rollout Lint 问题',
  'action.disableLine': '对此行禁用 {ruleId}',
  'action.disableInConfig': '在 .rolloutlintrc.json 中禁用 {ruleId}',
  'action.showDocs': '查看 {ruleId} 的文档',
  'lens.testConnection': '测试连接',
  'progress.title': 'Rollout Lint',
  'progress.scanning': '正在检查 {done}/{total} 个文件',
  'hover.baseUrl': 'base URL {key}',
  'hover.provider': '服务商：{name}（[文档]({docs})）',
  'hover.noProvider': '服务商：Rollout Lint 不认识（可用 `rolloutLint.extraProviders` 添加）',
  'hover.providerFacts': '文档给出的 OpenAI 风格 base：{bases} · chat completions 的 logprobs：{logprobs}',
  'hover.logprobs.supported': '支持',
  'hover.logprobs.no': '不返回',
  'hover.logprobs.unknown': '文档未说明',
  'hover.requests': '聊天请求会发往：',
  'hover.request': '- {consumer}（{via}）：{url}',
  'hover.sendsNothing': '不会发出请求（客户端无法解析该 URL）',
  'hover.consumerUnknown':
    '使用方未知：此文件中看不出是哪个客户端读取这个 URL，因此 Rollout Lint 无法确定请求 URL。运行 {testConnection} 可查看服务器的实际响应。',
  'hover.ifOpenAiSdk': '如果由 openai SDK 读取，请求 URL 是 {url}。',
  'hover.verifiedWorks': '测试连接已于 {time} 验证：{url} 对 {consumer} 应答正常。',
  'hover.verifiedFix': '测试连接已于 {time} 验证：此 base 对 {consumer} 不应答，{working} 可以（{url} 已应答）。',
  'hover.notLiteral': '这里的值不是字面 URL，无法计算请求 URL。',
  'hover.apiKey': 'API 密钥 {key}',
  'hover.keyValue': '值：{masked}（{length} 个字符）',
  'hover.keyEmpty': '值：空',
  'hover.keyDynamic': '这里的值不是字面量（变量或函数调用），在运行时读取。',
  'hover.loadersKeep': '会保留首尾空白的加载器：{loaders}',
  'hover.loadersTrim': '没有加载器会保留这个值的首尾空白。',
  'hover.loadersDrop': '会丢弃或拒绝这一行的加载器：{loaders}',
  'hover.edgeWhitespace': '引号内的值含有首尾空白；所有客户端都会原样发送。',
  'hover.envRead': '环境变量 {name}',
  'hover.envValues': '此文件夹中 .env 文件给出的值：',
  'hover.envValue': '- {file}：{value}',
  'hover.envNone': '此文件夹中没有 .env 文件定义 {name}。',
  'hover.envDefault': '代码中的默认值：{value}',
  'hover.envNoDefault': '代码中没有默认值：未设置时客户端使用它自己的默认值。',
  'hover.evidence': '`{ruleId}`（{severity}）· 依据：{evidence}',
  'severity.error': '错误',
  'severity.warning': '警告',
  'severity.hint': '提示',
  'hover.envChain': '按加载顺序列出的定义（第一个生效的胜出）：',
  'hover.envChainEntry': '{n}. {file} {value} · {reason}',
  'hover.envNowhere': '此工作区中没有文件定义 {name}：它的值来自启动进程时的环境。',
  'chain.process': '进程环境（export、Compose、settings.json）',
  'chain.override': 'override=True 的 dotenv（覆盖进程环境）',
  'chain.dotenv-local': '.env.local（dotenv-flow、Vite、Next.js）',
  'chain.dotenv-mode': '.env.<mode>',
  'chain.dotenv': '.env（python-dotenv、dotenv）',
  'chain.env-file': '仅在被指定时加载（env_file:、--env-file）',
  'chain.service-env-file': 'Compose 服务的 env_file: 中指定',
  'chain.elsewhere': '不为此文件加载（其他文件夹）',
  'chain.template': '模板，从不加载',
  'consumer.openai-sdk': 'openai SDK',
  'consumer.openai-responses': 'OpenAI Responses API',
  'consumer.anthropic': 'Anthropic 客户端',
  'consumer.v1-appending': '自行拼接路径的代码',
  'consumer.raw': '按原样使用',
  'consumer.sglang-native': 'SGLang 原生 API',
};

const BUNDLES: Record<Locale, Record<ServerMessageId, string>> = { en: EN, 'zh-CN': ZH };

/** Renders a server text in `locale`; `{name}` placeholders are filled from `data`. */
export function say(locale: Locale, id: ServerMessageId, data: Record<string, string | number> = {}): string {
  return formatMessage(BUNDLES[locale][id], data, locale);
}

/** The ids of both bundles, for the test that keeps them in step. */
export function serverMessageIds(locale: Locale): string[] {
  return Object.keys(BUNDLES[locale]);
}

/** A Markdown code span that survives backticks in `text`. */
export function code(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || text === '' ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
