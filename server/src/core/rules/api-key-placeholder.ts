import { defineRule } from './rule';
import { isExampleFile, shorten, subjectOf } from './util';
import { isPlaceholderKey } from '../model/keys';
import { maskSecret } from '../model/secret';
import { literalTemplate } from './url-shape';
import { isLocalHost } from '../model/hosts';

/**
 * A key role whose value is a placeholder (`YOUR_API_KEY`, `ADD_YOUR_KEY_HERE`, `<key>`, `sk-xxxx`) or a
 * `${…}` template nothing expands (shell single quotes, a Python string; YAML/JSON `${…}` is left to
 * Compose/OmegaConf/OpenClaw interpolation). Servers answer 401.
 * Template files (`.env.example`) are exempt.
 */
export default defineRule({
  meta: {
    id: 'api-key-placeholder',
    title: 'API key is still a placeholder',
    defaultSeverity: 'error',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell'],
    fixable: false,
  },
  messages: {
    en: {
      placeholder: '{key} is the placeholder "{value}"; the server will answer 401: put the real key in a git-ignored .env (or export it in the shell that starts the client)',
      placeholderLocal: '{key} is the dummy value "{value}" for a local server: fine when the server runs without --api-key; if it was started with one, it will answer 401',
      templateSingleQuoted: '{key} is the literal text {value}: single quotes stop the shell from expanding ${…}; the server receives it as the key and answers 401',
      templateLiteral: '{key} is the literal text {value}: nothing expands ${…} here; the server receives it as the key and answers 401',
    },
    'zh-CN': {
      placeholder: '{key} 仍是占位符 "{value}"；服务器会返回 401：请把真实密钥放到被 git 忽略的 .env 中，或在启动客户端的 shell 中 export 它',
      placeholderLocal: '{key} 是发往本地服务器的占位值 "{value}"：服务器未设置 --api-key 时没有问题；若设置了，则会返回 401',
      templateSingleQuoted: '{key} 是字面文本 {value}：单引号会阻止 shell 展开 ${…}；服务器会把它当作密钥并返回 401',
      templateLiteral: '{key} 是字面文本 {value}：这里没有任何东西会展开 ${…}；服务器会把它当作密钥并返回 401',
    },
  },
  check({ document, resolution, report }) {
    if (isExampleFile(document.path)) return;
    const localGroups = new Set(resolution.baseUrls.filter((b) => b.parsed && isLocalHost(b.parsed.host)).map((b) => b.setting.group));
    for (const setting of resolution.byRole('apiKey')) {
      if (setting.value === undefined || setting.kind === 'envDefault' || !isPlaceholderKey(setting.value)) continue;
      const template = /\$\{([^}]*)\}|\$([A-Za-z_]\w*)/.exec(setting.value);
      const unexpanded = template ? literalTemplate(setting) : undefined;
      if (template && !unexpanded) continue;
      const local = localGroups.has(setting.group);
      const messageId = !template ? (local ? 'placeholderLocal' : 'placeholder') : unexpanded === 'singleQuoted' ? 'templateSingleQuoted' : 'templateLiteral';
      const name = template?.[1] ?? template?.[2] ?? '';
      report({
        severity: local ? 'hint' : undefined,
        messageId,
        data: { key: setting.key, value: template ? `\${${/^[A-Za-z_]\w*$/.test(name) ? name : maskSecret(name)}}` : shorten(setting.value, 40) },
        range: setting.contentRange,
        subject: subjectOf(setting),
      });
    }
  },
});
