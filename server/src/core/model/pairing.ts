import type { Setting } from './types';
import type { ProviderProfile } from '../providers/profiles';

/** `OPENAI_BASE_URL` → `openai`, `ANTHROPIC_API_KEY` → `anthropic`, `base_url`/`api_key` → `''`. */
export function variableFamily(name: string): string {
  return name
    .replace(/^-+/, '')
    .replace(/-/g, '_')
    .toLowerCase()
    .replace(/_?(base_url|api_base|baseurl|apibase|url|endpoint|api_key|apikey|auth_token|token|key)$/, '');
}

/**
 * The API key that belongs with the base URL `base` (DESIGN "Security model": a key goes only to
 * the base URL configured with it), from `settings` of the same document:
 * - env variables (`.env`, `export`, compose `environment:`), where one block holds several
 *   providers: the key of the same variable family (`OPENAI_API_KEY` ↔ `OPENAI_BASE_URL`,
 *   `ANTHROPIC_AUTH_TOKEN` ↔ `ANTHROPIC_BASE_URL`) or a provider profile naming both (`keyEnv`,
 *   `baseEnv`);
 * - other blocks (one `OpenAI(...)` call, one openclaw provider, one YAML mapping): the only key of
 *   the block, or the one of the same family when there are several.
 * `undefined` when no key pairs with certainty: callers then send none, or ask.
 */
export function pairedKey(base: Setting, settings: readonly Setting[], profiles: readonly ProviderProfile[] = []): Setting | undefined {
  const keys = settings.filter((s) => s.role === 'apiKey' && s.group === base.group && s.value !== undefined && s.valueType !== 'dynamic');
  const family = variableFamily(base.key);
  const sameFamily = keys.filter((k) => variableFamily(k.key) === family);
  if (base.kind === 'env') {
    const upper = base.key.toUpperCase();
    const byProfile = keys.filter((k) => profiles.some((p) => p.baseEnv?.some((b) => b.toUpperCase() === upper) && p.keyEnv?.some((e) => e.toUpperCase() === k.key.toUpperCase())));
    const found = family !== '' ? [...new Set([...sameFamily, ...byProfile])] : byProfile;
    return found.length === 1 ? found[0] : undefined;
  }
  if (keys.length === 1 && (keys[0].kind !== 'env' || variableFamily(keys[0].key) === family)) return keys[0];
  return sameFamily.length === 1 ? sameFamily[0] : undefined;
}
