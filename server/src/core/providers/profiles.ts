import { isLocalHost } from '../model/hosts';

/**
 * Provider profiles: what each OpenAI-compatible endpoint documents. Data, each fact with its source;
 * users add more through `rolloutLint.extraProviders` / `.rolloutlintrc.json` `extraProviders`.
 */
export interface ProviderProfile {
  id: string;
  name: string;
  /** Host names (lower case) that identify the provider; empty for local servers matched by port. */
  hosts: string[];
  /** Loopback/LAN servers: matched by port on any local or private host. */
  localPorts?: number[];
  docsUrl: string;
  /** Base URLs the provider documents for OpenAI-SDK-style clients (joined with `/chat/completions`). */
  openaiBases: string[];
  /** The documented chat completions URL. */
  chatUrl: string;
  modelsUrl: string;
  /** Base for Anthropic-style clients that append `/v1/messages` themselves, if the provider offers one. */
  anthropicBase?: string;
  /** Whether chat completions return `logprobs` when asked. */
  logprobs: 'supported' | 'unknown' | 'no';
  /** Known key prefixes (`sk-`, `sk-ant-`), for key/provider mismatch hints. */
  keyPrefixes?: string[];
  /** Environment variables that hold this provider's key and base URL. */
  keyEnv?: string[];
  baseEnv?: string[];
  /** Where the facts above come from. */
  source: string;
}

/** Built-in profiles. TaoToken first: it is the default `ping` target. */
export const BUILTIN_PROVIDERS: readonly ProviderProfile[] = [
  {
    id: 'taotoken',
    name: 'TaoToken',
    hosts: ['taotoken.net'],
    docsUrl: 'https://taotoken.net',
    openaiBases: ['https://taotoken.net/api/v1'],
    chatUrl: 'https://taotoken.net/api/v1/chat/completions',
    modelsUrl: 'https://taotoken.net/api/v1/models',
    anthropicBase: 'https://taotoken.net/api',
    logprobs: 'supported',
    keyEnv: ['TAOTOKEN_API_KEY'],
    baseEnv: ['TAOTOKEN_BASE_URL'],
    source:
      'TaoToken documents its chat endpoint as https://taotoken.net/api/v1/chat/completions; its guide gives https://taotoken.net/api as the base for clients that append /v1 themselves',
  },
  {
    id: 'openai',
    name: 'OpenAI',
    hosts: ['api.openai.com'],
    docsUrl: 'https://platform.openai.com/docs/api-reference',
    openaiBases: ['https://api.openai.com/v1'],
    chatUrl: 'https://api.openai.com/v1/chat/completions',
    modelsUrl: 'https://api.openai.com/v1/models',
    logprobs: 'supported',
    keyPrefixes: ['sk-'],
    keyEnv: ['OPENAI_API_KEY'],
    baseEnv: ['OPENAI_BASE_URL'],
    source: 'OpenAI API reference (chat completions, models); openai-python default base_url https://api.openai.com/v1',
  },
  {
    id: 'anthropic',
    name: 'Anthropic',
    hosts: ['api.anthropic.com'],
    docsUrl: 'https://docs.anthropic.com/en/api/messages',
    openaiBases: ['https://api.anthropic.com/v1'],
    chatUrl: 'https://api.anthropic.com/v1/chat/completions',
    modelsUrl: 'https://api.anthropic.com/v1/models',
    anthropicBase: 'https://api.anthropic.com',
    logprobs: 'no',
    keyPrefixes: ['sk-ant-'],
    keyEnv: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'],
    baseEnv: ['ANTHROPIC_BASE_URL'],
    source: 'Anthropic Messages API reference (POST /v1/messages); OpenAI SDK compatibility page (base https://api.anthropic.com/v1/, logprobs ignored)',
  },
  {
    id: 'openrouter',
    name: 'OpenRouter',
    hosts: ['openrouter.ai'],
    docsUrl: 'https://openrouter.ai/docs/api-reference/overview',
    openaiBases: ['https://openrouter.ai/api/v1'],
    chatUrl: 'https://openrouter.ai/api/v1/chat/completions',
    modelsUrl: 'https://openrouter.ai/api/v1/models',
    logprobs: 'unknown',
    keyPrefixes: ['sk-or-'],
    keyEnv: ['OPENROUTER_API_KEY'],
    baseEnv: ['OPENROUTER_BASE_URL'],
    source: 'OpenRouter API reference: base https://openrouter.ai/api/v1; logprobs depend on the routed model',
  },
  {
    id: 'deepseek',
    name: 'DeepSeek',
    hosts: ['api.deepseek.com'],
    docsUrl: 'https://api-docs.deepseek.com',
    openaiBases: ['https://api.deepseek.com', 'https://api.deepseek.com/v1'],
    chatUrl: 'https://api.deepseek.com/chat/completions',
    modelsUrl: 'https://api.deepseek.com/models',
    logprobs: 'supported',
    keyPrefixes: ['sk-'],
    keyEnv: ['DEEPSEEK_API_KEY'],
    baseEnv: ['DEEPSEEK_BASE_URL'],
    source: 'DeepSeek API docs: base_url https://api.deepseek.com (https://api.deepseek.com/v1 also accepted for OpenAI compatibility)',
  },
  {
    id: 'perplexity',
    name: 'Perplexity',
    hosts: ['api.perplexity.ai'],
    docsUrl: 'https://docs.perplexity.ai',
    openaiBases: ['https://api.perplexity.ai'],
    chatUrl: 'https://api.perplexity.ai/chat/completions',
    modelsUrl: 'https://api.perplexity.ai/models',
    logprobs: 'unknown',
    keyPrefixes: ['pplx-'],
    keyEnv: ['PERPLEXITY_API_KEY', 'PPLX_API_KEY'],
    source: 'Perplexity API docs: OpenAI client with base_url="https://api.perplexity.ai" (no /v1)',
  },
  local('litellm-proxy', 'LiteLLM proxy', 4000, 'LiteLLM proxy docs: OpenAI client with base_url="http://0.0.0.0:4000"; it serves both /chat/completions and /v1/chat/completions', 'unknown', ['']),
  local('sglang', 'local SGLang', 30000, 'SGLang server docs: OpenAI-compatible API at http://<host>:30000/v1 (default --port 30000); native POST /generate'),
  local('openclaw-rl-proxy', 'OpenClaw-RL proxy', 30000, 'OpenClaw-RL: the rollout proxy serves /v1/chat/completions on port 30000 and forwards to the SGLang router'),
  local('vllm', 'local vLLM', 8000, 'vLLM OpenAI-compatible server docs: http://<host>:8000/v1 (default --port 8000)'),
  local('ollama', 'Ollama', 11434, 'Ollama OpenAI compatibility docs: http://localhost:11434/v1', 'no'),
  local('lmstudio', 'LM Studio', 1234, 'LM Studio OpenAI compatibility docs: http://localhost:1234/v1'),
];

function local(id: string, name: string, port: number, source: string, logprobs: ProviderProfile['logprobs'] = 'supported', extraPaths: string[] = []): ProviderProfile {
  return {
    id,
    name,
    hosts: [],
    localPorts: [port],
    docsUrl: '',
    openaiBases: [`http://127.0.0.1:${port}/v1`, ...extraPaths.map((path) => `http://127.0.0.1:${port}${path}`)],
    chatUrl: `http://127.0.0.1:${port}/v1/chat/completions`,
    modelsUrl: `http://127.0.0.1:${port}/v1/models`,
    logprobs,
    source,
  };
}


/**
 * The profiles matching a URL: by host name (exact or subdomain), or, for local/LAN hosts and
 * single-label service names (`sglang`, `vllm-server`; see `isLocalHost`), by port. Returns `[]` for unparsable URLs.
 */
export function matchProviders(url: string, profiles: readonly ProviderProfile[] = BUILTIN_PROVIDERS): ProviderProfile[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const host = parsed.hostname.toLowerCase();
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  const byHost = profiles.filter((p) => p.hosts.some((h) => host === h || host.endsWith(`.${h}`)));
  if (byHost.length > 0) return byHost;
  if (!isLocalHost(host)) return [];
  return profiles.filter((p) => p.localPorts?.includes(port));
}
