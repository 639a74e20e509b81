import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const VSCE = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
const PACKAGE_SCRIPT = join(ROOT, 'scripts', 'package-vsix.mjs');
/** The public folder of client/ a marketplace package takes its README images from (`npm run package:marketplace`). */
const PUBLIC_CLIENT = 'https://github.com/rollout-lint/rollout-lint/raw/HEAD/client';

/** The files of a .vsix whose lower-case path passes `filter`, by path (vsce's own zip reader). */
async function readVsix(path: string, filter: (name: string) => boolean): Promise<Map<string, Buffer>> {
  const { readZip } = require(join(ROOT, 'node_modules', '@vscode', 'vsce', 'out', 'zip.js')) as { readZip(p: string, f: (n: string) => boolean): Promise<Map<string, Buffer>> };
  return readZip(path, filter);
}

/** The image links of a Markdown text: `![alt](link)` and `<img src="link">`. */
function imageLinks(markdown: string): string[] {
  return [...markdown.matchAll(/!\[[^\]]*\]\((\S+?)(?:\s+"[^"]*")?\)|<img\b[^>]*\bsrc=["']([^"']+)["']/gi)].map((m) => m[1] ?? m[2]);
}

/** Every file the .vsix may hold (paths relative to the extension root). */
const ALLOWED = [
  /^package\.json$/,
  /^package\.nls(\.zh-cn)?\.json$/,
  /^l10n\/bundle\.l10n(\.zh-cn)?\.json$/,
  /^client\/README\.md$/,
  /^client\/media\/walkthrough\/(zh-cn\/)?[a-z-]+\.png$/,
  /^CHANGELOG\.md$/,
  /^LICENSE(\.md|\.txt)?$/,
  /^client\/dist\/extension\.js$/,
  /^client\/media\/icon\.png$/,
  /^server\/dist\/(server|lint-worker)\.js$/,
  /^server\/dist\/grammars\/(web-tree-sitter|tree-sitter-python|tree-sitter-bash|tree-sitter-javascript|tree-sitter-typescript|tree-sitter-tsx)\.wasm$/,
  /^syntaxes\/[a-z0-9-]+\.(tmLanguage|language-configuration)\.json$/,
  /^schemas\/rolloutlintrc\.schema\.json$/,
];

/** Files it must hold for the extension to work. */
const REQUIRED = [
  'package.json',
  'package.nls.json',
  'package.nls.zh-cn.json',
  'l10n/bundle.l10n.zh-cn.json',
  'client/README.md',
  'LICENSE',
  'CHANGELOG.md',
  'client/dist/extension.js',
  'server/dist/server.js',
  'server/dist/lint-worker.js',
  'server/dist/grammars/web-tree-sitter.wasm',
  'server/dist/grammars/tree-sitter-python.wasm',
  'server/dist/grammars/tree-sitter-bash.wasm',
  'server/dist/grammars/tree-sitter-javascript.wasm',
  'server/dist/grammars/tree-sitter-typescript.wasm',
  'server/dist/grammars/tree-sitter-tsx.wasm',
  'syntaxes/dotenv.tmLanguage.json',
  'syntaxes/rollout-lint-report.tmLanguage.json',
  'syntaxes/json5.language-configuration.json',
];

const MAX_VSIX_BYTES = 3 * 1024 * 1024;

/** The marketplace README is client/README.md (the root README is for developers): as in `npm run package`. */
const README_ARGS = ['--readme-path', 'client/README.md'];

describe('the .vsix package (vsce, --no-dependencies)', function () {
  this.timeout(180000);

  before(function () {
    for (const built of ['client/dist/extension.js', 'server/dist/server.js']) {
      if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run "npm run build" first`);
    }
  });

  it('holds the bundles, grammar wasm, TextMate grammars and nothing else (no node_modules, no sources, no maps)', () => {
    const files = execFileSync(process.execPath, [VSCE, 'ls', '--no-dependencies', ...README_ARGS], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const unintended = files.filter((f) => !ALLOWED.some((re) => re.test(f)));
    assert.deepEqual(unintended, [], 'files that should not ship');
    assert.deepEqual(REQUIRED.filter((f) => !files.includes(f)), [], 'files the extension needs');
  });

  it('npm run package uses the user-facing README, and the manifest has what the marketplace shows', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    assert.match(pkg.scripts.package, /node scripts\/package-vsix\.mjs$/);

    assert.ok(pkg.bugs?.url && pkg.homepage && pkg.keywords?.length >= 5 && pkg.license === 'MIT');
    const readme = readFileSync(join(ROOT, 'client', 'README.md'), 'utf8');
    assert.doesNotMatch(readme, /npm ci|npm start|npm test/, 'the marketplace README is for users, not developers');
    for (const image of readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)) assert.ok(existsSync(join(ROOT, 'client', image[1])), `client/README.md shows a missing image ${image[1]}`);
    // the walkthrough's images come per UI language (package.nls*.json): Chinese screenshots under zh-cn
    for (const nls of ['package.nls.json', 'package.nls.zh-cn.json'].map((f) => JSON.parse(readFileSync(join(ROOT, f), 'utf8')) as Record<string, string>)) {
      for (const step of pkg.contributes.walkthroughs.flatMap((w: { steps: { media: { image: string } }[] }) => w.steps)) {
        const image = step.media.image.replace(/^%(.+)%$/, (whole: string, key: string) => nls[key] ?? whole);
        assert.ok(existsSync(join(ROOT, image)), `walkthrough image ${image} is missing`);
      }
    }
  });

  it(`packages to at most ${MAX_VSIX_BYTES / 1024 / 1024} MB`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollout-lint-vsix-'));
    try {
      const out = join(dir, 'rollout-lint.vsix');
      execFileSync(process.execPath, [PACKAGE_SCRIPT, '-o', out], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      const size = statSync(out).size;
      assert.ok(size <= MAX_VSIX_BYTES, `${out} is ${size} bytes`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the packaged README takes its images from the public base URL (https: the only images README viewers load), which a publish can set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollout-lint-vsix-'));
    try {
      const out = join(dir, 'rollout-lint.vsix');
      const mirror = 'https://mirror.example.test/rollout-lint/v0.1.0/client';
      execFileSync(process.execPath, [PACKAGE_SCRIPT, '-o', out], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ROLLOUT_LINT_BASE_IMAGES_URL: mirror } });
      const mirrored = imageLinks((await readVsix(out, (n) => n === 'extension/readme.md')).get('extension/readme.md')!.toString('utf8'));
      assert.ok(mirrored.length >= 3 && mirrored.every((i) => i.startsWith(`${mirror}/media/`)), JSON.stringify(mirrored));
      execFileSync(process.execPath, [PACKAGE_SCRIPT, '-o', out], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ROLLOUT_LINT_BASE_IMAGES_URL: '' } });
      const readme = (await readVsix(out, (n) => n === 'extension/readme.md')).get('extension/readme.md')!.toString('utf8');
      const images = imageLinks(readme);
      assert.ok(images.length >= 3);
      for (const image of images) {
        assert.ok(image.startsWith(`${PUBLIC_CLIENT}/media/`), image);
        assert.ok(existsSync(join(ROOT, 'client', image.slice(PUBLIC_CLIENT.length + 1))), `${image} names no file of client/`);
      }
      assert.throws(() => execFileSync(process.execPath, [PACKAGE_SCRIPT, '--base-images-url', 'http://example.test/x', '-o', out], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }), /https:\/\//);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
