import { defineRule } from './rule';
import { shorten, siteSubject } from './util';
import { rolloutReason, siteProvider } from './requests';
import { providerName } from '../providers/profiles';

/**
 * A rollout request (DESIGN "Rollout requests") to a provider whose profile says its chat
 * completions return no log probs (Anthropic's OpenAI layer ignores `logprobs`; Groq rejects it with
 * 400): the trainer gets no `rollout_log_probs` whatever the request asks. A hint when the profile
 * says `unknown` (OpenRouter routes to models that may or may not return them).
 */
export default defineRule({
  meta: {
    id: 'logprobs-provider-unsupported',
    title: 'Rollout request goes to a provider that returns no log probs',
    defaultSeverity: 'warning',
    formats: ['yaml', 'json', 'python', 'shell', 'toml'],
    fixable: false,
  },
  messages: {
    en: {
      no: 'this rollout request goes to {provider} ({url}), which documents that chat completions return no log probs ({source}); the trainer gets no rollout_log_probs. Serve the policy from an engine that returns them (SGLang, vLLM)',
      unknown: 'this rollout request goes to {provider} ({url}), whose docs do not say whether chat completions return log probs; check with {testConnection} before training',
    },
    'zh-CN': {
      no: '此 rollout 请求发往 {provider}（{url}），其文档说明 chat completions 不返回 logprobs（{source}）；训练器拿不到 rollout_log_probs。请改用能返回它们的推理引擎（SGLang、vLLM）提供策略模型',
      unknown: '此 rollout 请求发往 {provider}（{url}），其文档未说明 chat completions 是否返回 logprobs；训练前请用 {testConnection} 确认',
    },
  },
  check({ document, extraction, resolution, config, report, locale }) {
    for (const site of extraction.requestSites) {
      if (site.apiKind === 'responses' || site.apiKind === 'sglang-generate') continue;
      // A config mapping is a request only when it carries the log-prob switch (`sampling: {logprobs: true}`).
      if (site.apiKind === 'unknown' && !site.params.logprobs && !site.params.top_logprobs) continue;
      if (!rolloutReason(site, document, config)) continue;
      const target = siteProvider(site, resolution);
      if (!target || target.provider.logprobs === 'supported') continue;
      const no = target.provider.logprobs === 'no';
      report({
        severity: no ? 'warning' : 'hint',
        messageId: no ? 'no' : 'unknown',
        data: { provider: providerName(target.provider, locale), url: shorten(target.url), source: target.provider.sources?.logprobs ?? target.provider.docsUrl },
        range: site.anchorRange,
        subject: no ? siteSubject(site) : `${siteSubject(site)}:provider`,
      });
    }
  },
});
