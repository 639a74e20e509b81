#!/usr/bin/env node
// `npm run test:e2e`: the extension in a real VS Code (code-server 4.139 on Node 24) without
// downloading VS Code or Electron. Checks/installs system packages, installs the pinned tools into
// ${XDG_CACHE_HOME:-~/.cache}/rollout-lint-e2e/<versions> (reused), packages the .vsix, then for each
// pass starts code-server on 127.0.0.1 with a copy of test/e2e/workspace:
//   suite   the mocha suite (test/e2e/suite) in the extension host (smoke-test driver on)
//   zh-cn   the tests tagged @zh-cn, with code-server --locale zh-cn
//   ui      the playwright UI smoke test (smoke-test driver off, so toasts show)
// Screenshots and logs go to test/e2e/out/. Exit code 0 only when every pass passed.
// Options: --only=suite,zh-cn,ui   --grep=TEXT (suite tests whose title has TEXT)   --verbose (every
// extension-host log line)   --keep (keep session folders)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSuite, packageExtension } from './harness/build.mjs';
import { startCodeServer, stopAll } from './harness/code-server.mjs';
import { runExtensionTests } from './harness/extension-tests.mjs';
import { ensureSystemPackages, ensureTools, toolsRoot } from './harness/tools.mjs';
import { runUiSmoke } from './harness/ui-smoke.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const outDir = path.join(here, 'out');
const fixture = path.join(here, 'workspace');
const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const verbose = args.includes('--verbose');
const keep = args.includes('--keep');
const grep = args.find((a) => a.startsWith('--grep='))?.slice('--grep='.length);
const wanted = (pass) => !only || only.includes(pass);

const t0 = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const log = (line) => console.log(`[e2e ${seconds(t0).padStart(7)}] ${line}`);

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    console.error(`\n[e2e] ${signal}: stopping code-server`);
    stopAll();
    process.exit(130);
  });
}
process.on('exit', stopAll);

/** Copies a session's code-server and VS Code logs to out/logs/<pass>/ for a failed pass. */
function keepLogs(session, pass) {
  const target = path.join(outDir, 'logs', pass);
  fs.mkdirSync(target, { recursive: true });
  fs.copyFileSync(session.logFile, path.join(target, 'code-server.log'));
  const vscodeLogs = path.join(session.dir, 'user-data', 'logs');
  if (fs.existsSync(vscodeLogs)) fs.cpSync(vscodeLogs, path.join(target, 'vscode'), { recursive: true });
  log(`logs of the failed ${pass} pass: ${path.relative(root, target)}/`);
}

async function stopSession(session) {
  await session.stop({ keepDir: keep });
  if (keep) log(`kept ${session.dir}`);
}

async function suitePass({ pass, tools, vsix, suiteIndex, locale }) {
  const resultsFile = path.join(outDir, `results-${pass}.json`);
  const session = await startCodeServer({
    tools, vsix, fixture, log, smokeDriver: true, locale,
    env: { ROLLOUT_LINT_E2E_RESULTS: resultsFile, ...(locale ? { ROLLOUT_LINT_E2E_LOCALE: locale } : {}), ...(grep ? { ROLLOUT_LINT_E2E_GREP: grep } : {}) },
  });
  try {
    const result = await runExtensionTests({
      session, suiteIndex, resultsFile, playwrightCore: tools.playwrightCore, log, verbose,
      lang: locale, timeoutMs: 10 * 60 * 1000,
    });
    if (result.exitCode === 'timeout') result.failures.push('the suite did not finish within 10 minutes');
    const failed = result.exitCode !== 0 && result.failed === 0 ? 1 : result.failed;
    if (failed > 0) keepLogs(session, pass);
    return { ...result, failed };
  } finally {
    await stopSession(session);
  }
}

async function uiPass({ pass, tools, vsix, locale }) {
  const session = await startCodeServer({ tools, vsix, fixture, log, smokeDriver: false, locale });
  try {
    const result = await runUiSmoke({ session, playwrightCore: tools.playwrightCore, outDir, log, lang: locale ?? 'en' });
    if (result.failed > 0) keepLogs(session, pass);
    return result;
  } finally {
    await stopSession(session);
  }
}

const results = [];
let setupError;
try {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  await ensureSystemPackages(log);
  const tools = await ensureTools(log);
  if (tools.installed.length) log(`tools: installed ${tools.installed.join(', ')} into ${tools.root}`);
  const vsix = await packageExtension(root, outDir, log);
  log(`package: ${path.relative(root, vsix) || vsix}`);
  const suiteIndex = await buildSuite(path.join(here, 'suite'), outDir);
  for (const [pass, run] of [
    ['suite', () => suitePass({ pass: 'suite', tools, vsix, suiteIndex })],
    ['zh-cn', () => suitePass({ pass: 'zh-cn', tools, vsix, suiteIndex, locale: 'zh-cn' })],
    ['ui', () => uiPass({ pass: 'ui', tools, vsix })],
    ['ui-zh-cn', () => uiPass({ pass: 'ui-zh-cn', tools, vsix, locale: 'zh-cn' })],
  ]) {
    if (!wanted(pass)) continue;
    const started = Date.now();
    log(`${pass}: start`);
    let result;
    try {
      result = await run();
    } catch (error) {
      console.error(`[e2e] ${pass}: ${error.stack ?? error}`);
      result = { passed: 0, failed: 1, skipped: 0, failures: [String(error.message ?? error).split('\n')[0]] };
    }
    results.push({ pass, ...result });
    log(`${pass}: ${result.passed} passed, ${result.failed} failed${result.skipped ? `, ${result.skipped} skipped` : ''} (${seconds(started)})`);
  }
} catch (error) {
  setupError = error;
  console.error(`[e2e] ${error.stack ?? error}`);
} finally {
  stopAll();
}

const shots = fs.existsSync(outDir) ? fs.readdirSync(outDir).filter((n) => n.endsWith('.png')).sort() : [];
if (shots.length) {
  console.log(`screenshots (${path.relative(process.cwd(), outDir) || outDir}):`);
  for (const name of shots) console.log(`  ${name}`);
}
for (const r of results) {
  for (const failure of r.failures ?? []) console.log(`FAILED ${r.pass}: ${failure}`);
  console.log(`${r.pass}: ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`);
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0) + (setupError ? 1 : 0);
const skipped = results.reduce((n, r) => n + (r.skipped ?? 0), 0);
console.log(`tools: ${toolsRoot()}; total time ${seconds(t0)}`);
console.log(`e2e: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
