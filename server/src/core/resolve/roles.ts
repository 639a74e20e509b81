import { isHttpClientCall } from '../model/clients';
import { toolFlags } from '../model/tools';
import type { Role, Setting } from '../model/types';
import { FRONTEND_PREFIX, MODEL_NAME_WORD, NON_MODEL_SERVICE_PREFIX } from '../evidence/vendors';

/**
 * The role table (DESIGN "Roles"). Key names are normalised before matching: lower-cased, leading
 * dashes removed, `-` turned into `_`, so `--base-url`, `BASE_URL`, `baseUrl` and `base-url` meet.
 * `exact` names match the whole key; `suffix` names match its end after a `_` (or the whole key).
 * Bind addresses (`--host`, `HOST`, `--bind`) are deliberately absent: they are never destinations.
 */
export interface RoleRule {
  role: Role;
  exact?: string[];
  suffix?: string[];
  /** Only for these setting kinds (e.g. `--openai_key` style flags). */
  kinds?: Setting['kind'][];
}

export const ROLE_TABLE: readonly RoleRule[] = [
  {
    role: 'baseUrl',
    // `apiBaseUrl`/`api_base_url`: provider blocks of agent frameworks and eval tools (e.g. a YAML `providers.<name>.apiBaseUrl`).
    exact: ['openai_base_url', 'openai_api_base', 'base_url', 'baseurl', 'api_base', 'apibase', 'azure_endpoint', 'azure_openai_endpoint', 'openai_api_base_url', 'apibaseurl'],
    suffix: ['_base_url', '_api_base', '_baseurl', '_apibaseurl'],
  },
  { role: 'host', exact: ['sglang_router_ip'], suffix: ['_server_host', '_router_ip', '_router_host'] },
  { role: 'port', suffix: ['_server_port', '_router_port'] },
  { role: 'apiKey', exact: ['api_key', 'apikey', 'openai_key', 'auth_token', 'experimental_bearer_token'], suffix: ['_api_key', '_auth_token', '_apikey'] },
  // A list of keys a client rotates through (`api_keys: [sk-…, sk-…]`): each item is a key.
  { role: 'apiKey', exact: ['api_keys', 'apikeys'], suffix: ['_api_keys', '_apikeys'] },
  { role: 'apiKey', suffix: ['openai_key', 'anthropic_key', 'deepseek_key', 'openrouter_key', 'llm_key'], kinds: ['flag'] },
  { role: 'header', exact: ['authorization'] },
  { role: 'logprobs', exact: ['logprobs', 'return_logprob'] },
  { role: 'topLogprobs', exact: ['top_logprobs'] },
  { role: 'maxLogprobs', exact: ['max_logprobs'] },
  { role: 'model', exact: ['model', 'model_id', 'served_model_name', 'model_name'], suffix: ['_model'] },
  { role: 'proxy', exact: ['http_proxy', 'https_proxy', 'all_proxy'] },
  { role: 'noProxy', exact: ['no_proxy'] },
  { role: 'apiVersion', exact: ['api_version', 'openai_api_version'] },
];

/** Normalises a key for role matching: `--Base-URL` → `base_url`, `baseURL` → `baseurl`. */
export function normalizeKey(key: string): string {
  return key.replace(/^-+/, '').replace(/-/g, '_').toLowerCase();
}

function matches(rule: { exact?: string[]; suffix?: string[] }, key: string): boolean {
  if (rule.exact?.includes(key)) return true;
  return rule.suffix?.some((s) => key === s.replace(/^_/, '') || key.endsWith(s)) ?? false;
}

/**
 * The role of a setting, or `undefined`. `extraKeys` (from configuration) are checked first, as exact
 * normalised names. openclaw.json's provider `api` field is the `apiType` role; a curl command's URL
 * is a `baseUrl` read as written (the `raw` consumer).
 */
export function roleOf(setting: Setting, extraKeys: Partial<Record<Role, string[]>> = {}): Role | undefined {
  const key = normalizeKey(setting.key);
  for (const [role, names] of Object.entries(extraKeys)) {
    if (names?.some((n) => normalizeKey(n) === key)) return role as Role;
  }
  if (isRequestUrl(setting)) return 'baseUrl';
  const tool = setting.kind === 'flag' ? toolFlags(setting.command)?.[setting.key] : undefined;
  if (tool) return tool.role;
  if (setting.format === 'json' && key === 'api' && /(^|\.)providers\.("[^"]*"|[^."]+)\.api$/.test(setting.path)) return 'apiType';
  for (const rule of ROLE_TABLE) {
    if (rule.kinds && !rule.kinds.includes(setting.kind)) continue;
    if (matches(rule, key)) return isFrontendSetting(key, rule.role) ? undefined : rule.role;
  }
  return undefined;
}

/**
 * A browser app's build variable (`VITE_BACKEND_BASE_URL`, `NEXT_PUBLIC_API_KEY`) that names no
 * model vendor or role, or the base URL of a service that is not a model endpoint (`WANDB_BASE_URL`):
 * out of Rollout Lint's scope. (Such keys keep their role, so they stay masked; `llmKeyEvidence`
 * leaves them alone.)
 */
function isFrontendSetting(key: string, role: Role): boolean {
  if (role === 'baseUrl' && NON_MODEL_SERVICE_PREFIX.test(key)) return true;
  return (role === 'baseUrl' || role === 'apiKey') && FRONTEND_PREFIX.test(key) && !MODEL_NAME_WORD.test(key.replace(FRONTEND_PREFIX, ''));
}

/**
 * A full request URL used as written: a curl command's URL, or the URL of an HTTP client call
 * (`requests.post("…")`, `httpx.post(url="…")`). Such a "base URL" has the `raw` consumer.
 */
export function isRequestUrl(setting: Setting): boolean {
  if (normalizeKey(setting.key) !== 'url') return false;
  if (setting.kind === 'flag') return setting.command === 'curl';
  return setting.kind === 'kwarg' && isHttpClientCall(setting.callee ?? '');
}
