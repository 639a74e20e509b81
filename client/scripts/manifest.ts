/**
 * Generates `contributes.configuration` of the root package.json from the sources it must agree with:
 * `DEFAULT_CONFIG` (defaults), the rule registry (the `rolloutLint.rules` properties) and the
 * `.rolloutlintrc.json` schema (the shape of every option the two share).
 *
 *   npx tsx client/scripts/manifest.ts           check; exit 1 when package.json is stale
 *   npx tsx client/scripts/manifest.ts --write   rewrite contributes.configuration
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../../server/src/core/config/config';
import { docsUrl } from '../../server/src/core/docs';
import { RULES } from '../../server/src/core/rules/index';

const ROOT = join(__dirname, '..', '..');
export const PACKAGE_JSON = join(ROOT, 'package.json');
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

const DESCRIPTIONS: Record<string, string> = {
  enable:
    'Lint `.env`, YAML, JSON, Python and shell files for the configuration mistakes that stall LLM RL rollouts (base URLs, API keys, log-prob requests). `false` turns Rollout Lint off for this resource.',
  rules:
    'Level per rule id: `error`, `warning`, `hint` or `off`. Unlisted rules keep their default. A `.rolloutlintrc.json` nearer the file wins over this setting. Each rule has a page under [docs/rules](https://github.com/rollout-lint/rollout-lint/tree/main/docs/rules).',
  rolloutGlobs:
    'Files whose generation requests are rollout requests (picomatch globs matched against the workspace-relative path); rollout requests must ask for log probs. Replaces the default.',
  testGlobs:
    'Test, fixture, mock and smoke-test files (picomatch globs matched against the workspace-relative path): their keys and URLs are fake on purpose, so value rules report nothing there. Replaces the default; `[]` treats no file as a test.',
  jsonGlobs: 'JSON files to lint besides `openclaw.json` and `*settings.json` with an `env` key (picomatch globs matched against the workspace-relative path).',
  extraKeys:
    'Extra key names per role (`baseUrl`, `apiKey`, `model`, `logprobs`, …), matched case-, `-`- and `_`-insensitively; added to the built-in table.',
  extraProviders:
    'Provider profiles added to the built-in ones and checked first: `id`, `name`, `openaiBases`, and `hosts` or `localPorts`; other fields are derived from the first base. Ignored in untrusted workspaces.',
  maxFileBytes:
    'Files larger than this many bytes are not linted and get a `skipped-file` diagnostic instead. The same limit applies to open editors, the workspace scan and the CLI.',
  'trace.server': 'Traces the messages between VS Code and the Rollout Lint language server in the Rollout Lint output channel.',
};

/** The `contributes.configuration` object package.json must hold. */
export function configurationContribution(): Schema {
  const schema = JSON.parse(readFileSync(RC_SCHEMA, 'utf8')) as { properties: Record<string, Schema>; definitions: Record<string, Schema> };
  const shared = (name: keyof typeof DEFAULT_CONFIG) => inline(schema.properties[name], schema.definitions) as Schema;
  const setting = (name: string, body: Schema, scope = 'resource') => [`rolloutLint.${name}`, { ...body, scope, markdownDescription: DESCRIPTIONS[name] }];
  const rules = {
    type: 'object',
    default: DEFAULT_CONFIG.rules,
    properties: Object.fromEntries(
      RULES.map((r) => [r.meta.id, { enum: ['error', 'warning', 'hint', 'off'], markdownDescription: `${r.meta.title} (default: \`${r.meta.defaultSeverity}\`). [Docs](${docsUrl(r.meta.id)})` }]),
    ),
    additionalProperties: false,
  };
  return {
    title: 'Rollout Lint',
    properties: Object.fromEntries([
      setting('enable', { type: 'boolean', default: true }),
      setting('rules', rules),
      setting('rolloutGlobs', { ...shared('rolloutGlobs'), default: DEFAULT_CONFIG.rolloutGlobs }),
      setting('jsonGlobs', { ...shared('jsonGlobs'), default: DEFAULT_CONFIG.jsonGlobs }),
      setting('testGlobs', { ...shared('testGlobs'), default: DEFAULT_CONFIG.testGlobs }),
      setting('extraKeys', { ...shared('extraKeys'), default: DEFAULT_CONFIG.extraKeys }),
      setting('extraProviders', { ...shared('extraProviders'), default: DEFAULT_CONFIG.extraProviders }),
      setting('maxFileBytes', { ...shared('maxFileBytes'), default: DEFAULT_CONFIG.maxFileBytes }),
      setting('trace.server', { type: 'string', enum: ['off', 'messages', 'verbose'], default: 'off' }, 'window'),
    ]),
  };
}

if (require.main === module) {
  const text = readFileSync(PACKAGE_JSON, 'utf8');
  const pkg = JSON.parse(text);
  const expected = configurationContribution();
  if (JSON.stringify(pkg.contributes?.configuration) === JSON.stringify(expected)) process.exit(0);
  if (!process.argv.includes('--write')) {
    console.error('package.json contributes.configuration is stale: run "npx tsx client/scripts/manifest.ts --write"');
    process.exit(1);
  }
  pkg.contributes = { ...pkg.contributes, configuration: expected };
  writeFileSync(PACKAGE_JSON, `${JSON.stringify(pkg, null, 2)}\n`);
}
