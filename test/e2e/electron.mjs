#!/usr/bin/env node
// `npm run test:electron`: the same mocha suite (test/e2e/suite) in desktop VS Code through
// @vscode/test-electron, which downloads VS Code (needs update.code.visualstudio.com; not a CI
// gate: CI runs `npm run test:e2e`). Two runs, like test:e2e: the suite, then the @zh-cn tests with
// `--locale zh-cn`. The extension runs from the source tree (built with `npm run build`).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';
import { buildSuite } from './harness/build.mjs';
import { registerEmptyLanguagePack } from './harness/locale-pack.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const outDir = path.join(here, 'out');
const version = process.env.VSCODE_VERSION || 'stable';

fs.mkdirSync(outDir, { recursive: true });
const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(1);
const suiteIndex = await buildSuite(path.join(here, 'suite'), outDir);

const results = [];
for (const locale of [undefined, 'zh-cn']) {
  const pass = locale ?? 'suite';
  const dir = fs.mkdtempSync(path.join(os.tmpdir().length <= 40 ? os.tmpdir() : '/tmp', 'rle2e-electron-'));
  const workspace = path.join(dir, 'ws');
  const userData = path.join(dir, 'user-data');
  fs.cpSync(path.join(here, 'workspace'), workspace, { recursive: true });
  fs.mkdirSync(userData, { recursive: true });
  if (locale) registerEmptyLanguagePack(userData, locale);
  const resultsFile = path.join(outDir, `electron-results-${pass}.json`);
  let exitCode;
  try {
    exitCode = await runTests({
      version,
      extensionDevelopmentPath: root,
      extensionTestsPath: suiteIndex,
      launchArgs: [workspace, '--disable-extensions', `--user-data-dir=${userData}`, ...(locale ? ['--locale', locale] : [])],
      extensionTestsEnv: { ROLLOUT_LINT_E2E_RESULTS: resultsFile, ...(locale ? { ROLLOUT_LINT_E2E_LOCALE: locale } : {}) },
    });
  } catch (error) {
    console.error(`[electron] ${pass}: ${error?.message ?? error}`);
    exitCode = 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  let summary = { passed: 0, failed: 1, skipped: 0 };
  try {
    summary = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
  } catch {
    // the run did not get as far as the suite (download or start failed)
  }
  results.push({ pass, ...summary, failed: exitCode !== 0 && summary.failed === 0 ? 1 : summary.failed });
}
for (const r of results) console.log(`${r.pass}: ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`electron: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
