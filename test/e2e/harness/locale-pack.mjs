// VS Code takes a display language only when a language pack for it is installed; otherwise
// `--locale zh-cn` falls back to English and vscode.env.language (which vscode-languageclient sends
// as the LSP `locale`) stays "en". The real pack cannot be downloaded here, so this registers an
// empty one the way VS Code records installed packs (`<user-data>/languagepacks.json`, read by
// code-server when it serves the workbench): zh-cn with no translations. The UI stays English;
// the language id changes, which is what the language server reads. Format as of VS Code 1.139.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Registers an empty language pack for `languageId` in `userDataDir` (before code-server starts). */
export function registerEmptyLanguagePack(userDataDir, languageId) {
  const packDir = path.join(userDataDir, 'e2e-language-pack');
  fs.mkdirSync(packDir, { recursive: true });
  const translations = path.join(packDir, 'main.i18n.json');
  fs.writeFileSync(translations, '{ "version": "1.0.0", "contents": {} }\n');
  const extensionIdentifier = { id: `rollout-lint-e2e.language-pack-${languageId}` };
  const version = '0.0.1';
  const hash = crypto.createHash('md5').update(extensionIdentifier.id).update(version).digest('hex');
  const packs = { [languageId]: { hash, extensions: [{ extensionIdentifier, version }], translations: { vscode: translations }, label: languageId } };
  fs.writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify(packs));
}
