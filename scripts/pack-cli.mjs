#!/usr/bin/env node
// Stages and packs the publishable npm package `rollout-lint` (CLI + language server): the two
// esbuild bundles without source maps, the grammar wasm files, the rule pages, the config JSON Schema, README, LICENSE and
// the licences of the bundled packages. No dependencies and no install scripts: the bundles run
// without node_modules. Run `npm run build` first.
//
//   node scripts/pack-cli.mjs [--out DIR]    stage in DIR/rollout-lint (default out/npm) and npm pack there
//   node scripts/pack-cli.mjs --stage-only   stage only (then: cd out/npm/rollout-lint && npm publish)
//
// Prints one JSON line: {"dir": staged folder, "tarball": path or null, "files": count}.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const server = join(root, 'server');
const dist = join(server, 'dist');
const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = resolve(outIndex >= 0 ? args[outIndex + 1] : join(root, 'out', 'npm'));
const stageOnly = args.includes('--stage-only');

for (const file of ['cli.js', 'cli-main.js', 'server.js', 'lint-worker.js', 'bundled-packages.json']) {
  if (!existsSync(join(dist, file))) {
    console.error(`pack-cli: ${join(dist, file)} is missing; run "npm run build" first`);
    process.exit(2);
  }
}

const serverPkg = JSON.parse(readFileSync(join(server, 'package.json'), 'utf8'));
const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const stage = join(out, 'rollout-lint');
rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, 'bin'), { recursive: true });
mkdirSync(join(stage, 'dist', 'grammars'), { recursive: true });
mkdirSync(join(stage, 'dist', 'docs', 'rules'), { recursive: true });

// Bundles without their source maps: the maps stay in the repository build (7 MB the user never needs).
for (const name of ['cli.js', 'cli-main.js', 'server.js', 'lint-worker.js']) {
  const code = readFileSync(join(dist, name), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  writeFileSync(join(stage, 'dist', name), code);
  chmodSync(join(stage, 'dist', name), 0o755);
}
for (const name of readdirSync(join(dist, 'grammars')).filter((n) => n.endsWith('.wasm'))) copyFileSync(join(dist, 'grammars', name), join(stage, 'dist', 'grammars', name));
for (const name of readdirSync(join(dist, 'docs', 'rules')).filter((n) => n.endsWith('.md'))) copyFileSync(join(dist, 'docs', 'rules', name), join(stage, 'dist', 'docs', 'rules', name));
for (const name of ['rollout-lint.js', 'rollout-lint-server.js']) {
  copyFileSync(join(server, 'bin', name), join(stage, 'bin', name));
  chmodSync(join(stage, 'bin', name), 0o755);
}
copyFileSync(join(server, 'README.md'), join(stage, 'README.md'));
// The configuration's JSON Schema, for editors: "$schema": "./node_modules/rollout-lint/schemas/rolloutlintrc.schema.json".
mkdirSync(join(stage, 'schemas'), { recursive: true });
copyFileSync(join(root, 'schemas', 'rolloutlintrc.schema.json'), join(stage, 'schemas', 'rolloutlintrc.schema.json'));
copyFileSync(join(root, 'LICENSE'), join(stage, 'LICENSE'));

// The licence texts of every package compiled into the bundles (MIT and similar licences ask for them).
const require = createRequire(join(server, 'package.json'));
const notices = ['# Third-party notices', '', 'The bundles in dist/ include these npm packages.', ''];
for (const name of JSON.parse(readFileSync(join(dist, 'bundled-packages.json'), 'utf8'))) {
  let dir;
  try {
    dir = dirname(require.resolve(`${name}/package.json`));
  } catch {
    dir = join(root, 'node_modules', name);
  }
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const licenseFile = readdirSync(dir).find((n) => /^(licen[sc]e|copying)(\.(md|txt))?$/i.test(n));
  notices.push(`## ${name}@${pkg.version} (${typeof pkg.license === 'string' ? pkg.license : 'see below'})`, '');
  notices.push(licenseFile ? readFileSync(join(dir, licenseFile), 'utf8').trim() : `License: ${pkg.license ?? 'unknown'}; no licence file in the package.`, '');
}
writeFileSync(join(stage, 'THIRD_PARTY_NOTICES.md'), `${notices.join('\n')}\n`);

const manifest = {
  name: 'rollout-lint',
  version: serverPkg.version,
  description: 'Finds the configuration mistakes that silently stall LLM RL rollouts (base URLs, API keys, log-prob requests): CLI and language server.',
  keywords: ['lint', 'linter', 'llm', 'openai', 'reinforcement-learning', 'rollout', 'dotenv', 'language-server', 'lsp', 'sarif'],
  license: rootPkg.license,
  repository: rootPkg.repository,
  homepage: `${rootPkg.repository.url}#readme`,
  bugs: { url: `${rootPkg.repository.url}/issues` },
  engines: serverPkg.engines,
  bin: serverPkg.bin,
  files: ['bin/', 'dist/', 'schemas/', 'THIRD_PARTY_NOTICES.md'],
};
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

let tarball = null;
if (!stageOnly) {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: stage, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
  tarball = join(out, packed[0].filename);
}
const count = (dir) => readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? count(join(dir, e.name)) : 1), 0);
console.log(JSON.stringify({ dir: stage, tarball, files: count(stage) }));
