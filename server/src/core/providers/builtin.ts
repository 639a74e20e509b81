import type { ProfileFact, ProviderProfile } from './profiles';

/**
 * The built-in provider profiles. Every stated fact cites the provider's own documentation page or
 * official SDK (`sources`); a fact that could not be confirmed is left out (`logprobs: 'unknown'`,
 * no `keyPrefixes`) rather than guessed. A test checks that each stated fact has a source and that no
 * two profiles claim the same host.
 */
type Draft = Omit<ProviderProfile, 'sources' | 'source'>;

/** A profile with its sources: `[url, facts it documents]` pairs; the first url is also `docsUrl` when none is set. */
function profile(draft: Omit<Draft, 'docsUrl'> & { docsUrl?: string }, cites: readonly (readonly [string, readonly ProfileFact[]])[]): ProviderProfile {
  const sources: Partial<Record<ProfileFact, string>> = {};
  for (const [url, facts] of cites) for (const fact of facts) sources[fact] ??= url;
  const urls = [...new Set(cites.map(([url]) => url))];
  return { docsUrl: urls[0], ...draft, sources, source: urls.join(' ; ') };
}

/** A local server on `port`, documented at `…:port/v1`. */
function local(
  id: string,
  name: string,
  port: number,
  extra: Partial<Draft> & { logprobs: ProviderProfile['logprobs'] },
  cites: readonly (readonly [string, readonly ProfileFact[]])[],
): ProviderProfile {
  return profile(
    {
      id,
      name,
      hosts: [],
      localPorts: [port],
      openaiBases: [`http://127.0.0.1:${port}/v1`],
      chatUrl: `http://127.0.0.1:${port}/v1/chat/completions`,
      modelsUrl: `http://127.0.0.1:${port}/v1/models`,
      ...extra,
    },
    cites,
  );
}

const API = ['hosts', 'openaiBases', 'chatUrl', 'modelsUrl'] as const;
const LOCAL = ['localPorts', 'openaiBases', 'chatUrl', 'modelsUrl'] as const;

export const BUILTIN_PROFILES: readonly ProviderProfile[] = [
  profile(
    {
      id: 'taotoken',
      name: 'TaoToken',
      hosts: ['taotoken.net'],
      openaiBases: ['https://taotoken.net/api/v1'],
      chatUrl: 'https://taotoken.net/api/v1/chat/completions',
      modelsUrl: 'https://taotoken.net/api/v1/models',
      anthropicBase: 'https://taotoken.net/api',
      logprobs: 'supported',
      keyEnv: ['TAOTOKEN_API_KEY'],
      baseEnv: ['TAOTOKEN_BASE_URL'],
    },
    // TaoToken's guide: chat endpoint https://taotoken.net/api/v1/chat/completions; https://taotoken.net/api for clients that append /v1.
    [['https://taotoken.net', [...API, 'anthropicBase', 'logprobs', 'keyEnv', 'baseEnv']]],
  ),
  profile(
    {
      id: 'openai',
      name: 'OpenAI',
      hosts: ['api.openai.com'],
      docsUrl: 'https://platform.openai.com/docs/api-reference',
      openaiBases: ['https://api.openai.com/v1'],
      chatUrl: 'https://api.openai.com/v1/chat/completions',
      modelsUrl: 'https://api.openai.com/v1/models',
      websiteHosts: ['platform.openai.com', 'developers.openai.com'],
      logprobs: 'supported',
      topLogprobsMax: 20,
      keyPrefixes: ['sk-'],
      keyEnv: ['OPENAI_API_KEY'],
      baseEnv: ['OPENAI_BASE_URL'],
    },
    [
      ['https://platform.openai.com/docs/api-reference/chat/create', [...API, 'logprobs', 'topLogprobsMax', 'websiteHosts']],
      ['https://github.com/openai/openai-python', ['keyPrefixes', 'keyEnv', 'baseEnv']],
    ],
  ),
  profile(
    {
      id: 'anthropic',
      name: 'Anthropic',
      hosts: ['api.anthropic.com'],
      docsUrl: 'https://docs.anthropic.com/en/api/messages',
      openaiBases: ['https://api.anthropic.com/v1'],
      chatUrl: 'https://api.anthropic.com/v1/chat/completions',
      modelsUrl: 'https://api.anthropic.com/v1/models',
      anthropicBase: 'https://api.anthropic.com',
      websiteHosts: ['docs.anthropic.com', 'console.anthropic.com', 'docs.claude.com', 'platform.claude.com'],
      logprobs: 'no',
      keyPrefixes: ['sk-ant-'],
      keyEnv: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'],
      baseEnv: ['ANTHROPIC_BASE_URL'],
    },
    [
      // The OpenAI SDK compatibility page: base_url https://api.anthropic.com/v1/, "logprobs | Ignored", "top_logprobs | Ignored".
      ['https://platform.claude.com/docs/en/api/openai-sdk', [...API, 'logprobs', 'websiteHosts']],
      ['https://github.com/anthropics/anthropic-sdk-python', ['anthropicBase', 'keyPrefixes', 'keyEnv', 'baseEnv']],
    ],
  ),
  profile(
    {
      id: 'openrouter',
      name: 'OpenRouter',
      hosts: ['openrouter.ai'],
      openaiBases: ['https://openrouter.ai/api/v1'],
      chatUrl: 'https://openrouter.ai/api/v1/chat/completions',
      modelsUrl: 'https://openrouter.ai/api/v1/models',
      logprobs: 'unknown',
      keyPrefixes: ['sk-or-'],
      keyEnv: ['OPENROUTER_API_KEY'],
    },
    [['https://openrouter.ai/docs/api-reference/overview', [...API, 'keyPrefixes', 'keyEnv']]],
  ),
  profile(
    {
      id: 'deepseek',
      name: 'DeepSeek',
      hosts: ['api.deepseek.com'],
      openaiBases: ['https://api.deepseek.com', 'https://api.deepseek.com/v1'],
      chatUrl: 'https://api.deepseek.com/chat/completions',
      modelsUrl: 'https://api.deepseek.com/models',
      websiteHosts: ['api-docs.deepseek.com', 'platform.deepseek.com'],
      logprobs: 'unknown',
      keyPrefixes: ['sk-'],
      keyEnv: ['DEEPSEEK_API_KEY'],
    },
    // "base_url https://api.deepseek.com (https://api.deepseek.com/v1 also works for OpenAI compatibility)".
    [['https://api-docs.deepseek.com', [...API, 'websiteHosts', 'keyPrefixes', 'keyEnv']]],
  ),
  profile(
    {
      id: 'perplexity',
      name: 'Perplexity',
      hosts: ['api.perplexity.ai'],
      openaiBases: ['https://api.perplexity.ai'],
      chatUrl: 'https://api.perplexity.ai/chat/completions',
      modelsUrl: 'https://api.perplexity.ai/models',
      websiteHosts: ['docs.perplexity.ai'],
      logprobs: 'unknown',
      keyPrefixes: ['pplx-'],
      keyEnv: ['PERPLEXITY_API_KEY', 'PPLX_API_KEY'],
    },
    [['https://docs.perplexity.ai', [...API, 'websiteHosts', 'keyPrefixes', 'keyEnv']]],
  ),
  profile(
    {
      id: 'dashscope',
      name: 'Alibaba Cloud DashScope',
      nameZh: '阿里云 DashScope',
      hosts: ['dashscope.aliyuncs.com', 'dashscope-intl.aliyuncs.com'],
      openaiBases: ['https://dashscope.aliyuncs.com/compatible-mode/v1', 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1'],
      chatUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions',
      modelsUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1/models',
      nativeBases: ['https://dashscope.aliyuncs.com/api/v1', 'https://dashscope-intl.aliyuncs.com/api/v1'],
      websiteHosts: ['dashscope.console.aliyun.com', 'bailian.console.aliyun.com'],
      logprobs: 'unknown',
    },
    [
      // "通过 OpenAI SDK … 调用时，需要配置的 base_url：https://dashscope.aliyuncs.com/compatible-mode/v1".
      ['https://help.aliyun.com/zh/dashscope/developer-reference/compatibility-of-openai-with-dashscope/', [...API, 'websiteHosts']],
      // The Singapore base https://dashscope-intl.aliyuncs.com/compatible-mode/v1.
      ['https://www.alibabacloud.com/help/tc/model-studio/developer-reference/compatibility-of-openai-with-dashscope', ['openaiBases']],
      // The native DashScope API: POST https://dashscope.aliyuncs.com/api/v1/services/aigc/text-generation/generation.
      ['https://help.aliyun.com/en/model-studio/qwen-api-via-dashscope', ['nativeBases']],
    ],
  ),
  profile(
    {
      id: 'zhipu',
      name: 'Zhipu AI (BigModel)',
      nameZh: '智谱 AI（BigModel）',
      hosts: ['open.bigmodel.cn'],
      openaiBases: ['https://open.bigmodel.cn/api/paas/v4'],
      chatUrl: 'https://open.bigmodel.cn/api/paas/v4/chat/completions',
      modelsUrl: 'https://open.bigmodel.cn/api/paas/v4/models',
      websiteHosts: ['bigmodel.cn', 'www.bigmodel.cn', 'docs.bigmodel.cn'],
      logprobs: 'unknown',
      keyEnv: ['ZAI_API_KEY'],
    },
    [
      ['https://docs.bigmodel.cn/cn/guide/develop/http/introduction', [...API, 'websiteHosts']],
      ['https://docs.bigmodel.cn/cn/guide/develop/openai/introduction', ['keyEnv']],
    ],
  ),
  profile(
    {
      id: 'volcengine-ark',
      name: 'Volcengine Ark',
      nameZh: '火山引擎方舟',
      hosts: ['ark.cn-beijing.volces.com'],
      openaiBases: ['https://ark.cn-beijing.volces.com/api/v3'],
      chatUrl: 'https://ark.cn-beijing.volces.com/api/v3/chat/completions',
      modelsUrl: 'https://ark.cn-beijing.volces.com/api/v3/models',
      websiteHosts: ['www.volcengine.com', 'volcengine.com', 'console.volcengine.com'],
      logprobs: 'unknown',
      keyEnv: ['ARK_API_KEY'],
    },
    [
      ['https://www.volcengine.com/docs/82379/1263482', [...API, 'websiteHosts', 'keyEnv']],
      ['https://www.volcengine.com/docs/82379/1355331', ['openaiBases']],
    ],
  ),
  profile(
    {
      id: 'gemini',
      name: 'Google Gemini API',
      hosts: ['generativelanguage.googleapis.com'],
      openaiBases: ['https://generativelanguage.googleapis.com/v1beta/openai'],
      chatUrl: 'https://generativelanguage.googleapis.com/v1beta/openai/chat/completions',
      modelsUrl: 'https://generativelanguage.googleapis.com/v1beta/openai/models',
      nativeBases: ['https://generativelanguage.googleapis.com/v1beta'],
      websiteHosts: ['ai.google.dev', 'aistudio.google.com'],
      logprobs: 'unknown',
      keyEnv: ['GEMINI_API_KEY'],
    },
    [
      ['https://ai.google.dev/gemini-api/docs/openai', [...API, 'websiteHosts', 'keyEnv']],
      ['https://ai.google.dev/api', ['nativeBases']],
    ],
  ),
  profile(
    {
      id: 'moonshot',
      name: 'Moonshot AI (Kimi)',
      nameZh: '月之暗面（Kimi）',
      hosts: ['api.moonshot.cn', 'api.moonshot.ai'],
      openaiBases: ['https://api.moonshot.cn/v1', 'https://api.moonshot.ai/v1'],
      chatUrl: 'https://api.moonshot.cn/v1/chat/completions',
      modelsUrl: 'https://api.moonshot.cn/v1/models',
      websiteHosts: ['platform.moonshot.cn', 'platform.moonshot.ai', 'platform.kimi.com', 'platform.kimi.ai'],
      logprobs: 'unknown',
      keyEnv: ['MOONSHOT_API_KEY'],
    },
    [
      ['https://platform.kimi.com/docs/api/overview', [...API, 'websiteHosts', 'keyEnv']],
      ['https://platform.kimi.ai/docs/api/overview', ['openaiBases']],
    ],
  ),
  profile(
    {
      id: 'siliconflow',
      name: 'SiliconFlow',
      nameZh: '硅基流动（SiliconFlow）',
      hosts: ['api.siliconflow.cn', 'api.siliconflow.com'],
      openaiBases: ['https://api.siliconflow.cn/v1', 'https://api.siliconflow.com/v1'],
      chatUrl: 'https://api.siliconflow.cn/v1/chat/completions',
      modelsUrl: 'https://api.siliconflow.cn/v1/models',
      websiteHosts: ['cloud.siliconflow.cn', 'docs.siliconflow.cn', 'docs.siliconflow.com'],
      logprobs: 'unknown',
    },
    [
      ['https://docs.siliconflow.cn/quickstart', [...API, 'websiteHosts']],
      ['https://www.siliconflow.com/blog/openai-sdk-siliconflow-compatibility-checks', ['openaiBases']],
    ],
  ),
  profile(
    {
      id: 'qianfan',
      name: 'Baidu Qianfan',
      nameZh: '百度千帆',
      hosts: ['qianfan.baidubce.com'],
      openaiBases: ['https://qianfan.baidubce.com/v2'],
      chatUrl: 'https://qianfan.baidubce.com/v2/chat/completions',
      modelsUrl: 'https://qianfan.baidubce.com/v2/models',
      websiteHosts: ['cloud.baidu.com', 'console.bce.baidu.com'],
      logprobs: 'unknown',
      keyPrefixes: ['bce-v3/'],
    },
    [
      ['https://cloud.baidu.com/doc/qianfan/s/Hmh4suq26', [...API, 'websiteHosts']],
      // The example key "bce-v3/ALTAK-…" on the OpenAI compatibility page.
      ['https://cloud.baidu.com/doc/WENXINWORKSHOP/s/Zm2ycv77m', ['keyPrefixes']],
    ],
  ),
  profile(
    {
      id: 'minimax',
      name: 'MiniMax',
      hosts: ['api.minimaxi.com', 'api.minimax.io'],
      openaiBases: ['https://api.minimaxi.com/v1', 'https://api.minimax.io/v1'],
      chatUrl: 'https://api.minimaxi.com/v1/chat/completions',
      modelsUrl: 'https://api.minimaxi.com/v1/models',
      anthropicBase: 'https://api.minimax.io/anthropic',
      websiteHosts: ['platform.minimaxi.com', 'platform.minimax.io'],
      logprobs: 'unknown',
    },
    [
      ['https://platform.minimaxi.com/docs/api-reference/text-openai-api', [...API, 'websiteHosts']],
      ['https://platform.minimax.io/docs/api-reference/text-openai-api', ['openaiBases']],
      ['https://platform.minimax.io/docs/guides/quickstart', ['anthropicBase']],
    ],
  ),
  profile(
    {
      id: 'stepfun',
      name: 'StepFun',
      nameZh: '阶跃星辰（StepFun）',
      hosts: ['api.stepfun.com', 'api.stepfun.ai'],
      openaiBases: ['https://api.stepfun.com/v1', 'https://api.stepfun.ai/v1'],
      chatUrl: 'https://api.stepfun.com/v1/chat/completions',
      modelsUrl: 'https://api.stepfun.com/v1/models',
      websiteHosts: ['platform.stepfun.com', 'platform.stepfun.ai'],
      logprobs: 'unknown',
      keyEnv: ['STEP_API_KEY'],
    },
    [
      ['https://platform.stepfun.com/docs/api-reference/models/retrieve', [...API, 'websiteHosts', 'keyEnv']],
      ['https://platform.stepfun.ai/docs/en/guides/developer/openai', ['openaiBases']],
    ],
  ),
  profile(
    {
      id: 'together',
      name: 'Together AI',
      hosts: ['api.together.ai', 'api.together.xyz'],
      openaiBases: ['https://api.together.ai/v1', 'https://api.together.xyz/v1'],
      chatUrl: 'https://api.together.ai/v1/chat/completions',
      modelsUrl: 'https://api.together.ai/v1/models',
      websiteHosts: ['docs.together.ai'],
      logprobs: 'unknown',
      keyEnv: ['TOGETHER_API_KEY'],
    },
    [['https://docs.together.ai/docs/inference/openai-compatibility', [...API, 'websiteHosts', 'keyEnv']]],
  ),
  profile(
    {
      id: 'fireworks',
      name: 'Fireworks AI',
      hosts: ['api.fireworks.ai'],
      openaiBases: ['https://api.fireworks.ai/inference/v1'],
      chatUrl: 'https://api.fireworks.ai/inference/v1/chat/completions',
      modelsUrl: 'https://api.fireworks.ai/inference/v1/models',
      websiteHosts: ['docs.fireworks.ai'],
      logprobs: 'unknown',
      keyEnv: ['FIREWORKS_API_KEY'],
    },
    [['https://docs.fireworks.ai/tools-sdks/openai-compatibility', [...API, 'websiteHosts', 'keyEnv']]],
  ),
  profile(
    {
      id: 'groq',
      name: 'Groq',
      hosts: ['api.groq.com'],
      openaiBases: ['https://api.groq.com/openai/v1'],
      chatUrl: 'https://api.groq.com/openai/v1/chat/completions',
      modelsUrl: 'https://api.groq.com/openai/v1/models',
      websiteHosts: ['console.groq.com'],
      logprobs: 'no',
      keyEnv: ['GROQ_API_KEY'],
    },
    // "The following fields are currently not supported and will result in a 400 error: logprobs, logit_bias, top_logprobs".
    [['https://console.groq.com/docs/openai', [...API, 'websiteHosts', 'logprobs', 'keyEnv']]],
  ),
  profile(
    {
      id: 'mistral',
      name: 'Mistral AI',
      hosts: ['api.mistral.ai'],
      openaiBases: ['https://api.mistral.ai/v1'],
      chatUrl: 'https://api.mistral.ai/v1/chat/completions',
      modelsUrl: 'https://api.mistral.ai/v1/models',
      websiteHosts: ['docs.mistral.ai', 'console.mistral.ai'],
      logprobs: 'unknown',
      keyEnv: ['MISTRAL_API_KEY'],
    },
    [['https://docs.mistral.ai/api', [...API, 'websiteHosts', 'keyEnv']]],
  ),
  profile(
    {
      id: 'xai',
      name: 'xAI',
      hosts: ['api.x.ai'],
      openaiBases: ['https://api.x.ai/v1'],
      chatUrl: 'https://api.x.ai/v1/chat/completions',
      modelsUrl: 'https://api.x.ai/v1/models',
      websiteHosts: ['docs.x.ai', 'console.x.ai'],
      logprobs: 'unknown',
      keyEnv: ['XAI_API_KEY'],
    },
    [['https://docs.x.ai/docs/api-reference', [...API, 'websiteHosts', 'keyEnv']]],
  ),
  profile(
    {
      id: 'nvidia-nim',
      name: 'NVIDIA NIM (API Catalog)',
      nameZh: 'NVIDIA NIM（API 目录）',
      hosts: ['integrate.api.nvidia.com'],
      openaiBases: ['https://integrate.api.nvidia.com/v1'],
      chatUrl: 'https://integrate.api.nvidia.com/v1/chat/completions',
      modelsUrl: 'https://integrate.api.nvidia.com/v1/models',
      websiteHosts: ['build.nvidia.com'],
      logprobs: 'unknown',
      keyEnv: ['NVIDIA_API_KEY'],
    },
    [['https://build.nvidia.com', [...API, 'websiteHosts', 'keyEnv']]],
  ),
  profile(
    {
      id: 'huggingface',
      name: 'Hugging Face Inference Providers',
      nameZh: 'Hugging Face 推理服务商',
      hosts: ['router.huggingface.co'],
      openaiBases: ['https://router.huggingface.co/v1'],
      chatUrl: 'https://router.huggingface.co/v1/chat/completions',
      modelsUrl: 'https://router.huggingface.co/v1/models',
      websiteHosts: ['huggingface.co'],
      logprobs: 'unknown',
    },
    [['https://huggingface.co/changelog/inference-providers-openai-compatible', [...API, 'websiteHosts']]],
  ),
  profile(
    {
      id: 'cerebras',
      name: 'Cerebras',
      hosts: ['api.cerebras.ai'],
      openaiBases: ['https://api.cerebras.ai/v1'],
      chatUrl: 'https://api.cerebras.ai/v1/chat/completions',
      modelsUrl: 'https://api.cerebras.ai/v1/models',
      websiteHosts: ['inference-docs.cerebras.ai', 'cloud.cerebras.ai'],
      logprobs: 'unknown',
      keyEnv: ['CEREBRAS_API_KEY'],
    },
    [['https://inference-docs.cerebras.ai/resources/openai', [...API, 'websiteHosts', 'keyEnv']]],
  ),
  profile(
    {
      id: 'sambanova',
      name: 'SambaNova',
      hosts: ['api.sambanova.ai'],
      openaiBases: ['https://api.sambanova.ai/v1'],
      chatUrl: 'https://api.sambanova.ai/v1/chat/completions',
      modelsUrl: 'https://api.sambanova.ai/v1/models',
      websiteHosts: ['docs.sambanova.ai', 'cloud.sambanova.ai'],
      logprobs: 'unknown',
      keyEnv: ['SAMBANOVA_API_KEY'],
    },
    // "Base URL (to be used with the OpenAI client) https://api.sambanova.ai/v1"; "Chat completion endpoint
    // https://api.sambanova.ai/v1/chat/completions". The API reference's OpenAPI (servers: https://api.sambanova.ai/v1)
    // lists GET /models, and its samples read SAMBANOVA_API_KEY.
    [
      ['https://docs.sambanova.ai/docs/en/get-started/api-keys-urls', ['hosts', 'openaiBases', 'chatUrl', 'websiteHosts']],
      ['https://docs.sambanova.ai/docs/api-reference/models/get-environments-available-model-list-metadata', ['modelsUrl', 'keyEnv']],
    ],
  ),
  profile(
    {
      id: 'azure-openai',
      name: 'Azure OpenAI',
      hosts: ['openai.azure.com'],
      openaiBases: ['https://{resource}.openai.azure.com/openai/v1'],
      chatUrl: 'https://{resource}.openai.azure.com/openai/v1/chat/completions',
      modelsUrl: 'https://{resource}.openai.azure.com/openai/v1/models',
      websiteHosts: ['portal.azure.com'],
      logprobs: 'unknown',
      keyEnv: ['AZURE_OPENAI_API_KEY'],
      baseEnv: ['AZURE_OPENAI_ENDPOINT'],
    },
    [
      ['https://learn.microsoft.com/en-us/azure/ai-foundry/openai/api-version-lifecycle', [...API, 'websiteHosts']],
      // openai-python's AzureOpenAI reads AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT (src/openai/lib/azure.py).
      ['https://github.com/openai/openai-python/blob/main/src/openai/lib/azure.py', ['keyEnv', 'baseEnv']],
    ],
  ),
  profile(
    {
      id: 'azure-ai-foundry',
      name: 'Azure AI Foundry Models',
      nameZh: 'Azure AI Foundry 模型',
      hosts: ['services.ai.azure.com'],
      openaiBases: ['https://{resource}.services.ai.azure.com/models'],
      chatUrl: 'https://{resource}.services.ai.azure.com/models/chat/completions',
      modelsUrl: 'https://{resource}.services.ai.azure.com/models/info',
      websiteHosts: ['ai.azure.com'],
      logprobs: 'unknown',
    },
    [['https://learn.microsoft.com/en-us/azure/ai-foundry/foundry-models/how-to/inference', [...API, 'websiteHosts']]],
  ),
  profile(
    {
      id: 'bedrock',
      name: 'Amazon Bedrock',
      hosts: ['bedrock-runtime.*.amazonaws.com', 'bedrock-mantle.*.api.aws'],
      openaiBases: ['https://bedrock-runtime.{region}.amazonaws.com/openai/v1', 'https://bedrock-mantle.{region}.api.aws/v1'],
      chatUrl: 'https://bedrock-runtime.{region}.amazonaws.com/openai/v1/chat/completions',
      modelsUrl: 'https://bedrock-runtime.{region}.amazonaws.com/openai/v1/models',
      logprobs: 'unknown',
      keyEnv: ['AWS_BEARER_TOKEN_BEDROCK'],
    },
    [
      ['https://docs.aws.amazon.com/bedrock/latest/userguide/inference-chat-completions.html', [...API, 'keyEnv']],
      ['https://docs.aws.amazon.com/bedrock/latest/userguide/inference-responses-api.html', ['openaiBases']],
    ],
  ),
  local('sglang', 'local SGLang', 30000, { nameZh: '本地 SGLang 服务器', logprobs: 'supported' }, [
    // Default --port 30000; OpenAI-compatible API under /v1; logprobs/top_logprobs in chat completions.
    ['https://docs.sglang.ai/basic_usage/openai_api_completions.html', [...LOCAL, 'logprobs']],
  ]),
  local('openclaw-rl-proxy', 'OpenClaw-RL proxy', 30000, { nameZh: 'OpenClaw-RL 代理', logprobs: 'supported' }, [
    // The rollout proxy serves /v1/chat/completions on port 30000 and forwards to the SGLang router with logprobs.
    ['https://github.com/Gen-Verse/OpenClaw-RL', [...LOCAL, 'logprobs']],
  ]),
  local('vllm', 'local vLLM', 8000, { nameZh: '本地 vLLM 服务器', logprobs: 'supported' }, [
    ['https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html', [...LOCAL, 'logprobs']],
  ]),
  local('ollama', 'Ollama', 11434, { logprobs: 'unknown', nativeBases: ['http://127.0.0.1:11434/api'] }, [
    ['https://github.com/ollama/ollama/blob/main/docs/openai.md', [...LOCAL]],
    ['https://github.com/ollama/ollama/blob/main/docs/api.md', ['nativeBases']],
  ]),
  local('lmstudio', 'LM Studio', 1234, { logprobs: 'unknown' }, [['https://lmstudio.ai/docs/app/api/endpoints/openai', [...LOCAL]]]),
  local('llamacpp', 'llama.cpp server', 8080, { nameZh: 'llama.cpp 服务器', logprobs: 'unknown' }, [
    // llama-server listens on 127.0.0.1:8080 by default and serves /v1/chat/completions.
    ['https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md', [...LOCAL]],
  ]),
  local('tgi', 'Hugging Face TGI', 3000, { logprobs: 'unknown' }, [
    // The Messages API examples: OpenAI(base_url="http://localhost:3000/v1").
    ['https://huggingface.co/docs/text-generation-inference/messages_api', [...LOCAL]],
  ]),
  local('litellm-proxy', 'LiteLLM proxy', 4000, { nameZh: 'LiteLLM 代理', logprobs: 'unknown', openaiBases: ['http://127.0.0.1:4000/v1', 'http://127.0.0.1:4000'] }, [
    // OpenAI(base_url="http://0.0.0.0:4000"); the proxy serves both /chat/completions and /v1/chat/completions.
    ['https://docs.litellm.ai/docs/proxy/quick_start', [...LOCAL]],
  ]),
];
