import { defineRule } from './rule';
import { isExampleFile, shorten, subjectOf } from './util';
import { isPlaceholderUrl, literalTemplate } from './url-shape';
import type { Setting } from '../model/types';

/**
 * A base URL or destination host that is still a documentation placeholder (`<HOST_IP>`,
 * `YOUR_BASE_URL`, `http://x.x.x.x:port`) or a `${VAR}` that nothing expands (shell single quotes,
 * a Python string literal, a single-quoted dotenv value). The client cannot resolve or parse it and
 * the rollout never gets a response. Template files (`.env.example`) are exempt.
 */
export default defineRule({
  meta: {
    id: 'base-url-placeholder',
    title: 'Base URL or host is still a placeholder',
    defaultSeverity: 'error',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: false,
  },
  messages: {
    en: {
      placeholder: '{key} is the placeholder "{value}"; no request can reach a server until it holds the real address',
      templateSingleQuoted: '{key} is the literal text "{value}": single quotes stop the shell from expanding ${…}, so the client gets it as the address and cannot connect',
      templateLiteral: '{key} is the literal text "{value}": nothing expands ${…} here, so the client gets it as the address and cannot connect',
    },
    'zh-CN': {
      placeholder: '{key} 仍是占位符 "{value}"；在填入真实地址之前，请求无法到达任何服务器',
      templateSingleQuoted: '{key} 是字面文本 "{value}"：单引号会阻止 shell 展开 ${…}，客户端会把它当作地址，无法连接',
      templateLiteral: '{key} 是字面文本 "{value}"：这里没有任何东西会展开 ${…}，客户端会把它当作地址，无法连接',
    },
  },
  check({ document, resolution, report }) {
    if (isExampleFile(document.path)) return;
    const candidates: Setting[] = [...resolution.baseUrls.map((b) => b.setting), ...resolution.byRole('host')];
    for (const setting of candidates) {
      if (setting.value === undefined || setting.valueType !== 'string') continue;
      const value = setting.value.trim();
      const template = literalTemplate(setting);
      if (!template && !isPlaceholderUrl(value)) continue;
      report({
        messageId: template === 'singleQuoted' ? 'templateSingleQuoted' : template === 'literal' ? 'templateLiteral' : 'placeholder',
        data: { key: setting.key, value: shorten(value) },
        range: setting.contentRange,
        subject: subjectOf(setting),
      });
    }
  },
});
