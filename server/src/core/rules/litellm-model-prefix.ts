import type { Setting } from '../model/types';
import { isLocalHost } from '../model/hosts';
import { parseBaseUrl } from '../resolve/urls';
import { matchProviders } from '../providers/profiles';
import { defineRule } from './rule';
import { isExampleFile, replaceContent, shorten, subjectOf } from './util';

/**
 * LiteLLM provider routes (`<route>/<model>`), from LiteLLM's provider docs
 * (https://docs.litellm.ai/docs/providers, one page per route). A first segment outside this list is
 * read as part of the model name.
 */
export const LITELLM_ROUTES: ReadonlySet<string> = new Set([
  'openai', 'text-completion-openai', 'custom_openai', 'openai_like', 'azure', 'azure_ai', 'azure_text', 'anthropic', 'hosted_vllm', 'vllm',
  'ollama', 'ollama_chat', 'huggingface', 'together_ai', 'openrouter', 'deepseek', 'groq', 'mistral', 'codestral', 'gemini', 'vertex_ai',
  'bedrock', 'bedrock_converse', 'sagemaker', 'sagemaker_chat', 'cohere', 'cohere_chat', 'replicate', 'fireworks_ai', 'deepinfra', 'perplexity',
  'xai', 'cerebras', 'sambanova', 'nvidia_nim', 'lm_studio', 'llamafile', 'dashscope', 'volcengine', 'moonshot', 'novita', 'litellm_proxy',
  'databricks', 'watsonx', 'watsonx_text', 'cloudflare', 'ai21', 'ai21_chat', 'nebius', 'github', 'friendliai', 'triton', 'predibase',
  'clarifai', 'baseten', 'featherless_ai', 'nscale', 'hyperbolic', 'lambda_ai', 'meta_llama', 'nlp_cloud', 'aleph_alpha', 'petals', 'anyscale',
  'infinity', 'jina_ai', 'voyage', 'xinference', 'oobabooga', 'topaz', 'galadriel', 'zai', 'minimax', 'openai_compatible', 'gradient_ai',
  'snowflake', 'datarobot', 'recraft', 'heroku', 'morph', 'lemonade', 'ovhcloud', 'v0', 'vercel_ai_gateway', 'wandb', 'github_copilot',
]);

/** Bare names LiteLLM maps to OpenAI itself (its OpenAI model lists): `gpt-4o`, `o3-mini`, `chatgpt-4o-latest`. */
const OPENAI_NAME = /^(gpt-|o[134](-|$)|chatgpt-|text-davinci|davinci|babbage|ft:)/i;

/** A LiteLLM call (`litellm.completion`, `acompletion`, `litellm.text_completion`) or a proxy `model_list[i].litellm_params` mapping. */
function isLiteLLMSetting(setting: Setting): boolean {
  if (setting.kind === 'kwarg') return /(^|\.)(a?completion|a?text_completion)$/.test(setting.callee ?? '') && /litellm|^a?completion$|^a?text_completion$/.test(setting.callee ?? '');
  return setting.kind === 'property' && /(^|\.)litellm_params\.model$/.test(setting.path);
}

/**
 * LiteLLM model strings checked against the `api_base` of the same call or `litellm_params` block,
 * per LiteLLM's OpenAI-compatible endpoints page (https://docs.litellm.ai/docs/providers/openai_compatible:
 * "Put `openai/` in front of your model name, so litellm knows you're trying to call an openai
 * `/chat/completions` endpoint"; "`text-completion-openai/` … an openai `/completions` endpoint") and
 * its vLLM page (https://docs.litellm.ai/docs/providers/vllm: `hosted_vllm/` for a vLLM server):
 * - a model with no route prefix (`Qwen/Qwen3-4B`, `policy`) beside a custom `api_base`: LiteLLM
 *   cannot tell the provider and raises `BadRequestError: LLM Provider NOT provided`;
 * - `hosted_vllm/` with an `api_base` of a known hosted provider (OpenAI, OpenRouter, TaoToken, …):
 *   that route is for a vLLM server; the provider's own route or `openai/` fits;
 * - `text-completion-openai/` in a call that passes chat `messages`: LiteLLM calls `/completions`
 *   with a prompt made from the messages (no chat template), and log probs come back in the legacy shape.
 */
export default defineRule({
  meta: {
    id: 'litellm-model-prefix',
    title: 'LiteLLM model string whose provider prefix does not fit its api_base or call',
    defaultSeverity: 'warning',
    formats: ['python', 'yaml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      bare: '{key} "{model}" has no LiteLLM provider prefix, so LiteLLM cannot route it to api_base {base} ("LLM Provider NOT provided"). Write "openai/{model}" for an OpenAI-compatible server',
      hostedVllmRemote: '{key} "{model}" uses LiteLLM\'s hosted_vllm/ route, but api_base {base} is {provider}, not a vLLM server: use "openai/{rest}"',
      textCompletionChat: '{key} "{model}" routes to the legacy /completions endpoint, but the call passes chat messages: LiteLLM flattens them into one prompt (no chat template) and log probs come back in the legacy shape. Use "openai/{rest}" for /chat/completions',
      'fix.openai': 'Use "openai/{rest}"',
    },
    'zh-CN': {
      bare: '{key} "{model}" 没有 LiteLLM 服务商前缀，LiteLLM 无法把它路由到 api_base {base}（"LLM Provider NOT provided"）。对 OpenAI 兼容服务器请写 "openai/{model}"',
      hostedVllmRemote: '{key} "{model}" 使用 LiteLLM 的 hosted_vllm/ 路由，但 api_base {base} 是 {provider}，不是 vLLM 服务器：请使用 "openai/{rest}"',
      textCompletionChat: '{key} "{model}" 会路由到旧版 /completions 端点，但调用传入的是对话 messages：LiteLLM 会把它们拼成一个 prompt（不套用对话模板），logprobs 也以旧版格式返回。请用 "openai/{rest}" 调用 /chat/completions',
      'fix.openai': '改用 "openai/{rest}"',
    },
  },
  check({ document, extraction, resolution, report }) {
    if (isExampleFile(document.path)) return;
    const providers = resolution.providers;
    for (const setting of resolution.byRole('model')) {
      if (setting.valueType !== 'string' || setting.value === undefined || !isLiteLLMSetting(setting)) continue;
      const model = setting.value.trim();
      if (model === '') continue;
      const group = extraction.settings.filter((s) => s.group === setting.group);
      const base = group.find((s) => s.role === 'baseUrl' && s.value !== undefined);
      const slash = model.indexOf('/');
      const route = slash > 0 ? model.slice(0, slash) : undefined;
      const rest = slash > 0 ? model.slice(slash + 1) : model;
      const fix = (to: string) => {
        const edit = replaceContent(setting, to);
        return edit ? [{ titleId: 'fix.openai', data: { rest: to.slice('openai/'.length) }, safety: 'unsafe' as const, edits: [edit] }] : [];
      };
      const data = { key: setting.key, model: shorten(model, 60), rest: shorten(rest, 60) };
      if (route === 'text-completion-openai' && group.some((s) => s.key === 'messages' && s.kind === 'kwarg')) {
        report({ messageId: 'textCompletionChat', data, range: setting.contentRange, subject: subjectOf(setting), fixes: fix(`openai/${rest}`) });
        continue;
      }
      const parsed = base ? parseBaseUrl(base.value!.trim()) : undefined;
      if (!base || !parsed) continue;
      if (route === 'hosted_vllm') {
        const hosted = matchProviders(base.value!.trim(), providers).find((p) => p.hosts.length > 0 && (p.localPorts ?? []).length === 0);
        if (hosted && !isLocalHost(parsed.host)) {
          report({ messageId: 'hostedVllmRemote', data: { ...data, base: shorten(base.value!.trim(), 60), provider: hosted.name }, range: setting.contentRange, subject: subjectOf(setting), fixes: fix(`openai/${rest}`) });
        }
        continue;
      }
      if ((route === undefined || !LITELLM_ROUTES.has(route)) && !OPENAI_NAME.test(model)) {
        report({ messageId: 'bare', data: { ...data, base: shorten(base.value!.trim(), 60) }, range: setting.contentRange, subject: subjectOf(setting), fixes: fix(`openai/${model}`) });
      }
    }
  },
});
