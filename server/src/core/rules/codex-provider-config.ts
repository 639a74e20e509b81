import type { Setting } from '../model/types';
import { isRealLookingKey } from '../model/keys';
import { maskSecret } from '../model/secret';
import { defineRule } from './rule';
import { isExampleFile, replaceContent, subjectOf } from './util';
import { firstBy } from '../group-by';

/**
 * Provider ids Codex builds in and refuses in `[model_providers.<id>]`: "model_providers contains
 * reserved built-in provider IDs … Built-in providers cannot be overridden. Rename your custom
 * provider (for example, `openai-custom`)." Source: openai/codex codex-rs/config/src/config_toml.rs
 * (`RESERVED_MODEL_PROVIDER_IDS` = amazon-bedrock, openai, ollama, lmstudio; `amazon-bedrock` is
 * exempt from the check, it may be amended) and codex-rs/model-provider-info/src/lib.rs
 * (`OPENAI_PROVIDER_ID`, `OLLAMA_OSS_PROVIDER_ID`, `LMSTUDIO_OSS_PROVIDER_ID`).
 */
export const CODEX_RESERVED_PROVIDER_IDS: readonly string[] = ['openai', 'ollama', 'lmstudio'];

/** `[model_providers.<id>]` (the id unquoted) of a setting, or `undefined`. */
function providerId(setting: Setting): string | undefined {
  const m = /^model_providers\.("(?:[^"\\]|\\.)*"|'[^']*'|[^.]+)\./.exec(setting.path);
  return m ? m[1].replace(/^["']|["']$/g, '') : undefined;
}

/** An environment variable name as Codex looks it up (`std::env::var`): a POSIX-style identifier. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Codex `config.toml` provider tables that Codex rejects or misreads:
 * - `[model_providers.openai]` (or `ollama`, `lmstudio`): a reserved built-in id; Codex refuses to
 *   load the config (`CODEX_RESERVED_PROVIDER_IDS`);
 * - `wire_api = "chat"`: current Codex accepts only `"responses"` and refuses to load the config
 *   ("`wire_api = \"chat\"` is no longer supported", `CHAT_WIRE_API_REMOVED_ERROR`,
 *   codex-rs/model-provider-info/src/lib.rs; openai/codex discussion 7782);
 * - `env_key` holding a key instead of the variable's name: Codex reads the environment variable
 *   named by `env_key` (`ModelProviderInfo::api_key`, `std::env::var(env_key)`), so it looks up a
 *   variable named like the key, finds none and stops; the key also sits in the config file.
 */
export default defineRule({
  meta: {
    id: 'codex-provider-config',
    title: 'Codex model provider that Codex rejects (built-in id, wire_api = "chat", a key in env_key)',
    defaultSeverity: 'error',
    formats: ['toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      reservedId: '[model_providers.{id}] reuses the built-in provider id "{id}": Codex refuses to load the config ("Built-in providers cannot be overridden"). Rename the table and model_provider (for example "{id}-custom")',
      wireApiChat: 'wire_api = "chat" is no longer supported by Codex, which refuses to load the config; only "responses" is accepted, and the server must serve POST {base}/responses',
      envKeySecret: 'env_key holds a key ({masked}), not the name of an environment variable: Codex looks up a variable with that name, finds none and stops. Put the variable\'s name here (for example "{suggestion}") and export the key in the shell',
      'fix.responses': 'Use wire_api = "responses"',
    },
    'zh-CN': {
      reservedId: '[model_providers.{id}] 使用了内置服务商 id "{id}"：Codex 会拒绝加载配置（"Built-in providers cannot be overridden"）。请重命名该表及 model_provider（例如 "{id}-custom"）',
      wireApiChat: 'Codex 已不再支持 wire_api = "chat"，会拒绝加载配置；只接受 "responses"，且服务器须提供 POST {base}/responses',
      envKeySecret: 'env_key 中是密钥（{masked}），而不是环境变量名：Codex 会查找以此为名的变量，找不到便停止。请在此填写变量名（例如 "{suggestion}"），并在 shell 中 export 密钥',
      'fix.responses': '改为 wire_api = "responses"',
    },
  },
  check({ document, extraction, report }) {
    if (isExampleFile(document.path)) return;
    const reported = new Set<string>();
    /** Each group's first `base_url` setting, built on first need (a search of every setting per provider was quadratic). */
    let baseUrlOf: Map<string, (typeof extraction.settings)[number]> | undefined;
    for (const setting of extraction.settings) {
      const id = providerId(setting);
      if (id === undefined || setting.kind !== 'property') continue;
      if (CODEX_RESERVED_PROVIDER_IDS.includes(id) && !reported.has(id)) {
        reported.add(id);
        const anchor = extraction.groups?.[setting.group]?.anchorRange;
        report({ messageId: 'reservedId', data: { id }, range: anchor && anchor.end > anchor.start ? anchor : setting.keyRange, subject: `codex-provider@${id}` });
      }
      const value = setting.value?.trim();
      if (setting.valueType !== 'string' || value === undefined) continue;
      if (setting.key === 'wire_api' && value === 'chat') {
        baseUrlOf ??= firstBy(extraction.settings.filter((s) => s.key === 'base_url'), (s) => s.group);
        const base = baseUrlOf.get(setting.group)?.value?.trim().replace(/\/+$/, '') ?? '<base_url>';
        report({
          messageId: 'wireApiChat',
          data: { base },
          range: setting.contentRange,
          subject: subjectOf(setting),
          fixes: [{ titleId: 'fix.responses', safety: 'unsafe', edits: [replaceContent(setting, 'responses')] }],
        });
      } else if (setting.key === 'env_key' && value !== '' && (!ENV_NAME.test(value) || (isRealLookingKey(value) && !/^[A-Z0-9_]+$/.test(value)))) {
        report({
          messageId: 'envKeySecret',
          data: { masked: maskSecret(value), suggestion: `${id.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_API_KEY` },
          range: setting.contentRange,
          subject: subjectOf(setting),
        });
      }
    }
  },
});
