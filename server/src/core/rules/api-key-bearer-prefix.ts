import { defineRule } from './rule';
import { isExampleFile, shorten, subjectOf } from './util';
import { maskSecret } from '../model/secret';

const BEARER = /^bearer[ \t]+(?=\S)/i;

/**
 * A key role (`OPENAI_API_KEY`, `api_key=`, `apiKey`, `--api-key`) whose value starts with
 * `Bearer `. The SDKs add the scheme themselves (openai-python `auth_headers`:
 * `{"Authorization": f"Bearer {api_key}"}`; openai-node likewise), so the server receives
 * `Bearer Bearer sk-…` and answers 401. Header roles (`Authorization: Bearer …`, `-H`) are where the
 * prefix belongs and are never read here. Also reported on dynamic values whose literal text starts
 * with it (`"Bearer $TOKEN"`, `f"Bearer {key}"`). Template files are exempt.
 */
export default defineRule({
  meta: {
    id: 'api-key-bearer-prefix',
    title: 'API key value starts with "Bearer "',
    defaultSeverity: 'error',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell'],
    fixable: 'safe',
  },
  messages: {
    en: {
      bearer: '{key} starts with "Bearer " ({rest}); the client adds "Bearer " itself, so the server receives "Bearer Bearer …" and answers 401',
      'fix.drop': 'Remove "Bearer " from the key',
    },
    'zh-CN': {
      bearer: '{key} 以 "Bearer " 开头（{rest}）；客户端会自行加上 "Bearer "，服务器收到的是 "Bearer Bearer …"，会返回 401',
      'fix.drop': '删除密钥开头的 "Bearer "',
    },
  },
  check({ document, resolution, report }) {
    if (isExampleFile(document.path)) return;
    for (const setting of resolution.byRole('apiKey')) {
      const source = document.text.slice(setting.contentRange.start, setting.contentRange.end);
      const prefix = BEARER.exec(source);
      if (!prefix) continue;
      const rest = setting.value !== undefined ? maskSecret(setting.value.trim().replace(/^bearer\s+/i, '')) : shorten(source.slice(prefix[0].length), 40);
      const start = setting.contentRange.start;
      report({
        messageId: 'bearer',
        data: { key: setting.key, rest },
        range: setting.contentRange,
        subject: subjectOf(setting),
        fixes: [{ titleId: 'fix.drop', safety: 'safe', edits: [{ range: { start, end: start + prefix[0].length }, text: '', intendedValue: setting.value?.startsWith(prefix[0]) ? setting.value.slice(prefix[0].length) : undefined }] }],
      });
    }
  },
});
