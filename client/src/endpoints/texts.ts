import { formatMessage, normalizeLocale } from '../../../server/src/core/messages/locale';

/** What the Rollout Endpoints view shows, in English and Simplified Chinese (`{name}` placeholders). */
const EN = {
  'row.description': '{file}:{line} · {consumer}',
  'row.from': 'value from {file}:{line}',
  'detail.baseUrl': 'base URL {key}: {url}',
  'detail.consumer': 'client: {consumer} ({via})',
  'detail.consumerUnknown': 'client: unknown (nothing visible reads this value)',
  'detail.key': 'key: {source}',
  'detail.noKey': 'key: none visible',
  'detail.model': 'model: {model}',
  'detail.noModel': 'model: not set here',
  'detail.logprobs.requested': 'log probs: requested by every request site in this file',
  'detail.logprobs.missing': 'log probs: a request site in this file does not ask for them',
  'detail.logprobs.unknown': 'log probs: no request site in this file',
  'detail.verified': 'last connection test ({time}): {url} answered',
  'detail.verifiedFix': 'last connection test ({time}): use {working} instead',
  'detail.notTested': 'not tested yet: use Test connection',
  'empty.none': 'No endpoint found in the workspace.',
  'empty.noServer': 'The Rollout Lint server is not running.',
};

type TextId = keyof typeof EN;

const ZH: Record<TextId, string> = {
  'row.description': '{file}:{line} · {consumer}',
  'row.from': '取值来自 {file}:{line}',
  'detail.baseUrl': 'base URL {key}：{url}',
  'detail.consumer': '客户端：{consumer}（{via}）',
  'detail.consumerUnknown': '客户端：未知（看不到读取此值的代码）',
  'detail.key': '密钥：{source}',
  'detail.noKey': '密钥：未找到',
  'detail.model': '模型：{model}',
  'detail.noModel': '模型：此处未设置',
  'detail.logprobs.requested': '对数概率：此文件中的每个请求都会请求',
  'detail.logprobs.missing': '对数概率：此文件中有请求未请求它',
  'detail.logprobs.unknown': '对数概率：此文件中没有请求',
  'detail.verified': '上次连接测试（{time}）：{url} 有响应',
  'detail.verifiedFix': '上次连接测试（{time}）：请改用 {working}',
  'detail.notTested': '尚未测试：请使用“测试连接”',
  'empty.none': '工作区中没有找到端点。',
  'empty.noServer': 'Rollout Lint 服务器未运行。',
};

/** The view's text for `id` in the UI language (`vscode.env.language`). */
export function viewText(language: string, id: TextId, data: Record<string, string | number> = {}): string {
  return formatMessage((normalizeLocale(language) === 'zh-CN' ? ZH : EN)[id], data);
}
