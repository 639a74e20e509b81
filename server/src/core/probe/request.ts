import type { ApiCall } from './url';
import type { LogprobsRequest } from './types';

/** A request body and whether it asks for log probs (only then are they judged). */
export interface BuiltRequest {
  body: Record<string, unknown>;
  logprobsRequested: boolean;
}

const PROMPT = 'ping';

/** `anthropic-version` the Messages API requires (Anthropic API reference, "Versions"). */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * The smallest request that shows whether log probs come back:
 * chat `{model, messages, max_tokens: 1, logprobs: true, top_logprobs: 1}` (with `override`, the
 * request site's own `logprobs`/`top_logprobs`, absent ones left out); legacy completions
 * `logprobs: 1`; Responses `top_logprobs` + `include: ["message.output_text.logprobs"]`
 * (`max_output_tokens` 16, the API minimum); Anthropic Messages (no log probs in that API); SGLang
 * `/generate` with `return_logprob`. `model` is left out when unknown.
 */
export function requestBody(api: ApiCall, model: string | undefined, override?: LogprobsRequest): BuiltRequest {
  const withModel = model === undefined ? {} : { model };
  const lp = override ?? { logprobs: true, top_logprobs: 1 };
  const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  switch (api) {
    case 'completions':
      return {
        body: { ...withModel, prompt: PROMPT, max_tokens: 1, ...defined(override ? { logprobs: override.logprobs, top_logprobs: override.top_logprobs } : { logprobs: 1 }) },
        logprobsRequested: override ? !!override.logprobs : true,
      };
    case 'responses': {
      const wanted = override ? !!override.logprobs || (override.top_logprobs ?? 0) > 0 : true;
      const extra = wanted ? { top_logprobs: lp.top_logprobs ?? 1, include: ['message.output_text.logprobs'] } : {};
      return { body: { ...withModel, input: PROMPT, max_output_tokens: 16, ...extra }, logprobsRequested: wanted };
    }
    case 'messages':
      return { body: { ...withModel, max_tokens: 1, messages: [{ role: 'user', content: PROMPT }] }, logprobsRequested: false };
    case 'generate': {
      const wanted = override ? !!override.logprobs || (override.top_logprobs ?? 0) > 0 : true;
      const top = override?.top_logprobs !== undefined ? { top_logprobs_num: override.top_logprobs } : {};
      return { body: { text: PROMPT, sampling_params: { max_new_tokens: 1, temperature: 0 }, return_logprob: wanted, ...top }, logprobsRequested: wanted };
    }
    default:
      return {
        body: { ...withModel, messages: [{ role: 'user', content: PROMPT }], max_tokens: 1, ...defined({ logprobs: lp.logprobs, top_logprobs: lp.top_logprobs }) },
        logprobsRequested: !!lp.logprobs,
      };
  }
}

/** Headers per API: bearer auth, or `x-api-key` + `anthropic-version` for Anthropic Messages. */
export function requestHeaders(api: ApiCall, key: string | undefined, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'rollout-lint-ping' };
  if (hasBody) headers['content-type'] = 'application/json';
  if (api === 'messages') {
    headers['anthropic-version'] = ANTHROPIC_VERSION;
    if (key !== undefined) headers['x-api-key'] = key;
  } else if (key !== undefined) {
    headers.authorization = `Bearer ${key}`;
  }
  return headers;
}
