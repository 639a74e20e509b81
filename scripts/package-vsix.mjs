#!/usr/bin/env node
// Packages the extension (`npm run package` runs this after the build) with the marketplace README,
// client/README.md, whose images are relative to client/ (so GitHub shows them).
//
//   node scripts/package-vsix.mjs [-o FILE.vsix]
//       A .vsix for installing here (`code --install-extension`), offline: the README's images stay
//       relative and ship in the .vsix (client/media/walkthrough/*.png). vsce moves the README to the
//       extension root (extension/readme.md), so each relative image path is rebased from client/ to
//       the root (media/x.png -> client/media/x.png); vsce's own rewriting is off
//       (--no-rewrite-relative-links), and VS Code resolves the paths against the installed extension.
//   node scripts/package-vsix.mjs --base-images-url URL [-o FILE.vsix]
//   ROLLOUT_LINT_BASE_IMAGES_URL=URL node scripts/package-vsix.mjs
//       A .vsix to publish: the marketplace and Open VSX show the README on their own sites, where
//       only absolute https:// images load, so vsce prefixes each relative image with URL (the public
//       folder of client/, `npm run package:marketplace` passes
//       https://github.com/rollout-lint/rollout-lint/raw/HEAD/client).
//
// Either way the packaged file list is the .vscodeignore whitelist (`vsce ls`), nothing more.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const README = 'client/README.md';
/** Where the rebased README is written for vsce (inside the repository: vsce only reads files under it; git-ignored). */
const REBASED = 'client/dist/README.md';
const VSCE = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');

const isRelative = (link) => !/^[a-z][a-z0-9+.-]*:/i.test(link) && !link.startsWith('#') && !link.startsWith('/');

/**
 * `markdown` (a README in `fromDir`, a repository path) with every relative image link, Markdown
 * `![alt](path "title")` and HTML `<img src="path">`, made relative to the repository root instead
 * (`media/a.png` in client/ -> `client/media/a.png`). Absolute URLs, anchors and plain links are unchanged.
 */
export function rebaseImages(markdown, fromDir) {
  const rebase = (link) => (isRelative(link) ? posix.normalize(posix.join(fromDir, link)) : link);
  return markdown
    .replace(/(!\[[^\]]*\]\()(\S+?)((?:\s+"[^"]*")?\))/g, (_, open, link, close) => `${open}${rebase(link)}${close}`)
    .replace(/(<img\b[^>]*\bsrc=["'])([^"']+)(["'])/gi, (_, open, link, close) => `${open}${rebase(link)}${close}`);
}

function main(argv) {
  let out;
  let baseImagesUrl = process.env.ROLLOUT_LINT_BASE_IMAGES_URL || undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '-o' || argv[i] === '--out') out = argv[++i];
    else if (argv[i] === '--base-images-url') baseImagesUrl = argv[++i];
    else if (argv[i].startsWith('--base-images-url=')) baseImagesUrl = argv[i].slice('--base-images-url='.length);
    else throw new Error(`unknown argument ${argv[i]} (usage: package-vsix.mjs [-o FILE.vsix] [--base-images-url URL])`);
  }
  if (baseImagesUrl !== undefined && !/^https:\/\/\S+$/.test(baseImagesUrl)) throw new Error(`--base-images-url must be an https:// URL, got ${JSON.stringify(baseImagesUrl)}`);
  const args = ['package', '--no-dependencies', ...(out ? ['-o', out] : [])];
  if (baseImagesUrl) {
    args.push('--readme-path', README, '--baseImagesUrl', baseImagesUrl);
  } else {
    mkdirSync(join(ROOT, dirname(REBASED)), { recursive: true });
    writeFileSync(join(ROOT, REBASED), rebaseImages(readFileSync(join(ROOT, README), 'utf8'), posix.dirname(README)));
    args.push('--readme-path', REBASED, '--no-rewrite-relative-links');
  }
  try {
    execFileSync(process.execPath, [VSCE, ...args], { cwd: ROOT, stdio: 'inherit' });
  } finally {
    if (!baseImagesUrl) rmSync(join(ROOT, REBASED), { force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(`package-vsix: ${error.message}`);
    process.exit(1);
  }
}
