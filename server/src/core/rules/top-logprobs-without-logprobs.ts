import { defineRule } from './rule';
import { siteSubject } from './util';
import { enableLogprobs, isCliFlags, literal, logprobsState, parameterText } from './requests';

/**
 * `top_logprobs` on a request that does not set `logprobs: true`. OpenAI API reference (chat
 * completions, `top_logprobs`): "logprobs must be set to true if this parameter is used"; OpenAI and
 * vLLM answer 400. Not for a script's own CLI flags, whose meaning the script decides.
 */
export default defineRule({
  meta: {
    id: 'top-logprobs-without-logprobs',
    title: 'top_logprobs without logprobs: true (the API answers 400)',
    defaultSeverity: 'error',
    formats: ['yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'safe',
  },
  messages: {
    en: {
      missing: 'top_logprobs={value} without logprobs; the API requires logprobs to be true when top_logprobs is used and answers 400',
      off: 'top_logprobs={value} while logprobs is {logprobs}; the API requires logprobs to be true when top_logprobs is used and answers 400',
      'fix.add': 'Add {text}',
      'fix.enable': 'Set logprobs to {value}',
    },
    'zh-CN': {
      missing: '设置了 top_logprobs={value} 却没有设置 logprobs；使用 top_logprobs 时 API 要求 logprobs 为 true，否则返回 400',
      off: '设置了 top_logprobs={value}，但 logprobs 为 {logprobs}；使用 top_logprobs 时 API 要求 logprobs 为 true，否则返回 400',
      'fix.add': '添加 {text}',
      'fix.enable': '将 logprobs 设为 {value}',
    },
  },
  check({ document, extraction, report }) {
    for (const site of extraction.requestSites) {
      if (site.apiKind !== 'chat' && site.apiKind !== 'unknown') continue;
      if (isCliFlags(site)) continue;
      const top = site.params.top_logprobs;
      if (!top || top.valueType === 'null') continue;
      const setting = site.params.logprobs;
      const state = logprobsState(setting);
      if (state === 'on' || state === 'other') continue;
      const edit = enableLogprobs(site, document.text);
      const on = literal(site.format, true);
      const data: Record<string, string> = setting ? { value: on } : { text: parameterText(site, document.text, 'logprobs', on) };
      report({
        messageId: setting ? 'off' : 'missing',
        data: { value: top.raw, logprobs: setting?.raw ?? '' },
        range: top.keyRange,
        subject: siteSubject(site),
        fixes: edit ? [{ titleId: setting ? 'fix.enable' : 'fix.add', data, safety: 'safe', edits: [edit] }] : [],
      });
    }
  },
});
