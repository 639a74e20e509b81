import { defineRule, type FixReport } from './rule';
import { subjectOf } from './util';
import { insertParameter, literal } from './requests';
import type { TextEdit } from '../model/types';

/**
 * `logprobs` of the wrong type for the API the request goes to (OpenAI API reference): the chat API
 * takes a boolean (the count of alternatives is `top_logprobs`), the legacy completions API an
 * integer (the count itself). OpenAI answers 400; pydantic-based servers coerce 0/1 and reject the
 * rest. Quoted `"true"`/`"false"` in YAML/JSON belong to `config-string-boolean`; `logprobs=False`
 * on legacy completions (log probs off) is left to `logprobs-missing`.
 */
export default defineRule({
  meta: {
    id: 'logprobs-wrong-type',
    title: 'logprobs has the wrong type for the API (boolean for chat, integer for legacy completions)',
    defaultSeverity: 'warning',
    formats: ['yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      chatNumber: 'logprobs={value}: the chat completions API takes a boolean here (the number of alternatives goes in top_logprobs); the request is rejected with 400 or misread',
      chatString: 'logprobs={value} is a string: the chat completions API takes a boolean; the request is rejected with 400 or misread',
      completionsBoolean: 'logprobs={value}: the legacy completions API takes an integer (how many alternatives, 0–5), not a boolean; the request is rejected with 400 or misread',
      'fix.chat': 'Use logprobs={on}',
      'fix.chatTop': 'Use logprobs={on} and top_logprobs={count}',
      'fix.completions': 'Use logprobs=1',
    },
    'zh-CN': {
      chatNumber: 'logprobs={value}：chat completions API 的该参数是布尔值（候选数量应写在 top_logprobs）；请求会被 400 拒绝或被误读',
      chatString: 'logprobs={value} 是字符串：chat completions API 需要布尔值；请求会被 400 拒绝或被误读',
      completionsBoolean: 'logprobs={value}：旧版 completions API 需要整数（候选数量，0–5），而不是布尔值；请求会被 400 拒绝或被误读',
      'fix.chat': '改为 logprobs={on}',
      'fix.chatTop': '改为 logprobs={on} 并设置 top_logprobs={count}',
      'fix.completions': '改为 logprobs=1',
    },
  },
  check({ document, extraction, report }) {
    for (const site of extraction.requestSites) {
      const setting = site.params.logprobs;
      if (!setting || setting.valueRange.end <= setting.valueRange.start) continue;
      const base = { data: { value: setting.raw }, range: setting.valueRange, subject: subjectOf(setting) };
      if (site.apiKind === 'chat' && (setting.valueType === 'number' || setting.valueType === 'string')) {
        const on = literal(site.format, true);
        const replace: TextEdit = { range: { ...setting.valueRange }, text: on };
        const count = Number(setting.value);
        const top = setting.valueType === 'number' && Number.isInteger(count) && count > 1 && !site.params.top_logprobs ? insertParameter(site, document.text, 'top_logprobs', String(count)) : undefined;
        const fix: FixReport = top
          ? { titleId: 'fix.chatTop', data: { on, count }, safety: 'unsafe', edits: [replace, top] }
          : { titleId: 'fix.chat', data: { on }, safety: 'unsafe', edits: [replace] };
        report({ ...base, messageId: setting.valueType === 'number' ? 'chatNumber' : 'chatString', fixes: [fix] });
      } else if (site.apiKind === 'completions' && setting.valueType === 'boolean' && setting.value?.toLowerCase() === 'true') {
        report({ ...base, messageId: 'completionsBoolean', fixes: [{ titleId: 'fix.completions', safety: 'unsafe', edits: [{ range: { ...setting.valueRange }, text: '1' }] }] });
      }
    }
  },
});
