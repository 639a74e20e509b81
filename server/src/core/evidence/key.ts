import type { Setting } from '../model/types';
import type { Resolution } from '../resolve/resolve';
import { calleeName, consumerOfCallee } from '../model/clients';
import { normalizeKey } from '../resolve/roles';
import { isLocalHost } from '../model/hosts';
import type { Evidence } from './evidence';
import { isInMcpServerBlock, MODEL_NAME_PREFIX as MODEL_KEY_PREFIX } from './vendors';

/** Path words under which a generic `api_key` is plausibly a model endpoint's key. */
const MODEL_PATH_WORD = /(^|[._\-[\]])(openai|anthropic|llm|model|models|provider|providers|rollout|policy|reward|judge|teacher|inference|serving|generation)([._\-[\]]|$)/i;

/** The name part before the key suffix: `OPENAI_API_KEY` → `openai`, `X-Cohere-Api-Key` → `cohere`, `--api-key` and `api_keys` → `` (generic). */
function keyPrefix(setting: Setting): string {
  return normalizeKey(setting.key).replace(/^x_/, '').replace(/_?(api_keys?|apikeys?|auth_token|key)$/, '');
}

/** The base-URL prefix of a base-URL key: `OPENAI_BASE_URL` → `openai`. */
function baseUrlPrefix(setting: Setting): string {
  return normalizeKey(setting.key).replace(/_?(base_url|api_base|baseurl|url|endpoint)$/, '');
}

/**
 * The base URL a key travels with: in the same group (one call, one mapping, one command, one
 * provider entry), for env settings only a base URL of the same name prefix (`OPENAI_API_KEY` with
 * `OPENAI_BASE_URL`), since one `.env` holds keys of many services.
 */
export function pairedBaseUrl(setting: Setting, resolution: Resolution): Setting | undefined {
  const group = baseUrlsByGroup(resolution).get(setting.group);
  if (!group) return undefined;
  if (setting.kind !== 'env') return group.first;
  // The first base URL of the group whose prefix is the key's (or `openai_api` for `openai`), by index: a
  // scan of the group per key made a `.env` of many services quadratic.
  const prefix = keyPrefix(setting);
  const same = group.byPrefix.get(prefix);
  const alias = prefix === 'openai' ? group.byPrefix.get('openai_api') : undefined;
  return (alias && (!same || alias.index < same.index) ? alias : same)?.base;
}

/** Per resolution: its base URLs by group: the first, and the first per name prefix with its position (every key rule asks, per key). */
const groupsOf = new WeakMap<Resolution, Map<string, { first: Setting; byPrefix: Map<string, { base: Setting; index: number }> }>>();

function baseUrlsByGroup(resolution: Resolution): Map<string, { first: Setting; byPrefix: Map<string, { base: Setting; index: number }> }> {
  let groups = groupsOf.get(resolution);
  if (!groups) {
    groups = new Map();
    let index = 0;
    for (const base of resolution.byRole('baseUrl')) {
      let group = groups.get(base.group);
      if (!group) groups.set(base.group, (group = { first: base, byPrefix: new Map() }));
      const prefix = baseUrlPrefix(base);
      if (!group.byPrefix.has(prefix)) group.byPrefix.set(prefix, { base, index });
      index++;
    }
    groupsOf.set(resolution, groups);
  }
  return groups;
}

/**
 * Whether an `apiKey`-role setting is the key of an LLM endpoint, and how sure (DESIGN "Evidence"),
 * or `undefined` when nothing ties it to one (`WANDB_API_KEY`, a search backend's `api_key`):
 * - proven: its name names a model vendor, gateway or RL role (`OPENAI_API_KEY`, `JUDGE_API_KEY`); it
 *   is set beside a base URL (`pairedBaseUrl`); it is a keyword argument of an LLM client
 *   (`OpenAI(api_key=…)`, `litellm.completion(api_key=…)`);
 * - known: a generic name under a model-ish path (`rollout.api_key`, `llm.api_key`);
 * - plausible: a generic name (`api_key`, `--api-key`) with nothing else in sight.
 */
export function llmKeyEvidence(setting: Setting, resolution: Resolution): Evidence | undefined {
  if (setting.kind !== 'env' && isInMcpServerBlock(setting.path)) return undefined;
  const prefix = keyPrefix(setting);
  const vendor = MODEL_KEY_PREFIX.exec(prefix)?.[1];
  if (vendor) return { strength: 'proven', id: 'key.providerName', data: { key: setting.key, provider: vendor } };
  const paired = pairedBaseUrl(setting, resolution);
  if (paired) return { strength: 'proven', id: 'key.sameBlock', data: { key: setting.key, baseKey: paired.key } };
  if (setting.kind === 'kwarg' && setting.callee && consumerOfCallee(setting.callee)) {
    return { strength: 'proven', id: 'key.client', data: { key: setting.key, client: `${calleeName(setting.callee)}(…)` } };
  }
  if (setting.kind !== 'env' && MODEL_PATH_WORD.test(setting.path)) return { strength: 'known', id: 'key.modelPath', data: { key: setting.key, path: setting.path } };
  if (prefix === '' && (setting.kind !== 'dictEntry' || !setting.path.includes('.'))) return { strength: 'plausible', id: 'key.generic', data: { key: setting.key } };
  return undefined;
}

/** Vendors reached only as hosted services: a dummy key for them is a mistake, not a self-hosted habit. */
const HOSTED_ONLY = /^(azure_openai|anthropic|claude|deepseek|openrouter|taotoken|dashscope|moonshot|kimi|zhipu|glm|gemini|mistral|groq|together|fireworks|xai|siliconflow|ark|volcengine|minimax|baichuan|perplexity|cohere)(_|$)/;

/** True when the key's name names a vendor that is only hosted (`GEMINI_API_KEY`, not `OPENAI_API_KEY`). */
export function isHostedOnlyKey(setting: Setting): boolean {
  return HOSTED_ONLY.test(keyPrefix(setting));
}

/** Values people write on purpose for a server that takes no key: `dummy`, `EMPTY`, `none`, `not-needed`. */
const DUMMY_KEY = /^(sk-)?(dummy|empty|none|null|nil|na|n\/a|fake|test|placeholder|unused|not[-_ ]?(needed|used|required)|no[-_ ]?key|local|anything|x|-)$/i;

/** True for a deliberate dummy key value (`isPlaceholderKey` may also hold for it). */
export function isDummyKey(value: string): boolean {
  return DUMMY_KEY.test(value.trim());
}

/**
 * True when a base-URL setting points at a self-hosted server: a loopback or private host, or a host
 * that is a variable (`http://${SGLANG_HOST}:${SGLANG_PORT}/v1`, `f"http://{host}:{port}/v1"`): a
 * hosted provider's URL is written out, a variable host is a server the run starts or chooses.
 */
export function isSelfHostedBase(setting: Setting, resolution: Resolution): boolean {
  const parsed = resolution.baseUrls.find((b) => b.setting === setting)?.parsed;
  if (parsed) return isLocalHost(parsed.host);
  const raw = setting.raw.replace(/^[fFrRbB]{0,2}["'`]/, '');
  return /^https?:\/\/(\$|\{)/.test(raw) || /^\$\{?\w+\}?(:\$\{?\w+\}?)?(\/|$)/.test(raw) || /^\{[\w.]+\}(\/|$)/.test(raw) || /^[A-Za-z_][\w.]*\s*\+/.test(raw);
}

/** Settings beside which an Azure OpenAI client is built: with an empty key it uses Azure AD tokens (openai-python `lib/azure.py`). */
const AZURE_SIBLING = /^(azure_endpoint|azure_deployment|api_version|openai_api_version|azure_ad_token|azure_ad_token_provider|azure_openai_endpoint|azure_openai_api_version)$/;

/** Names of a mapping of defaults that environment variables overlay (`SOMARK_DEFAULT_CONFIG`, `DEFAULTS`, `default_env`). */
const DEFAULTS_TABLE = /(^|_)defaults?(_|$)/i;

/**
 * Why an empty key is deliberate, or `undefined` when nothing says so (issue 23, kind 4):
 * - beside Azure settings (`azure_endpoint`, `api_version`, `azure_ad_token_provider`) or with `azure` in
 *   its name: AzureOpenAI then authenticates with Azure AD;
 * - beside another credential in the same group that is set (`ANTHROPIC_AUTH_TOKEN: "test"` with
 *   `ANTHROPIC_API_KEY: ""`: Claude Code sends the token);
 * - an entry of a defaults table (`X_DEFAULT_CONFIG = {"X_API_KEY": ""}`) that the environment overlays.
 */
export function emptyKeyMeaning(setting: Setting, resolution: Resolution): Evidence | undefined {
  const siblings = resolution.settings.filter((s) => s !== setting && s.group === setting.group);
  const azure = siblings.find((s) => AZURE_SIBLING.test(normalizeKey(s.key)));
  if (azure || /(^|_)azure(_|$)/.test(normalizeKey(setting.key))) {
    return { strength: 'plausible', id: 'key.emptyAzureAd', data: { key: setting.key, other: azure?.key ?? setting.key } };
  }
  const other = siblings.find((s) => s.role === 'apiKey' && s.value !== undefined && s.value.trim() !== '');
  if (other) return { strength: 'plausible', id: 'key.emptyAlternative', data: { key: setting.key, other: other.key } };
  const table = setting.kind === 'dictEntry' ? setting.path.split('.')[0] : undefined;
  if (table && table !== setting.path && DEFAULTS_TABLE.test(table)) return { strength: 'plausible', id: 'key.emptyDefaults', data: { key: setting.key, dict: table } };
  return undefined;
}
