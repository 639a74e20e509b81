// Builds what the end-to-end run needs from the project: the .vsix (`npm run package`) and the
// mocha suite compiled to CommonJS (esbuild, one file per source; `vscode` and `mocha` resolve at
// run time in the extension host, mocha from the project's node_modules).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

function run(cmd, args, cwd, logFile) {
  return new Promise((resolve, reject) => {
    const out = fs.openSync(logFile, 'w');
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', out, out] });
    child.on('error', reject);
    child.on('exit', (code) => {
      fs.closeSync(out);
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${fs.readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n')}`));
    });
  });
}

/**
 * The packaged extension. `ROLLOUT_LINT_E2E_VSIX` names a prebuilt one; otherwise runs
 * `npm run package` in `root` and returns the .vsix it wrote (the script's `--out`/`-o` target, or
 * the newest `*.vsix` in `root` written since).
 */
export async function packageExtension(root, outDir, log) {
  if (process.env.ROLLOUT_LINT_E2E_VSIX) {
    log(`package: using ROLLOUT_LINT_E2E_VSIX=${process.env.ROLLOUT_LINT_E2E_VSIX}`);
    return path.resolve(process.env.ROLLOUT_LINT_E2E_VSIX);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const script = manifest.scripts?.package;
  if (!script) throw new Error('package.json has no "package" script (npm run package builds the .vsix)');
  const started = Date.now() - 1000;
  log('package: npm run package');
  await run('npm', ['run', 'package'], root, path.join(outDir, 'package.log'));
  const named = /(?:--out|-o)[ =]+(\S+\.vsix)/.exec(script)?.[1];
  if (named && fs.existsSync(path.resolve(root, named))) return path.resolve(root, named);
  const fresh = fs.readdirSync(root)
    .filter((n) => n.endsWith('.vsix'))
    .map((n) => ({ file: path.join(root, n), mtime: fs.statSync(path.join(root, n)).mtimeMs }))
    .filter((f) => f.mtime >= started)
    .sort((a, b) => b.mtime - a.mtime);
  if (fresh.length === 0) throw new Error(`npm run package wrote no .vsix in ${root} (script: ${script})`);
  return fresh[0].file;
}

/** Compiles test/e2e/suite/*.ts to `<outDir>/suite/*.js`; returns the entry (index.js). */
export async function buildSuite(suiteDir, outDir) {
  const target = path.join(outDir, 'suite');
  fs.rmSync(target, { recursive: true, force: true });
  await build({
    entryPoints: fs.readdirSync(suiteDir).filter((n) => n.endsWith('.ts')).map((n) => path.join(suiteDir, n)),
    outdir: target,
    bundle: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return path.join(target, 'index.js');
}
