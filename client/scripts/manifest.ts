/**
 * Generates `contributes.configuration` of the root package.json from the sources it must agree with:
 * `DEFAULT_CONFIG` (defaults), the rule registry (the `rolloutLint.rules` properties) and the
 * `.rolloutlintrc.json` schema (the shape of every option the two share); the `config.*` texts of
 * package.nls.json / package.nls.zh-cn.json; and l10n/bundle.l10n.json from the client's texts.
 *
 *   npx tsx client/scripts/manifest.ts           check; exit 1 when package.json is stale
 *   npx tsx client/scripts/manifest.ts --write   rewrite contributes.configuration
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { allClientMessages } from '../src/messages';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../../server/src/core/config/config';
import { docsUrl } from '../../server/src/core/docs';
import { RULES } from '../../server/src/core/rules/index';
import { RULE_TITLES_ZH } from './rule-titles-zh';

const ROOT = join(__dirname, '..', '..');
export const PACKAGE_JSON = join(ROOT, 'package.json');
export const PACKAGE_NLS = join(ROOT, 'package.nls.json');
export const PACKAGE_NLS_ZH = join(ROOT, 'package.nls.zh-cn.json');
/** The client's English l10n bundle: every client text mapped to itself (VS Code's bundle format). */
export const L10N_BUNDLE = join(ROOT, 'l10n', 'bundle.l10n.json');
const RC_SCHEMA = join(ROOT, 'schemas', 'rolloutlintrc.schema.json');

type Schema = Record<string, unknown>;

/** Replaces `#/definitions/x` references by their targets and drops `description`s (settings carry their own). */
function inline(node: unknown, definitions: Record<string, Schema>): unknown {
  if (Array.isArray(node)) return node.map((n) => inline(n, definitions));
  if (!node || typeof node !== 'object') return node;
  const obj = node as Schema;
  if (typeof obj.$ref === 'string') return inline(definitions[obj.$ref.replace('#/definitions/', '')], definitions);
  return Object.fromEntries(Object.entries(obj).filter(([k]) => k !== 'description').map(([k, v]) => [k, inline(v, definitions)]));
}

/** English descriptions of the settings (package.nls.json `config.<name>.description`). */
const DESCRIPTIONS: Record<string, string> = {
  enable:
    'Lint `.env`, YAML, JSON, Python and shell files for the configuration mistakes that stall LLM RL rollouts (base URLs, API keys, log-prob requests). `false` turns Rollout Lint off for this resource.',
  rules:
    'Level per rule id: `error`, `warning`, `hint` or `off`. Unlisted rules keep their default. A `.rolloutlintrc.json` nearer the file wins over this setting. Each rule has a page under [docs/rules](https://github.com/rollout-lint/rollout-lint/tree/main/docs/rules).',
  rolloutGlobs:
    'Files whose generation requests are rollout requests (picomatch globs matched against the workspace-relative path); rollout requests must ask for logprobs. Replaces the default.',
  testGlobs:
    'Test, fixture, mock and smoke-test files (picomatch globs matched against the workspace-relative path): their keys and URLs are fake on purpose, so value rules report nothing there. Replaces the default; `[]` treats no file as a test.',
  jsonGlobs: 'JSON files to lint besides `openclaw.json` and `*settings.json` with an `env` key (picomatch globs matched against the workspace-relative path).',
  ignore: 'Paths never linted (picomatch globs matched against the workspace-relative path), added to what `.gitignore` and the built-in skips leave out; as `ignore` in `.rolloutlintrc.json`, which wins for the files under it.',
  run: 'When the open file is linted: `onType` (as you type) or `onSave` (when the file is saved). The rest of the workspace is linted from disk either way.',
  'server.path': 'Path to a `rollout-lint-server` to run instead of the bundled one: a JavaScript file (run with VS Code\'s Node, over IPC) or an executable (run with `--stdio`). Empty uses the bundled server. User settings only: a workspace cannot set it.',
  extraKeys:
    'Extra key names per role (`baseUrl`, `apiKey`, `model`, `logprobs`, …), matched case-, `-`- and `_`-insensitively; added to the built-in table.',
  extraProviders:
    'Provider profiles added to the built-in ones and checked first: `id`, `name`, `openaiBases`, and `hosts` or `localPorts`; other fields are derived from the first base. Ignored in untrusted workspaces.',
  maxFileBytes:
    'Files larger than this many bytes are not linted and get a `skipped-file` diagnostic instead. The same limit applies to open editors, the workspace scan and the CLI.',
  'trace.server': 'Traces the messages between VS Code and the Rollout Lint language server in the Rollout Lint output channel.',
};

/** The same in Simplified Chinese (package.nls.zh-cn.json); terms follow the glossary. */
const DESCRIPTIONS_ZH: Record<string, string> = {
  enable: '检查 `.env`、YAML、JSON、Python 和 shell 文件中会让 LLM 强化学习 rollout 卡住的配置错误（base URL、API 密钥、logprobs 请求）。`false` 表示对此资源关闭 Rollout Lint。',
  rules:
    '按规则 id 设置级别：`error`、`warning`、`hint` 或 `off`。未列出的规则保持默认级别。离文件更近的 `.rolloutlintrc.json` 优先于此设置。每条规则在 [docs/rules](https://github.com/rollout-lint/rollout-lint/tree/main/docs/rules) 下有说明页。',
  rolloutGlobs: '其中的生成请求算作 rollout 请求的文件（picomatch glob，与相对工作区的路径匹配）；rollout 请求必须要求 logprobs。会替换默认值。',
  testGlobs: '测试、夹具（fixture）、mock 和冒烟测试文件（picomatch glob，与相对工作区的路径匹配）：其中的密钥和 URL 是有意伪造的，因此值规则在这些文件中不报告任何问题。会替换默认值；`[]` 表示没有文件算作测试。',
  jsonGlobs: '除 `openclaw.json` 和带 `env` 键的 `*settings.json` 外还要检查的 JSON 文件（picomatch glob，与相对工作区的路径匹配）。',
  ignore: '从不检查的路径（picomatch glob，与相对工作区的路径匹配），在 `.gitignore` 和内置的跳过规则之外追加；与 `.rolloutlintrc.json` 中的 `ignore` 相同，该文件对其下的文件优先。',
  run: '何时检查打开的文件：`onType`（输入时）或 `onSave`（保存时）。工作区中其余文件总是从磁盘检查。',
  'server.path': '用来代替内置服务器的 `rollout-lint-server` 路径：JavaScript 文件（用 VS Code 的 Node 通过 IPC 运行）或可执行文件（以 `--stdio` 运行）。留空则使用内置服务器。只能在用户设置中设置：工作区不能设置它。',
  extraKeys: '按角色（`baseUrl`、`apiKey`、`model`、`logprobs` 等）追加的键名，匹配时不区分大小写、`-` 和 `_`；会加入内置表。',
  extraProviders: '在内置服务商配置之外追加、并优先检查的服务商配置：`id`、`name`、`openaiBases`，以及 `hosts` 或 `localPorts`；其他字段由第一个 base 推出。在不受信任的工作区中会被忽略。',
  maxFileBytes: '超过此字节数的文件不会被检查，而是得到一条 `skipped-file` 诊断。打开的编辑器、工作区扫描和 CLI 使用同一上限。',
  'trace.server': '在 Rollout Lint 输出通道中记录 VS Code 与 Rollout Lint 语言服务器之间的消息。',
};

/** `%key%` for package.json and the key itself. */
const nls = (key: string) => `%${key}%`;

/** The package.nls keys client/scripts/manifest.ts owns (all under `config.`), in English and Chinese. */
export function configurationTexts(): { en: Record<string, string>; zh: Record<string, string> } {
  const en: Record<string, string> = { 'config.title': 'Rollout Lint' };
  const zh: Record<string, string> = { 'config.title': 'Rollout Lint' };
  for (const name of Object.keys(DESCRIPTIONS)) {
    en[`config.${name}.description`] = DESCRIPTIONS[name];
    zh[`config.${name}.description`] = DESCRIPTIONS_ZH[name] ?? '';
  }
  for (const r of RULES) {
    en[`config.rules.${r.meta.id}.description`] = `${r.meta.title} (default: \`${r.meta.defaultSeverity}\`). [Docs](${docsUrl(r.meta.id)})`;
    const title = RULE_TITLES_ZH[r.meta.id];
    zh[`config.rules.${r.meta.id}.description`] = title === undefined ? '' : `${title}（默认：\`${r.meta.defaultSeverity}\`）。[文档](${docsUrl(r.meta.id)})`;
  }
  return { en, zh };
}

/** The `contributes.configuration` object package.json must hold. */
export function configurationContribution(): Schema {
  const schema = JSON.parse(readFileSync(RC_SCHEMA, 'utf8')) as { properties: Record<string, Schema>; definitions: Record<string, Schema> };
  const shared = (name: keyof typeof DEFAULT_CONFIG) => inline(schema.properties[name], schema.definitions) as Schema;
  const setting = (name: string, body: Schema, scope = 'resource') => [`rolloutLint.${name}`, { ...body, scope, markdownDescription: nls(`config.${name}.description`) }];
  const rules = {
    type: 'object',
    default: DEFAULT_CONFIG.rules,
    properties: Object.fromEntries(
      // `type: string` makes the Settings editor show a key/value table instead of only "Edit in settings.json".
      RULES.map((r) => [r.meta.id, { type: 'string', enum: ['error', 'warning', 'hint', 'off'], markdownDescription: nls(`config.rules.${r.meta.id}.description`) }]),
    ),
    additionalProperties: false,
  };
  return {
    title: nls('config.title'),
    properties: Object.fromEntries([
      setting('enable', { type: 'boolean', default: true }),
      setting('rules', rules),
      setting('rolloutGlobs', { ...shared('rolloutGlobs'), default: DEFAULT_CONFIG.rolloutGlobs }),
      setting('jsonGlobs', { ...shared('jsonGlobs'), default: DEFAULT_CONFIG.jsonGlobs }),
      setting('testGlobs', { ...shared('testGlobs'), default: DEFAULT_CONFIG.testGlobs }),
      setting('ignore', { ...shared('ignore'), default: DEFAULT_CONFIG.ignore }),
      setting('extraKeys', { ...shared('extraKeys'), default: DEFAULT_CONFIG.extraKeys }),
      setting('extraProviders', { ...shared('extraProviders'), default: DEFAULT_CONFIG.extraProviders }),
      setting('maxFileBytes', { ...shared('maxFileBytes'), default: DEFAULT_CONFIG.maxFileBytes }),
      setting('run', { type: 'string', enum: ['onType', 'onSave'], default: 'onType' }, 'window'),
      setting('server.path', { type: 'string', default: '' }, 'machine'),
      setting('trace.server', { type: 'string', enum: ['off', 'messages', 'verbose'], default: 'off' }, 'window'),
    ]),
  };
}

/** `bundle` with the `config.` keys replaced by `owned` (other keys kept, in order), as JSON text. */
function withOwned(bundle: Record<string, string>, owned: Record<string, string>): string {
  const kept = Object.entries(bundle).filter(([k]) => !k.startsWith('config.'));
  return `${JSON.stringify(Object.fromEntries([...kept, ...Object.entries(owned)]), null, 2)}\n`;
}

if (require.main === module) {
  const text = readFileSync(PACKAGE_JSON, 'utf8');
  const pkg = JSON.parse(text);
  const expected = configurationContribution();
  const texts = configurationTexts();
  const files = [
    { path: PACKAGE_NLS, owned: texts.en },
    { path: PACKAGE_NLS_ZH, owned: texts.zh },
  ].map((f) => {
    const before = readFileSync(f.path, 'utf8');
    return { ...f, before, after: withOwned(JSON.parse(before), f.owned) };
  });
  const bundleBefore = existsSync(L10N_BUNDLE) ? readFileSync(L10N_BUNDLE, 'utf8') : '';
  const bundleAfter = `${JSON.stringify(Object.fromEntries(allClientMessages().map((m) => [m, m])), null, 2)}\n`;
  const stale = JSON.stringify(pkg.contributes?.configuration) !== JSON.stringify(expected) || files.some((f) => f.before !== f.after) || bundleBefore !== bundleAfter;
  if (!stale) process.exit(0);
  if (!process.argv.includes('--write')) {
    console.error('package.json contributes.configuration, package.nls*.json or l10n/bundle.l10n.json is stale: run "npx tsx client/scripts/manifest.ts --write"');
    process.exit(1);
  }
  pkg.contributes = { ...pkg.contributes, configuration: expected };
  writeFileSync(PACKAGE_JSON, `${JSON.stringify(pkg, null, 2)}\n`);
  for (const f of files) writeFileSync(f.path, f.after);
  writeFileSync(L10N_BUNDLE, bundleAfter);
}
