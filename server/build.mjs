// Bundles the CLI and the language server with esbuild and copies the grammar wasm files beside them.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, chmodSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const dist = join(here, 'dist');
mkdirSync(join(dist, 'grammars'), { recursive: true });

const wasm = {
  'web-tree-sitter.wasm': require.resolve('web-tree-sitter/web-tree-sitter.wasm'),
  'tree-sitter-python.wasm': join(dirname(require.resolve('tree-sitter-python/package.json')), 'tree-sitter-python.wasm'),
  'tree-sitter-bash.wasm': join(dirname(require.resolve('tree-sitter-bash/package.json')), 'tree-sitter-bash.wasm'),
  'tree-sitter-javascript.wasm': join(dirname(require.resolve('tree-sitter-javascript/package.json')), 'tree-sitter-javascript.wasm'),
  'tree-sitter-typescript.wasm': join(dirname(require.resolve('tree-sitter-typescript/package.json')), 'tree-sitter-typescript.wasm'),
  'tree-sitter-tsx.wasm': join(dirname(require.resolve('tree-sitter-typescript/package.json')), 'tree-sitter-tsx.wasm'),
};
for (const [name, from] of Object.entries(wasm)) copyFileSync(from, join(dist, 'grammars', name));
// Rule pages, for SARIF help and `rollout-lint explain` (server/src/node/rule-docs.ts).
const docs = join(here, '..', 'docs', 'rules');
mkdirSync(join(dist, 'docs', 'rules'), { recursive: true });
for (const name of readdirSync(docs).filter((n) => n.endsWith('.md'))) copyFileSync(join(docs, name), join(dist, 'docs', 'rules', name));

// `cli` is a small launcher that loads the `cli-main` bundle through a V8 code cache (src/cli/launch.ts).
const entries = { cli: 'src/cli/launch.ts', 'cli-main': 'src/cli/main.ts', server: 'src/lsp/main.ts', 'lint-worker': 'src/node/lint-worker.ts' };
const result = await build({
  absWorkingDir: here,
  entryPoints: entries,
  outdir: dist,
  bundle: true,
  platform: 'node',
  mainFields: ['module', 'main'],
  alias: { 'web-tree-sitter': require.resolve('web-tree-sitter') },
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  banner: { js: '#!/usr/bin/env node' },
  define: { 'process.env.ROLLOUT_LINT_BUNDLED': '"1"' },
  metafile: true,
});
// The npm packages inside the bundles, for the published package's third-party notices (scripts/pack-cli.mjs).
const packages = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (m) packages.add(m[1]);
}
for (const name of ['web-tree-sitter', 'tree-sitter-python', 'tree-sitter-bash', 'tree-sitter-javascript', 'tree-sitter-typescript']) packages.add(name);
writeFileSync(join(dist, 'bundled-packages.json'), `${JSON.stringify([...packages].sort(), null, 2)}\n`);
for (const name of Object.keys(entries)) chmodSync(join(dist, `${name}.js`), 0o755);
