import type { Consumer, ConsumerEvidence, Setting } from '../model/types';
import { isRequestUrl, normalizeKey } from './roles';
import { consumerOfCallee, operationPathOfCallee } from '../model/clients';
import { isCodexCommand, toolFlags } from '../model/tools';


/**
 * LiteLLM proxy `config.yaml`: `model_list[i].litellm_params.api_base` is handed to an OpenAI-style
 * client as its base URL for OpenAI-compatible providers (`openai/…`, `hosted_vllm/…`); Azure models
 * build their own URL (LiteLLM proxy docs, "config.yaml").
 */
const LITELLM_API_BASE = /(^|\.)model_list\[\d+\]\.litellm_params\.api_base$/;

/** openclaw.json provider `api` values → consumer (OpenClaw's provider configuration docs). */
const OPENCLAW_API: Record<string, Consumer['id']> = {
  'openai-completions': 'openai-sdk',
  'openai-responses': 'openai-responses',
  'anthropic-messages': 'anthropic',
};

/**
 * Codex `config.toml` `[model_providers.<id>]` `wire_api` → consumer. Codex requests
 * `{base_url without trailing /}/{responses | chat/completions}` and appends `query_params`
 * (openai/codex codex-rs/codex-api/src/provider.rs `url_for_path`). Current Codex knows only
 * `responses`, its default, and refuses `chat` (codex-rs/model-provider-info/src/lib.rs `WireApi`);
 * releases before that defaulted to `chat` (codex-rs/core/src/model_provider_info.rs), so a written
 * `chat` still means Chat Completions for the Codex that reads it.
 */
const CODEX_WIRE_API: Record<string, Consumer['id']> = { chat: 'openai-sdk', responses: 'openai-responses' };
const CODEX_BASE_URL = /(^|\.)model_providers\.("[^"]*"|[^."]+)\.base_url$/;

/** True for a Codex provider's `base_url` (`config.toml` `[model_providers.<id>]`, or `codex -c model_providers.<id>.base_url=…`). */
export function isCodexBaseUrl(setting: Setting): boolean {
  return (setting.format === 'toml' || isCodexCommand(setting.command)) && CODEX_BASE_URL.test(setting.path);
}

/**
 * The `api` OpenClaw uses for a custom provider that has a `baseUrl` and no `api`. Source: OpenClaw's
 * model-provider docs ("If `api` is omitted on a custom provider with a `baseUrl`, OpenClaw defaults to
 * `openai-completions`"); checked against the `openclaw` npm package 2026.9.6 by the conformance suite
 * (`test/conformance`), which records `POST {baseUrl}/chat/completions` for such a provider.
 */
export const OPENCLAW_DEFAULT_API = 'openai-completions';

/**
 * The consumers of one base-URL setting, from what the same document shows:
 * the env name (`OPENAI_BASE_URL` → openai SDK; `ANTHROPIC_BASE_URL` → Anthropic SDK), the callee of
 * a kwarg, the openclaw provider's `api` field (missing = `OPENCLAW_DEFAULT_API`), and code that joins a path onto
 * the variable or env var (`evidence`). `groupOf` lists the settings of a group (same provider
 * entry, same call). An empty result means "unknown".
 */
export function consumersOf(setting: Setting, groupOf: (group: string) => readonly Setting[], evidence: readonly ConsumerEvidence[]): Consumer[] {
  const out: Consumer[] = [];
  const key = normalizeKey(setting.key);
  const envLike = setting.kind === 'env' || setting.kind === 'envDefault';
  if (envLike && (key === 'openai_base_url' || key === 'openai_api_base')) {
    out.push({ id: 'openai-sdk', via: `${setting.key} (openai SDK)` });
  }
  if (envLike && key === 'anthropic_base_url') out.push({ id: 'anthropic', via: `${setting.key} (Anthropic SDK)` });
  if (setting.format === 'yaml' && LITELLM_API_BASE.test(setting.path)) {
    const model = groupOf(setting.group).find((s) => s.key === 'model')?.value ?? '';
    if (!/^azure(_ai)?\//.test(model)) out.push({ id: 'openai-sdk', via: `LiteLLM (model=${model || '?'})` });
  }
  if (isRequestUrl(setting)) out.push({ id: 'raw', via: setting.kind === 'flag' ? 'curl' : `${setting.callee}(…)` });
  // AzureOpenAI(azure_endpoint=…) builds `{endpoint}/openai/deployments/…` itself (openai-python lib/azure.py), not the SDK join.
  if (setting.kind === 'kwarg' && setting.callee && key !== 'azure_endpoint') {
    const id = consumerOfCallee(setting.callee);
    const operationPath = operationPathOfCallee(setting.callee);
    if (id) out.push({ id, via: `${setting.callee}(${setting.key}=…)`, ...(operationPath ? { operationPath } : {}) });
  }
  if (setting.format === 'json' && /(^|\.)providers\.("[^"]*"|[^."]+)\.baseUrl$/.test(setting.path)) {
    const api = groupOf(setting.group).find((s) => s.key === 'api');
    const id = OPENCLAW_API[api?.value ?? OPENCLAW_DEFAULT_API];
    if (id) out.push({ id, via: api ? `openclaw "api": "${api.value}"` : `openclaw provider without "api" (default ${OPENCLAW_DEFAULT_API})` });
  }
  const tool = setting.kind === 'flag' ? toolFlags(setting.command)?.[setting.key]?.consumer : undefined;
  if (tool) out.push({ ...tool });
  if (isCodexBaseUrl(setting)) {
    const wire = groupOf(setting.group).find((s) => s.key === 'wire_api');
    const id = CODEX_WIRE_API[wire?.value ?? 'responses'];
    if (id) out.push({ id, via: wire ? `Codex wire_api = "${wire.value}"` : 'Codex (wire_api defaults to "responses")' });
  }
  const targets = new Set<string>();
  if (setting.kind === 'assignment') targets.add(setting.path).add(setting.key);
  if (setting.kind === 'property') targets.add(`load:${setting.path}`);
  if (envLike) targets.add(`env:${setting.envName ?? setting.key}`);
  for (const e of evidence) {
    const inside = !e.within || (e.within.start <= setting.statementRange.start && setting.statementRange.start < e.within.end);
    if (inside && targets.has(e.target) && !out.some((c) => c.id === e.consumer.id && c.appendedPath === e.consumer.appendedPath)) {
      out.push(e.consumer);
    }
  }
  return out;
}
