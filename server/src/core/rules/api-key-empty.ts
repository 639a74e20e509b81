import { defineRule } from './rule';
import { subjectOf } from './util';
import { emptyKeyMeaning, llmKeyEvidence, pairedBaseUrl } from '../evidence/key';

/**
 * A key that a client will send empty (`api_key=""`, `OPENAI_API_KEY=`): the SDK sends
 * `Authorization: Bearer ` and the server answers 401 (or the SDK refuses to start). Defaults in
 * `os.getenv("K", "")` and `${K:-}` are not reported: they are often a server's own "no key expected".
 * Keys of other services (`WANDB_API_KEY=`) are left alone and absent values (`None`, `null`, a
 * SkyPilot `secrets: {K: }` filled by `--secret`) are not empty: see `llmKeyEvidence`, `isAbsentValue`.
 * An empty key beside an empty base URL is an unfilled block of a config template: a hint. An empty
 * key that means something (`emptyKeyMeaning`: Azure AD, another credential, env-overlaid defaults) is not reported.
 */
export default defineRule({
  meta: {
    id: 'api-key-empty',
    title: 'API key is empty',
    defaultSeverity: 'error',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: false,
  },
  messages: {
    en: {
      empty: '{key} is empty; the client will send an empty key and the server will answer 401: set the key, or "EMPTY" for a local server started without --api-key',
    },
    'zh-CN': {
      empty: '{key} 为空；客户端会发送空密钥，服务器会返回 401：请设置密钥；若本地服务器未设置 --api-key，可填 "EMPTY"',
    },
  },
  check({ file, resolution, report }) {
    if (file.kind === 'template') return;
    for (const setting of resolution.byRole('apiKey')) {
      if (setting.kind === 'envDefault' || setting.kind === 'assignment' || setting.value === undefined) continue;
      if (setting.value.trim() !== '' || setting.valueType !== 'string') continue;
      const keyEvidence = llmKeyEvidence(setting, resolution);
      if (!keyEvidence) continue;
      const base = pairedBaseUrl(setting, resolution);
      const unfilled = base !== undefined && base.valueType === 'string' && base.value?.trim() === '';
      if (emptyKeyMeaning(setting, resolution)) continue;
      const evidence = unfilled ? { ...keyEvidence, strength: 'plausible' as const } : keyEvidence;
      report({
        evidence, messageId: 'empty', data: { key: setting.key }, range: { start: setting.keyRange.start, end: Math.max(setting.keyRange.end, setting.valueRange.end) }, subject: subjectOf(setting) });
    }
  },
});
