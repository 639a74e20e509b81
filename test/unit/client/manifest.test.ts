import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../../../server/src/core/config/config';
import { RULES } from '../../../server/src/core/rules/index';
import { SHARED_OPTIONS } from '../../../server/src/lsp/settings';
import { TEST_CONNECTION_COMMAND as SERVER_LENS_COMMAND } from '../../../server/src/lsp/endpoint';
import { COMMANDS, TEST_CONNECTION_COMMAND } from '../../../client/src/commands/index';
import { DOCUMENT_SELECTOR, ENV_READER_LANGUAGES, LANGUAGES } from '../../../client/src/options';
import { formatOf } from '../../../server/src/core/files';
import { isJson5Path } from '../../../server/src/core/formats/json5';

const ROOT = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const settings = pkg.contributes.configuration.properties as Record<string, { default: unknown; scope?: string; markdownDescription?: string; properties?: object }>;

describe('extension manifest (package.json)', () => {
  it('contributes.configuration is what client/scripts/manifest.ts generates from DEFAULT_CONFIG, the rules and the .rolloutlintrc.json schema', () => {
    const check = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'client', 'scripts', 'manifest.ts')], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
  });

  it('setting defaults equal DEFAULT_CONFIG for every option shared with .rolloutlintrc.json', () => {
    for (const option of SHARED_OPTIONS) assert.deepEqual(settings[`rolloutLint.${option}`]?.default, DEFAULT_CONFIG[option], option);
    assert.deepEqual(
      Object.keys(DEFAULT_CONFIG).filter((k) => !(SHARED_OPTIONS as readonly string[]).includes(k)),
      [],
      'every DEFAULT_CONFIG key is a setting (ignore too, as ESLint and ruff users expect)',
    );
  });

  it('rolloutLint.rules has one property per registered rule, no more', () => {
    assert.deepEqual(Object.keys(settings['rolloutLint.rules'].properties ?? {}).sort(), RULES.map((r) => r.meta.id).sort());
  });

  it('every setting has a markdownDescription; trace.server and run are window-scoped, server.path machine-scoped (no workspace may set what runs), the rest resource-scoped', () => {
    const scopes: Record<string, string> = { 'rolloutLint.trace.server': 'window', 'rolloutLint.run': 'window', 'rolloutLint.server.path': 'machine' };
    for (const [name, s] of Object.entries(settings)) {
      assert.ok(s.markdownDescription && s.markdownDescription.length > 20, name);
      assert.equal(s.scope, scopes[name] ?? 'resource', name);
    }
    assert.deepEqual(Object.keys(settings).sort(), ['enable', 'extraKeys', 'extraProviders', 'ignore', 'jsonGlobs', 'maxFileBytes', 'rolloutGlobs', 'rules', 'run', 'server.path', 'testGlobs', 'trace.server'].map((k) => `rolloutLint.${k}`));
  });

  it('contributes.commands lists exactly the commands the extension registers', () => {
    const contributed = (pkg.contributes.commands as { command: string; title: string; category: string }[]).map((c) => c.command);
    assert.deepEqual([...contributed].sort(), COMMANDS.map((c) => c.id).sort());
    assert.equal(new Set(contributed).size, contributed.length);
    for (const c of pkg.contributes.commands) assert.equal(c.category, '%command.category%');
  });

  it('the lens command id is the one the server uses for `testConnectionCommand: true`', () => {
    assert.equal(TEST_CONNECTION_COMMAND, SERVER_LENS_COMMAND);
  });

  it('activates for every language of the document selector, .env files and openclaw.json', () => {
    const events = pkg.activationEvents as string[];
    for (const language of LANGUAGES) assert.ok(events.includes(`onLanguage:${language}`), language);
    for (const e of ['workspaceContains:**/.env*', 'workspaceContains:**/openclaw.json']) assert.ok(events.includes(e), e);
    assert.ok(DOCUMENT_SELECTOR.some((s) => 'pattern' in s && s.pattern === '**/.env*' && s.scheme === 'file'));
    assert.ok(DOCUMENT_SELECTOR.some((s) => 'pattern' in s && s.pattern === '**/*.env' && s.scheme === 'file'));
  });

  it('activates on and sends *.json5 files: the json5 language (contributed here, VS Code has none), a workspace holding one, and the file pattern whatever language a user maps them to', () => {
    const events = pkg.activationEvents as string[];
    assert.ok(events.includes('onLanguage:json5'));
    assert.ok(events.includes('workspaceContains:**/*.json5'));
    const json5 = (pkg.contributes.languages as { id: string; extensions?: string[]; configuration?: string }[]).find((l) => l.id === 'json5');
    assert.ok(json5, 'contributes the json5 language');
    assert.deepEqual(json5.extensions, ['.json5']);
    const configuration = JSON.parse(readFileSync(join(ROOT, json5.configuration!), 'utf8'));
    assert.deepEqual(configuration.comments, { lineComment: '//', blockComment: ['/*', '*/'] });
    assert.ok(DOCUMENT_SELECTOR.some((s) => 'language' in s && s.language === 'json5' && s.scheme === 'file'));
    assert.ok(DOCUMENT_SELECTOR.some((s) => 'pattern' in s && s.pattern === '**/*.json5' && s.scheme === 'file'));
    // The server reads the document as JSON5 by its name, whatever language id VS Code sends.
    assert.equal(formatOf('config/models.json5', 'plaintext'), 'json');
    assert.ok(isJson5Path('config/models.json5'));
  });

  it('sends JavaScript/TypeScript documents (for process.env reads) without activating on them', () => {
    const events = pkg.activationEvents as string[];
    for (const language of ENV_READER_LANGUAGES) {
      assert.ok(DOCUMENT_SELECTOR.some((s) => 'language' in s && s.language === language && s.scheme === 'file'), language);
      assert.ok(!events.includes(`onLanguage:${language}`), `onLanguage:${language} would start the extension in every JS project`);
    }
  });

  it('declares limited support for untrusted workspaces with contributed restricted settings', () => {
    const trust = pkg.capabilities.untrustedWorkspaces;
    assert.equal(trust.supported, 'limited');
    assert.ok(trust.restrictedConfigurations.includes('rolloutLint.extraProviders'));
    for (const name of trust.restrictedConfigurations) assert.ok(name in settings, `${name} is a contributed setting`);
  });

  it('points main, icon, grammars and language configurations at files that exist (or that the build makes)', () => {
    assert.equal(pkg.main, './client/dist/extension.js');
    assert.match(readFileSync(join(ROOT, 'client', 'build.mjs'), 'utf8'), /extension: 'src\/extension\.ts'/);
    assert.ok(existsSync(join(ROOT, pkg.icon)));
    for (const g of pkg.contributes.grammars) {
      assert.ok(existsSync(join(ROOT, g.path)), g.path);
      assert.equal(JSON.parse(readFileSync(join(ROOT, g.path), 'utf8')).scopeName, g.scopeName);
      assert.ok(pkg.contributes.languages.some((l: { id: string }) => l.id === g.language), g.language);
    }
    for (const l of pkg.contributes.languages) if (l.configuration) assert.ok(existsSync(join(ROOT, l.configuration)), l.configuration);
    for (const v of pkg.contributes.jsonValidation) assert.ok(existsSync(join(ROOT, v.url)), v.url);
  });
});
