import { defineRule } from './rule';
import { bearerCredential, isExampleFile, shorten, subjectOf } from './util';
import { maskSecret } from '../model/secret';

const BEARER = /^bearer[ \t]+(?=\S)/i;

/**
 * A key role (`OPENAI_API_KEY`, `api_key=`, `apiKey`, `--api-key`) whose value starts with
 * `Bearer `. The SDKs add the scheme themselves (openai-python `auth_headers`:
 * `{"Authorization": f"Bearer {api_key}"}`; openai-node likewise), so the server receives
 * `Bearer Bearer sk-…` and answers 401. Header roles (`Authorization: Bearer …`, `-H`) are where the
 * prefix belongs; there only a doubled `Bearer Bearer …` is reported. Also reported on dynamic values whose literal text starts
 * with it (`"Bearer $TOKEN"`, `f"Bearer {key}"`). Template files are exempt.
 */
export default defineRule({
  meta: {
    id: 'api-key-bearer-prefix',
    title: 'API key value starts with "Bearer "',
    defaultSeverity: 'error',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'safe',
  },
  messages: {
    en: {
      bearer: '{key} starts with "Bearer " ({rest}); the client adds "Bearer " itself, so the server receives "Bearer Bearer …" and answers 401',
      'fix.drop': 'Remove "Bearer " from the key',
      headerKey: '{key} header starts with "Bearer " ({rest}); this header takes the bare key, so the server answers 401',
      header: '{key} header is "Bearer Bearer …" ({rest}); the server reads the second "Bearer" as the key and answers 401',
      'fix.dropHeader': 'Remove the repeated "Bearer "',
    },
    'zh-CN': {
      bearer: '{key} 以 "Bearer " 开头（{rest}）；客户端会自行加上 "Bearer "，服务器收到的是 "Bearer Bearer …"，会返回 401',
      'fix.drop': '删除密钥开头的 "Bearer "',
      headerKey: '{key} 请求头以 "Bearer " 开头（{rest}）；此请求头只接受密钥本身，服务器会返回 401',
      header: '{key} 请求头是 "Bearer Bearer …"（{rest}）；服务器会把第二个 "Bearer" 当作密钥，返回 401',
      'fix.dropHeader': '删除重复的 "Bearer "',
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
        messageId: setting.command === 'curl' ? 'headerKey' : 'bearer',
        data: { key: setting.key, rest },
        range: setting.contentRange,
        subject: subjectOf(setting),
        fixes: [{ titleId: 'fix.drop', safety: 'safe', edits: [{ range: { start, end: start + prefix[0].length }, text: '', intendedValue: setting.value?.startsWith(prefix[0]) ? setting.value.slice(prefix[0].length) : undefined }] }],
      });
    }
    for (const setting of resolution.byRole('header')) {
      const credential = bearerCredential(setting, document.text);
      const doubled = credential && BEARER.exec(credential.value);
      if (!credential || !doubled) continue;
      const exact = credential.range.end - credential.range.start === credential.value.length;
      const start = credential.range.start;
      report({
        messageId: 'header',
        data: { key: setting.key, rest: credential.dynamic ? shorten(credential.value.replace(BEARER, ''), 40) : maskSecret(credential.value.replace(BEARER, '')) },
        range: credential.range,
        subject: subjectOf(setting),
        fixes: exact ? [{ titleId: 'fix.dropHeader', safety: 'safe', edits: [{ range: { start, end: start + doubled[0].length }, text: '' }] }] : [],
      });
    }
  },
});
