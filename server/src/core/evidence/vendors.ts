/**
 * Name prefixes of model-serving settings (LLM vendors, gateways, local inference servers, RL roles),
 * matched against normalised key names (`openai_api_key`, `sglang_base_url`).
 */
export const MODEL_NAME_PREFIX =
  /^(openai|azure_openai|anthropic|claude|deepseek|openrouter|taotoken|sglang|vllm|llm|dashscope|qwen|moonshot|kimi|zhipu|glm|gemini|mistral|groq|together|fireworks|xai|siliconflow|ark|volcengine|minimax|baichuan|perplexity|cohere|ollama|lmstudio|litellm|policy|rollout|reward|judge|teacher|model)(_|$)/;

/** Any vendor or role word anywhere in a normalised name (`vite_openai_base_url`). */
export const MODEL_NAME_WORD =
  /(^|_)(openai|anthropic|claude|deepseek|openrouter|taotoken|sglang|vllm|llm|dashscope|qwen|moonshot|kimi|zhipu|glm|gemini|mistral|groq|together|fireworks|xai|siliconflow|ollama|lmstudio|litellm|policy|rollout|reward|judge|teacher|model|chat|completion|inference)(_|$)/;

/**
 * Prefixes of variables that front-end build tools expose to browser code (Vite `VITE_`, Next.js
 * `NEXT_PUBLIC_`, Create React App `REACT_APP_`, Nuxt `NUXT_PUBLIC_`, Expo `EXPO_PUBLIC_`, Gatsby
 * `GATSBY_`): a web app's backend URL, not a model endpoint, unless the name says otherwise.
 */
/**
 * Name prefixes of services that are not model endpoints but have `*_BASE_URL`/`*_API_KEY` settings
 * of their own: experiment trackers (W&B, SwanLab, MLflow, Comet, Neptune, ClearML), vector stores
 * (Chroma, Weaviate, Pinecone, Qdrant, Milvus), search APIs (Serper, SerpAPI, Tavily, Bing, Brave,
 * Google search), media and code hosts (Pexels, Unsplash, GitHub, GitLab), error reporting (Sentry).
 */
export const NON_MODEL_SERVICE_PREFIX =
  /^(wandb|swanlab|mlflow|comet|neptune|clearml|chroma|chromadb|weaviate|pinecone|qdrant|milvus|serper|serpapi|tavily|bing|brave|google_search|google_cse|pexels|unsplash|github|gitlab|sentry|slack)(_|$)/;

export const FRONTEND_PREFIX = /^(vite|next_public|react_app|nuxt_public|nuxt|expo_public|gatsby|public)_/;

/**
 * Settings inside an MCP server block (`mcpServers.<name>` of Claude Code/VS Code/Cursor JSON, Codex
 * `[mcp_servers.<name>]`, an agent framework's `mcp.servers.<name>`): the headers and keys there reach a
 * tool server, not a model endpoint, so a placeholder there is that server's business.
 */
const MCP_BLOCK_SEGMENT = /^(mcp|mcp[_-]?servers)$/i;

/** True when a structured setting's dotted `path` runs through an MCP server block. */
export function isInMcpServerBlock(path: string): boolean {
  return path.split('.').some((segment) => MCP_BLOCK_SEGMENT.test(segment.replace(/^"|"$/g, '')));
}
