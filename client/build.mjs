// Bundles the extension (client/src/extension.ts) with esbuild into client/dist/extension.js;
// `vscode` is provided by the extension host and stays external.
import { build } from 'esbuild';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
await build({
  absWorkingDir: here,
  entryPoints: { extension: 'src/extension.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['vscode'],
  sourcemap: true,
  minify: process.argv.includes('--minify'),
  logLevel: 'warning',
});
