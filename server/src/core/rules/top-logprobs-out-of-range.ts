import { defineRule } from './rule';
import { subjectOf } from './util';
import { siteProvider, sitesBySetting } from './requests';
import { LineIndex } from '../positions';
import type { Setting } from '../model/types';
import type { ProviderProfile } from '../providers/profiles';

/** OpenAI API reference: chat `top_logprobs` is an integer 0–20; legacy completions `logprobs` at most 5. */
const CHAT_MAX = 20;
const COMPLETIONS_MAX = 5;

/**
 * A log-prob count outside what the OpenAI API accepts: chat (and Responses) `top_logprobs` outside
 * 0–20, legacy completions `logprobs` above 5. vLLM and SGLang enforce their own cap (vLLM
 * `--max-logprobs`, default 20) and answer 400 above it; when the same file raises such a cap the
 * message says so, and the finding stays, since nothing shows the cap reaches the serving engine.
 * When the request's provider is known (`siteProvider`) and its profile documents a `top_logprobs`
 * cap (`topLogprobsMax`, built-in or from `extraProviders`), chat values are judged against that cap
 * and the message names the provider; otherwise against the OpenAI range.
 * A Python variable or field default that no visible request sends (`top_logprobs: int = 100` in a
 * server's own pydantic request model) is only a hint; a URL of another API (`other`) is skipped.
 */
export default defineRule({
  meta: {
    id: 'top-logprobs-out-of-range',
    title: 'top_logprobs (or legacy completions logprobs) outside the range the API accepts',
    defaultSeverity: 'warning',
    formats: ['yaml', 'json', 'python', 'shell', 'toml'],
    fixable: false,
  },
  messages: {
    en: {
      chat: '{shown} is outside 0–{max}, the range the OpenAI chat API accepts; OpenAI-compatible servers answer 400 (vLLM caps it at --max-logprobs, default 20)',
      completions: 'logprobs={value} for the legacy completions API is above {max}, the OpenAI maximum; other servers cap it at their own --max-logprobs and answer 400 above it',
      provider: '{shown} is outside 0–{max}, the top_logprobs range {provider} documents for chat completions ({source}); it answers 400',
      capRaised: '{shown} is above {max}, the OpenAI-compatible limit; {capKey} {cap} on line {capLine} raises the server cap: make sure it reaches the engine that serves this request, or it answers 400',
    },
    'zh-CN': {
      chat: '{shown} 超出 OpenAI chat API 接受的 0–{max} 范围；兼容 OpenAI 的服务器会返回 400（vLLM 的上限是 --max-logprobs，默认 20）',
      completions: '旧版 completions API 的 logprobs={value} 超过 OpenAI 上限 {max}；其他服务器以各自的 --max-logprobs 为上限，超出会返回 400',
      provider: '{shown} 超出 {provider} 文档给出的 chat completions top_logprobs 范围 0–{max}（{source}）；它会返回 400',
      capRaised: '{shown} 超过兼容 OpenAI 的上限 {max}；第 {capLine} 行的 {capKey} {cap} 提高了服务器上限：请确认它作用于处理此请求的推理引擎，否则会返回 400',
    },
  },
  check({ document, extraction, resolution, report }) {
    const sites = sitesBySetting(extraction.requestSites);
    const caps = resolution.byRole('maxLogprobs').filter((s) => s.valueType === 'number' && s.value !== undefined);
    const lines = new LineIndex(document.text);
    const check = (setting: Setting, max: number, messageId: string, provider?: ProviderProfile) => {
      const n = Number(setting.value);
      if (setting.valueType !== 'number' || !Number.isFinite(n) || (Number.isInteger(n) && n >= 0 && n <= max)) return;
      if (messageId === 'completions' && n <= max) return;
      const cap = n > max && !provider ? caps.find((c) => Number(c.value) >= n) ?? caps[0] : undefined;
      report({
        messageId: provider ? 'provider' : cap ? 'capRaised' : messageId,
        data: {
          shown: setting.kind === 'flag' ? `${setting.key} ${setting.value}` : `${setting.key}=${setting.value}`,
          value: setting.value ?? '',
          max,
          ...(cap ? { capKey: cap.key, cap: cap.value ?? '', capLine: lines.positionAt(cap.keyRange.start).line + 1 } : {}),
          ...(provider ? { provider: provider.name, source: provider.sources?.topLogprobsMax ?? provider.source } : {}),
        },
        range: setting.valueRange,
        subject: subjectOf(setting),
        evidence: setting.kind === 'assignment' && !sites.has(setting) ? { strength: 'plausible', id: 'setting.unusedVariable', data: { key: setting.key } } : undefined,
      });
    };
    for (const setting of resolution.byRole('topLogprobs')) {
      const site = sites.get(setting);
      const kind = site?.apiKind;
      if (kind === 'completions' || kind === 'sglang-generate' || kind === 'other') continue;
      const provider = siteProvider(site, resolution)?.provider;
      if (provider?.topLogprobsMax !== undefined) check(setting, provider.topLogprobsMax, 'chat', provider);
      else check(setting, CHAT_MAX, 'chat');
    }
    for (const setting of resolution.byRole('logprobs')) {
      if (sites.get(setting)?.apiKind === 'completions' && setting.key === 'logprobs') check(setting, COMPLETIONS_MAX, 'completions');
    }
  },
});
