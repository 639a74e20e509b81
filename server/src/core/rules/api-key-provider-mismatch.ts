import { defineRule } from './rule';
import { isExampleFile, subjectOf } from './util';
import { maskSecret } from '../model/secret';
import { providerOfKey } from '../providers/profiles';

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
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell'],
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
  check({ document, resolution, report }) {
    if (isExampleFile(document.path)) return;
    for (const key of resolution.byRole('apiKey')) {
      const value = key.value?.trim();
      if (!value || key.valueType === 'dynamic') continue;
      const owner = providerOfKey(value, resolution.providers);
      if (!owner) continue;
      const base = resolution.baseUrls.find((b) => b.setting.group === key.group && b.parsed && b.providers.length > 0);
      if (!base) continue;
      const remote = base.providers.filter((p) => p.hosts.length > 0);
      if (remote.length === 0 || remote.some((p) => p.id === owner.profile.id)) continue;
      const provider = remote[0];
      report({
        messageId: 'mismatch',
        data: { key: key.key, masked: maskSecret(value), keyProvider: owner.profile.name, prefix: owner.prefix, provider: provider.name, base: new URL(base.setting.value!.trim()).origin },
        range: key.contentRange,
        subject: subjectOf(key),
      });
    }
  },
});
