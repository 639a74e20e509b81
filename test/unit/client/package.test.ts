import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const VSCE = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');

/** Every file the .vsix may hold (paths relative to the extension root). */
const ALLOWED = [
  /^package\.json$/,
  /^package\.nls(\.zh-cn)?\.json$/,
  /^l10n\/bundle\.l10n(\.zh-cn)?\.json$/,
  /^client\/README\.md$/,
  /^client\/media\/walkthrough\/[a-z-]+\.png$/,
  /^CHANGELOG\.md$/,
  /^LICENSE(\.md|\.txt)?$/,
  /^client\/dist\/extension\.js$/,
  /^client\/media\/icon\.png$/,
  /^server\/dist\/(server|lint-worker)\.js$/,
  /^server\/dist\/grammars\/(web-tree-sitter|tree-sitter-python|tree-sitter-bash)\.wasm$/,
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
    assert.match(pkg.scripts.package, /--readme-path client\/README\.md/);
    assert.ok(pkg.bugs?.url && pkg.homepage && pkg.keywords?.length >= 5 && pkg.license === 'MIT');
    const readme = readFileSync(join(ROOT, 'client', 'README.md'), 'utf8');
    assert.doesNotMatch(readme, /npm ci|npm start|npm test/, 'the marketplace README is for users, not developers');
    for (const image of readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)) assert.ok(existsSync(join(ROOT, 'client', image[1])), `client/README.md shows a missing image ${image[1]}`);
    for (const step of pkg.contributes.walkthroughs.flatMap((w: { steps: { media: { image: string } }[] }) => w.steps)) assert.ok(existsSync(join(ROOT, step.media.image)), `walkthrough image ${step.media.image} is missing`);
  });

  it(`packages to at most ${MAX_VSIX_BYTES / 1024 / 1024} MB`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollout-lint-vsix-'));
    try {
      const out = join(dir, 'rollout-lint.vsix');
      execFileSync(process.execPath, [VSCE, 'package', '--no-dependencies', ...README_ARGS, '-o', out], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      const size = statSync(out).size;
      assert.ok(size <= MAX_VSIX_BYTES, `${out} is ${size} bytes`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
