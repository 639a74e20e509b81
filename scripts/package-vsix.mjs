#!/usr/bin/env node
// Packages the extension (`npm run package` runs this after the build) with the marketplace README,
// client/README.md, whose images are relative to client/ (so GitHub shows them).
//
//   node scripts/package-vsix.mjs [-o FILE.vsix] [--base-images-url URL]
//   ROLLOUT_LINT_BASE_IMAGES_URL=URL npm run package
//
// vsce prefixes each relative README image with URL, the public folder of client/ (default
// https://github.com/rollout-lint/rollout-lint/raw/HEAD/client; a fork, a mirror or a release tag
// passes its own). Absolute https:// images are the only ones any README viewer of an extension
// shows: the Visual Studio Marketplace and Open VSX render the README on their own sites, and VS Code's
// extension details page (also for a .vsix installed with --install-extension) renders it in a webview
// whose sanitizer keeps only http(s) image sources and whose CSP allows only `img-src https: data:`
// (VS Code 1.139 `extensionEditor` renderBody and `markdownDocumentRenderer`): relative paths and
// data: URIs are dropped there. Offline, the details page shows each image's alt text; the
// walkthrough shows the same screenshots from the package itself (client/media/walkthrough/*.png).
//
// The packaged file list is the .vscodeignore whitelist (`vsce ls`), nothing more.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const README = 'client/README.md';
/** The public folder of client/ in the project's repository (package.json `repository`). */
export const PUBLIC_CLIENT_URL = 'https://github.com/rollout-lint/rollout-lint/raw/HEAD/client';
const VSCE = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');

function main(argv) {
  let out;
  let baseImagesUrl = process.env.ROLLOUT_LINT_BASE_IMAGES_URL || PUBLIC_CLIENT_URL;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '-o' || argv[i] === '--out') out = argv[++i];
    else if (argv[i] === '--base-images-url') baseImagesUrl = argv[++i];
    else if (argv[i].startsWith('--base-images-url=')) baseImagesUrl = argv[i].slice('--base-images-url='.length);
    else throw new Error(`unknown argument ${argv[i]} (usage: package-vsix.mjs [-o FILE.vsix] [--base-images-url URL])`);
  }
  if (!/^https:\/\/\S+$/.test(baseImagesUrl ?? '')) throw new Error(`--base-images-url must be an https:// URL (README viewers load no other images), got ${JSON.stringify(baseImagesUrl)}`);
  const args = ['package', '--no-dependencies', ...(out ? ['-o', out] : []), '--readme-path', README, '--baseImagesUrl', baseImagesUrl.replace(/\/+$/, '')];
  execFileSync(process.execPath, [VSCE, ...args], { cwd: ROOT, stdio: 'inherit' });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(`package-vsix: ${error.message}`);
    process.exit(1);
  }
}
