import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const VSCE = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');

/** Every file the .vsix may hold (paths relative to the extension root). */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^CHANGELOG\.md$/,
  /^LICENSE(\.md|\.txt)?$/,
  /^client\/dist\/extension\.js$/,
  /^client\/media\/icon\.png$/,
  /^server\/dist\/server\.js$/,
  /^server\/dist\/grammars\/(web-tree-sitter|tree-sitter-python|tree-sitter-bash)\.wasm$/,
  /^syntaxes\/[a-z-]+\.(tmLanguage|language-configuration)\.json$/,
  /^schemas\/rolloutlintrc\.schema\.json$/,
];

/** Files it must hold for the extension to work. */
const REQUIRED = [
  'package.json',
  'client/dist/extension.js',
  'server/dist/server.js',
  'server/dist/grammars/web-tree-sitter.wasm',
  'server/dist/grammars/tree-sitter-python.wasm',
  'server/dist/grammars/tree-sitter-bash.wasm',
  'syntaxes/dotenv.tmLanguage.json',
  'syntaxes/rollout-lint-report.tmLanguage.json',
];

const MAX_VSIX_BYTES = 3 * 1024 * 1024;

describe('the .vsix package (vsce, --no-dependencies)', function () {
  this.timeout(180000);

  before(function () {
    for (const built of ['client/dist/extension.js', 'server/dist/server.js']) {
      if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run "npm run build" first`);
    }
  });

  it('holds the bundles, grammar wasm, TextMate grammars and nothing else (no node_modules, no sources, no maps)', () => {
    const files = execFileSync(process.execPath, [VSCE, 'ls', '--no-dependencies'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const unintended = files.filter((f) => !ALLOWED.some((re) => re.test(f)));
    assert.deepEqual(unintended, [], 'files that should not ship');
    assert.deepEqual(REQUIRED.filter((f) => !files.includes(f)), [], 'files the extension needs');
  });

  it(`packages to at most ${MAX_VSIX_BYTES / 1024 / 1024} MB`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollout-lint-vsix-'));
    try {
      const out = join(dir, 'rollout-lint.vsix');
      execFileSync(process.execPath, [VSCE, 'package', '--no-dependencies', '-o', out], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      const size = statSync(out).size;
      assert.ok(size <= MAX_VSIX_BYTES, `${out} is ${size} bytes`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
