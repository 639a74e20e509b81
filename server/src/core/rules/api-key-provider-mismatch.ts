import { defineRule } from './rule';
import { isExampleFile, subjectOf } from './util';
import { maskSecret } from '../model/secret';
import { providerName, providerOfKey } from '../providers/profiles';
import { isPlaceholderKey } from '../model/keys';
import type { Setting } from '../model/types';
import type { ResolvedBaseUrl } from '../resolve/resolve';

/** The `X_` of `X_API_KEY` / `X_BASE_URL` (upper case), or `undefined` for other names. */
function envPrefix(name: string): string | undefined {
  return /^(.*?)_?(API_KEY|AUTH_TOKEN|KEY|BASE_URL|API_BASE|BASE|ENDPOINT)$/i.exec(name)?.[1]?.toUpperCase();
}

/**
 * The base URL a key is sent with: for environment variables the one of the same prefix
 * (`ANTHROPIC_API_KEY` ↔ `ANTHROPIC_BASE_URL`); for call arguments and config entries the one in the
 * same block (`OpenAI(...)`, one openclaw provider). Only resolved URLs of a known provider count.
 */
function pairedBase(key: Setting, bases: readonly ResolvedBaseUrl[]): ResolvedBaseUrl | undefined {
  const candidates = bases.filter((b) => b.setting.group === key.group && b.parsed && b.providers.length > 0);
  if (key.kind !== 'env') return candidates[0];
  const prefix = envPrefix(key.envName ?? key.key);
  return candidates.find((b) => b.setting.kind === 'env' && envPrefix(b.setting.envName ?? b.setting.key) === prefix);
}

/**
 * A key whose distinctive prefix belongs to one provider (`sk-ant-` Anthropic, `sk-or-` OpenRouter,
 * `pplx-` Perplexity, `bce-v3/` Qianfan; per the profiles) configured beside a base URL of another
 * known remote provider (same `.env`, same provider entry, same call): that provider answers 401.
 * The shared `sk-` prefix (OpenAI, DeepSeek, Moonshot, DashScope, SiliconFlow …) never counts.
 */
export default defineRule({
  meta: {
    id: 'api-key-provider-mismatch',
    title: "API key belongs to another provider than the base URL's",
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: false,
  },
  messages: {
    en: {
      mismatch: '{key} ({masked}) carries the key prefix of {keyProvider} ({prefix}…), but it is sent to {provider} ({base}), which will answer 401; use a {provider} key, or point the base URL at {keyProvider}',
    },
    'zh-CN': {
      mismatch: '{key}（{masked}）带有 {keyProvider} 的密钥前缀（{prefix}…），却被发往 {provider}（{base}），对方会返回 401；请换用 {provider} 的密钥，或把 base URL 指向 {keyProvider}',
    },
  },
  check({ document, resolution, report, locale }) {
    if (isExampleFile(document.path)) return;
    for (const key of resolution.byRole('apiKey')) {
      const value = key.value?.trim();
      if (!value || key.valueType === 'dynamic' || isPlaceholderKey(value)) continue;
      const owner = providerOfKey(value, resolution.providers);
      if (!owner) continue;
      const base = pairedBase(key, resolution.baseUrls);
      if (!base) continue;
      const remote = base.providers.filter((p) => p.hosts.length > 0);
      if (remote.length === 0 || remote.some((p) => p.id === owner.profile.id)) continue;
      const provider = remote[0];
      report({
        messageId: 'mismatch',
        data: { key: key.key, masked: maskSecret(value), keyProvider: providerName(owner.profile, locale), prefix: owner.prefix, provider: providerName(provider, locale), base: new URL(base.setting.value!.trim()).origin },
        range: key.contentRange,
        subject: subjectOf(key),
      });
    }
  },
});
