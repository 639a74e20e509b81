import type { ProbeConsumer, StepName, Verdict } from '../../../server/src/core/probe/types';
import { probeLocale } from './texts';

/**
 * Chinese words for the probe's codes, which the English report shows as they are (`ok`,
 * `not-found`, `dns`, `openai-sdk`: ids the CLI's JSON, the docs and bug reports share). The Chinese
 * report shows the word and keeps the id in parentheses (`正常（ok）`), so both can be searched for.
 */
const VERDICT_ZH: Record<Verdict, string> = {
  dns: '域名解析失败',
  'connection-refused': '连接被拒绝',
  tls: 'TLS 错误',
  timeout: '超时',
  proxy: '代理错误',
  'html-not-api': '返回的是网页而不是 API',
  'not-found': '地址不存在',
  unauthorized: '未授权',
  forbidden: '无权访问',
  'bad-request': '请求无效',
  'model-not-found': '模型不存在',
  'no-logprobs': '未返回 logprobs',
  paused: '已暂停',
  'rate-limited': '被限流',
  'server-error': '服务器错误',
  ok: '正常',
};

const STEP_ZH: Record<StepName, string> = {
  dns: '域名解析',
  connect: '建立连接',
  tls: 'TLS 握手',
  models: '模型列表',
  health: '健康检查',
  chat: '聊天请求',
  responses: 'Responses 请求',
  messages: 'Messages 请求',
  completions: '补全请求',
  generate: 'generate 请求',
  request: '请求',
  retry: '重试',
  variant: '改正后的地址',
};

const CONSUMER_ZH: Record<string, string> = {
  'openai-sdk': 'OpenAI SDK',
  'openai-responses': 'Responses API',
  anthropic: 'Anthropic SDK',
  'v1-appending': '自行追加 /v1 的客户端',
  raw: '按原样使用的地址',
  'sglang-native': 'SGLang 原生 API',
  unknown: '未知客户端',
};

function word(language: string, table: Record<string, string>, id: string): string {
  if (probeLocale(language) !== 'zh-CN') return id;
  const zh = Object.prototype.hasOwnProperty.call(table, id) ? table[id] : undefined;
  return zh ? `${zh}（${id}）` : id;
}

/** A verdict in the UI language: `ok` in English, `正常（ok）` in Chinese. */
export function verdictWord(language: string, verdict: string): string {
  return word(language, VERDICT_ZH, verdict);
}

/** A probe step's name in the UI language: `dns` in English, `域名解析（dns）` in Chinese. */
export function stepWord(language: string, step: string): string {
  return word(language, STEP_ZH, step);
}

/** A consumer id in the UI language: `openai-sdk` in English, `OpenAI SDK（openai-sdk）` in Chinese. */
export function consumerWord(language: string, consumer: ProbeConsumer | string): string {
  return word(language, CONSUMER_ZH, consumer);
}
