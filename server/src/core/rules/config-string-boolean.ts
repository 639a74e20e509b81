import { defineRule } from './rule';
import { subjectOf } from './util';
import { normalizeKey } from '../resolve/roles';

/**
 * Keys that take a boolean, by source: OpenAI API reference (`logprobs`, `stream`, `echo`, `store`,
 * `parallel_tool_calls`); vLLM sampling parameters and engine arguments (`skip_special_tokens`,
 * `ignore_eos`, `include_stop_str_in_output`, `spaces_between_special_tokens`, `enforce_eager`,
 * `trust_remote_code`, `enable_prefix_caching`, `enable_chunked_prefill`, `add_generation_prompt`,
 * `continue_final_message`, `disable_log_stats`, `disable_log_requests`); SGLang native API and server
 * arguments (`return_logprob`, `return_text_in_logprobs`, `return_hidden_states`, `skip_tokenizer_init`,
 * `disable_radix_cache`, `enable_thinking`); TRL `GRPOConfig` (`use_vllm`, `vllm_enable_sleep_mode`);
 * Hugging Face `generate` (`do_sample`, `use_cache`); Hugging Face `TrainingArguments`
 * (`gradient_checkpointing`, `bf16`, `fp16`); verl PPO trainer config (`use_remove_padding`,
 * `enable_gradient_checkpointing`, `calculate_log_probs`, `use_dynamic_bsz`, `use_kl_loss`,
 * `use_kl_in_reward`, and `enable` on `reward_model` and friends).
 */
export const BOOLEAN_KEYS: ReadonlySet<string> = new Set([
  'logprobs', 'stream', 'echo', 'store', 'parallel_tool_calls',
  'skip_special_tokens', 'ignore_eos', 'include_stop_str_in_output', 'spaces_between_special_tokens',
  'enforce_eager', 'trust_remote_code', 'enable_prefix_caching', 'enable_chunked_prefill',
  'add_generation_prompt', 'continue_final_message', 'disable_log_stats', 'disable_log_requests',
  'return_logprob', 'return_text_in_logprobs', 'return_hidden_states', 'skip_tokenizer_init',
  'disable_radix_cache', 'enable_thinking',
  'use_vllm', 'vllm_enable_sleep_mode', 'do_sample', 'use_cache',
  'gradient_checkpointing', 'bf16', 'fp16',
  'use_remove_padding', 'enable_gradient_checkpointing', 'calculate_log_probs', 'use_dynamic_bsz', 'use_kl_loss', 'use_kl_in_reward', 'enable',
]);

/** True for a key (any case, `-` or `_`) that Rollout Lint knows takes a boolean. */
export function isBooleanKey(key: string): boolean {
  return BOOLEAN_KEYS.has(normalizeKey(key));
}

/**
 * `"true"`/`"false"` in quotes for a key that takes a boolean, in YAML or JSON. The parser yields a
 * string: `"false"` is truthy in Python, and JSON APIs reject a string where a boolean belongs.
 * YAML 1.1 `yes`/`no`/`on`/`off` (unquoted) are real booleans to PyYAML and are not flagged;
 * env maps are not checked (environment values are always strings).
 */
export default defineRule({
  meta: {
    id: 'config-string-boolean',
    title: 'Boolean written as a quoted string ("true"/"false") in YAML or JSON',
    defaultSeverity: 'warning',
    formats: ['yaml', 'json', 'toml'],
    fixable: 'safe',
  },
  messages: {
    en: {
      quoted: '{key} is the string {raw}, not a boolean: a quoted "false" is truthy in Python, and JSON APIs reject a string here. Write {bare} without quotes',
      'fix.unquote': 'Write {bare} without quotes',
    },
    'zh-CN': {
      quoted: '{key} 是字符串 {raw}，不是布尔值：带引号的 "false" 在 Python 中为真值，JSON API 也会拒绝这里的字符串。请去掉引号写成 {bare}',
      'fix.unquote': '去掉引号写成 {bare}',
    },
  },
  check({ document, extraction, report }) {
    for (const setting of extraction.settings) {
      if (setting.kind !== 'property' || setting.valueType !== 'string' || setting.quote === '') continue;
      const value = setting.value?.toLowerCase();
      if ((value !== 'true' && value !== 'false') || !isBooleanKey(setting.key)) continue;
      if (document.text[setting.valueRange.start] !== setting.quote) continue;
      report({
        messageId: 'quoted',
        data: { key: setting.key, raw: setting.raw, bare: value },
        range: setting.valueRange,
        subject: subjectOf(setting),
        fixes: [{ titleId: 'fix.unquote', data: { bare: value }, safety: 'safe', edits: [{ range: { ...setting.valueRange }, text: value }] }],
      });
    }
  },
});
