import { defineRule } from './rule';
import { subjectOf } from './util';
import { logprobsState } from './requests';

/**
 * `top_logprobs: null` (`None`) beside `logprobs: true`. vLLM builds its sampling parameters with
 * `logprobs=self.top_logprobs if self.logprobs else None` (vllm/entrypoints/openai/protocol.py,
 * ChatCompletionRequest.to_sampling_params), so an explicit null turns log probs off again and the
 * response carries none.
 */
export default defineRule({
  meta: {
    id: 'top-logprobs-null',
    title: 'top_logprobs is null beside logprobs: true (vLLM then returns no log probs)',
    defaultSeverity: 'warning',
    formats: ['yaml', 'json', 'python', 'shell'],
    fixable: 'safe',
  },
  messages: {
    en: {
      null: 'top_logprobs is {value} beside logprobs={logprobs}; vLLM passes top_logprobs on as the log-prob count, so the response carries no log probs',
      'fix.zero': 'Set top_logprobs to 0 (log prob of the sampled token only)',
    },
    'zh-CN': {
      null: 'top_logprobs 为 {value}，而 logprobs={logprobs}；vLLM 把 top_logprobs 当作 logprobs 数量传下去，响应中不会有 logprobs',
      'fix.zero': '将 top_logprobs 设为 0（只返回采样 token 的 logprobs）',
    },
  },
  check({ document, extraction, report }) {
    for (const site of extraction.requestSites) {
      const top = site.params.top_logprobs;
      const logprobs = site.params.logprobs;
      if (top?.valueType !== 'null' || logprobs?.valueType !== 'boolean' || logprobsState(logprobs) !== 'on') continue;
      const bare = top.valueRange.start === top.valueRange.end && document.text[top.valueRange.start - 1] === ':';
      report({
        messageId: 'null',
        data: { value: top.raw || 'null', logprobs: logprobs.raw },
        range: top.valueRange,
        subject: subjectOf(top),
        fixes: [{ titleId: 'fix.zero', safety: 'safe', edits: [{ range: { ...top.valueRange }, text: bare ? ' 0' : '0' }] }],
      });
    }
  },
});
