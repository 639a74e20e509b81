// VS Code resolves a display language only when a language pack for it is installed; otherwise
// `--locale zh-cn` falls back to English and vscode.env.language (which vscode-languageclient sends
// as the LSP `locale`) stays "en". The Marketplace pack cannot be downloaded here, so this builds an
// empty one: it declares zh-cn with no translations (the UI stays English; only the language id
// changes, which is what the language server reads).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Publisher of the stub, so the harness can tell it from the extension under test. */
export const STUB_PUBLISHER = 'rollout-lint-e2e';

/** Packages the stub language pack for `languageId` into `outDir`; returns the .vsix path. */
export function buildLocalePack(languageId, outDir) {
  const dir = path.join(outDir, `locale-pack-${languageId}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'translations'), { recursive: true });
  const manifest = {
    name: `e2e-language-pack-${languageId}`,
    publisher: STUB_PUBLISHER,
    displayName: `E2E language id ${languageId} (no translations)`,
    description: 'Test-only stub: lets VS Code run with this display language.',
    version: '0.0.1',
    license: 'MIT',
    repository: { type: 'git', url: 'https://github.com/rollout-lint/rollout-lint' },
    engines: { vscode: '^1.91.0' },
    categories: ['Language Packs'],
    contributes: {
      localizations: [{
        languageId,
        languageName: languageId,
        localizedLanguageName: languageId,
        translations: [{ id: 'vscode', path: './translations/main.i18n.json' }],
      }],
    },
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  fs.writeFileSync(path.join(dir, 'translations', 'main.i18n.json'), '{ "version": "1.0.0", "contents": {} }\n');
  fs.writeFileSync(path.join(dir, 'README.md'), `${manifest.description}\n`);
  fs.writeFileSync(path.join(dir, 'LICENSE'), 'MIT\n');
  const vsix = path.join(outDir, `${manifest.name}.vsix`);
  const vsce = path.join(path.dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');
  const r = spawnSync(process.execPath, [vsce, 'package', '--out', vsix], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`vsce package (language pack stub) failed:\n${r.stdout}\n${r.stderr}`);
  fs.rmSync(dir, { recursive: true, force: true });
  return vsix;
}
