import type { ConsumerId } from './types';

/**
 * Client constructors and calls whose base URL is joined the openai SDK way: openai-python and
 * openai-node clients, LangChain `ChatOpenAI`/`OpenAIEmbeddings`, LiteLLM `completion`/`acompletion`/`Router`.
 */
const OPENAI_SDK_CLIENTS = new Set(['OpenAI', 'AsyncOpenAI', 'AzureOpenAI', 'AsyncAzureOpenAI', 'ChatOpenAI', 'OpenAIEmbeddings', 'completion', 'acompletion', 'Router']);

/** Anthropic SDK clients and LangChain's `ChatAnthropic`: they append `/v1/messages`. */
const ANTHROPIC_CLIENTS = new Set(['Anthropic', 'AsyncAnthropic', 'ChatAnthropic']);

/** HTTP client methods whose first argument (or `url=`) is the full request URL (requests, httpx, aiohttp). */
const HTTP_CLIENT_METHODS = new Set(['post', 'get', 'put', 'patch', 'request', 'stream']);

/** The last name of a callee as written: `openai.AsyncOpenAI` → `AsyncOpenAI`. */
export function calleeName(callee: string): string {
  return callee.slice(callee.lastIndexOf('.') + 1);
}

/** The consumer a client constructor or call implies for its base URL, or `undefined`. */
export function consumerOfCallee(callee: string): Extract<ConsumerId, 'openai-sdk' | 'anthropic'> | undefined {
  const name = calleeName(callee);
  if (OPENAI_SDK_CLIENTS.has(name)) return 'openai-sdk';
  return ANTHROPIC_CLIENTS.has(name) ? 'anthropic' : undefined;
}

/** True for `requests.post`, `httpx.get`, `session.request`, `client.stream`, …. */
export function isHttpClientCall(callee: string): boolean {
  return HTTP_CLIENT_METHODS.has(calleeName(callee));
}

/** Last path segments that end a base URL rather than name an endpoint (`/v1`, `/api`, `/v1beta/openai`). */
const BASE_SEGMENT = /^(v\d+\w*|api|openai|models?|engines?|deployments?|\{[^}]*\}|\$\{?\w+\}?|)$/i;

/**
 * True when a request URL's literal path (no scheme or host) ends in a named endpoint that is none of
 * the OpenAI-style ones callers check first (`/get_sequence_logprobs/`, `/score`, `/health`): the
 * body belongs to another API. `…/v1`, `…/api` and dynamic tails are not named endpoints.
 */
export function namesOtherEndpoint(path: string): boolean {
  const segments = path.replace(/[?#].*$/s, '').split('/').filter(Boolean);
  const last = segments[segments.length - 1];
  return last !== undefined && !BASE_SEGMENT.test(last) && /^[A-Za-z_][\w.-]*$/.test(last);
}

/**
 * The operation path a client constructor makes instead of chat: LangChain `OpenAIEmbeddings`,
 * LlamaIndex `OpenAIEmbedding` and the like call `{base}/embeddings` (openai-python
 * `resources/embeddings.py` posts to `/embeddings`). `undefined` for chat clients.
 */
export function operationPathOfCallee(callee: string): string | undefined {
  return /Embeddings?$/.test(calleeName(callee)) ? '/embeddings' : undefined;
}
