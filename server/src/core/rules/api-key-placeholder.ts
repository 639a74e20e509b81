import { defineRule } from './rule';
import { bearerCredential, shorten, subjectOf } from './util';
import { isKeyVariableName, isPlaceholderKey } from '../model/keys';
import { isInMcpServerBlock } from '../evidence/vendors';
import { maskSecret } from '../model/secret';
import { literalTemplate } from './url-shape';
import type { Setting } from '../model/types';
import { isLocalHost } from '../model/hosts';
import { isDummyKey, isHostedOnlyKey, isSelfHostedBase, llmKeyEvidence, pairedBaseUrl } from '../evidence/key';
import { isAbsentValue } from '../evidence/value';

/** How code in the setting's format reads the variable its value names. */
function readVariable(setting: Setting): string {
  const name = setting.value?.trim() ?? '';
  switch (setting.format) {
    case 'python':
      return `os.environ["${name}"]`;
    case 'shell':
    case 'dotenv':
      return `"$${name}"`;
    case 'toml':
      return `env_key = "${name}"`;
    default:
      return `\${${name}}`;
  }
}

/**
 * IPython `%env K=name` / `%set_env K=name` whose value is the name of a Python variable the same
 * source assigns (`name = getpass()`): `OSMagics.set_env` stores the text after `=` as is and only a
 * `$name` or `{name}` is expanded (IPython core/magics/osm.py; `var_expand` in the input transformer),
 * so the environment holds the word itself.
 */
function ipythonVariable(setting: Setting, text: string): boolean {
  if (setting.format !== 'python' || setting.kind !== 'env' || setting.quote !== '') return false;
  if (!/^%(set_)?env\b/.test(text.slice(setting.statementRange.start, setting.keyRange.start).trimStart())) return false;
  const name = setting.value?.trim() ?? '';
  if (!/^[A-Za-z_]\w*$/.test(name)) return false;
  return new RegExp(`(?:^|\\n)[ \\t]*${name}[ \\t]*(?::[^=\\n]*)?=(?!=)`).test(text);
}

/**
 * A computed base URL over plain HTTP (`f"http://{server.address}/v1"`): a self-hosted server (hosted
 * providers serve HTTPS), so a dummy key beside it is as likely right as for a literal local address.
 */
const PLAIN_HTTP_TEMPLATE = /^[fFrRbB]{0,2}["'`]http:\/\//;

/**
 * A key role whose value is a placeholder (`YOUR_API_KEY`, `ADD_YOUR_KEY_HERE`, `<key>`, `sk-xxxx`) or a
 * `${…}` template nothing expands (shell single quotes, a Python string; YAML/JSON `${…}` is left to
 * Compose/OmegaConf/OpenClaw interpolation). Servers answer 401.
 * Only keys tied to an LLM endpoint (`llmKeyEvidence`; not `WANDB_API_KEY`); absent values
 * (`None`, `null`, `~`) mean "the client reads its env var" and are never placeholders. A deliberate
 * dummy (`dummy`, `none`) beside a self-hosted base URL (loopback, private or variable host), beside a
 * base URL that is not a literal (`base_url=self.base_url`) or with no base URL in sight is a hint.
 * An `Authorization: Bearer <token>` header (curl `-H`, a headers dict, Codex `http_headers`) is checked
 * on its token. Template files (`.env.example`) are exempt.
 */
export default defineRule({
  meta: {
    id: 'api-key-placeholder',
    title: 'API key is still a placeholder',
    defaultSeverity: 'error',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: false,
  },
  messages: {
    en: {
      placeholder: '{key} is the placeholder "{value}"; the server will answer 401: put the real key in a git-ignored .env (or export it in the shell that starts the client)',
      variableName: '{key} is the text "{value}", the name of a variable, not its value; the server receives the name as the key and answers 401. Read the variable ({read})',
      placeholderLocal: '{key} is the dummy value "{value}" for a local server: fine when the server runs without --api-key; if it was started with one, it will answer 401',
      templateSingleQuoted: '{key} is the literal text {value}: single quotes stop the shell from expanding ${…}; the server receives it as the key and answers 401',
      templateLiteral: '{key} is the literal text {value}: nothing expands ${…} here; the server receives it as the key and answers 401',
      ipythonLiteral: '%env stores the text "{name}" in {key}, not the value of the Python variable {name}; the server receives the word as the key and answers 401. Write %env {key}=${name} (IPython expands $name) or set os.environ["{key}"] = {name}',
    },
    'zh-CN': {
      placeholder: '{key} 仍是占位符 "{value}"；服务器会返回 401：请把真实密钥放到被 git 忽略的 .env 中，或在启动客户端的 shell 中 export 它',
      variableName: '{key} 的值是文本 "{value}"，这是变量名而不是它的值；服务器会把这个名字当作密钥并返回 401。请读取该变量（{read}）',
      placeholderLocal: '{key} 是发往本地服务器的占位值 "{value}"：服务器未设置 --api-key 时没有问题；若设置了，则会返回 401',
      templateSingleQuoted: '{key} 是字面文本 {value}：单引号会阻止 shell 展开 ${…}；服务器会把它当作密钥并返回 401',
      templateLiteral: '{key} 是字面文本 {value}：这里没有任何东西会展开 ${…}；服务器会把它当作密钥并返回 401',
      ipythonLiteral: '%env 在 {key} 中存入的是文本 "{name}"，而不是 Python 变量 {name} 的值；服务器会把这个词当作密钥并返回 401。请写成 %env {key}=${name}（IPython 会展开 $name），或 os.environ["{key}"] = {name}',
    },
  },
  check({ document, file, resolution, report }) {
    if (file.kind === 'template') return;
    const localGroups = new Set(resolution.baseUrls.filter((b) => b.parsed && isLocalHost(b.parsed.host)).map((b) => b.setting.group));
    for (const b of resolution.byRole('baseUrl')) if (b.value === undefined && PLAIN_HTTP_TEMPLATE.test(b.raw)) localGroups.add(b.group);
    for (const setting of resolution.byRole('apiKey')) {
      if (setting.value !== undefined && ipythonVariable(setting, document.text)) {
        report({ messageId: 'ipythonLiteral', data: { key: setting.key, name: setting.value.trim() }, range: setting.contentRange, subject: subjectOf(setting) });
        continue;
      }
      if (setting.value === undefined || setting.kind === 'envDefault' || isAbsentValue(setting) || !isPlaceholderKey(setting.value)) continue;
      const keyEvidence = llmKeyEvidence(setting, resolution);
      if (!keyEvidence) continue;
      const template = /\$\{([^}]*)\}|\$([A-Za-z_]\w*)/.exec(setting.value);
      const unexpanded = template ? literalTemplate(setting) : undefined;
      if (template && !unexpanded) continue;
      const base = pairedBaseUrl(setting, resolution);
      const selfHosted = base !== undefined && isSelfHostedBase(base, resolution);
      const literalHosted = base !== undefined && !selfHosted && base.value !== undefined;
      const variable = !template && isKeyVariableName(setting.value);
      const dummy = !template && !variable && (selfHosted || (!literalHosted && isDummyKey(setting.value) && !isHostedOnlyKey(setting)));
      const messageId = variable ? 'variableName' : !template ? (dummy ? 'placeholderLocal' : 'placeholder') : unexpanded === 'singleQuoted' ? 'templateSingleQuoted' : 'templateLiteral';
      const name = template?.[1] ?? template?.[2] ?? '';
      report({
        messageId,
        data: { key: setting.key, value: template ? `\${${/^[A-Za-z_]\w*$/.test(name) ? name : maskSecret(name)}}` : shorten(setting.value, 40), read: readVariable(setting) },
        range: setting.contentRange,
        subject: subjectOf(setting),
        evidence: dummy
          ? base
            ? { strength: 'plausible', id: 'key.dummySelfHosted', data: { key: setting.key, baseKey: base.key } }
            : { strength: 'plausible', id: 'key.dummy', data: { key: setting.key, value: shorten(setting.value, 20) } }
          : keyEvidence,
      });
    }
    for (const setting of resolution.byRole('header')) {
      const credential = bearerCredential(setting, document.text);
      if (!credential || credential.dynamic || !isPlaceholderKey(credential.value)) continue;
      // An MCP server's header reaches a tool server, not the model endpoint.
      if (setting.kind !== 'env' && isInMcpServerBlock(setting.path)) continue;
      // `$NAME` in YAML/JSON is expanded by the program that loads it (envsubst-style config, e.g. archgw).
      if ((setting.format === 'yaml' || setting.format === 'json') && /^\$\{?[A-Za-z_]\w*\}?$/.test(credential.value)) continue;
      // A dummy word (`Bearer None`, `Bearer EMPTY`) is written for a server that checks no key.
      const local = localGroups.has(setting.group) || isDummyKey(credential.value);
      report({
        severity: local ? 'hint' : undefined,
        messageId: local ? 'placeholderLocal' : 'placeholder',
        data: { key: setting.key, value: shorten(credential.value, 40) },
        range: credential.range,
        subject: subjectOf(setting),
      });
    }
  },
});
