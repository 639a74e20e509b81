// Runs the mocha suite (test/e2e/suite, @vscode/test-electron style: index exports run()) inside
// code-server's remote extension host. code-server must run with
// `--vscode-option enable-smoke-test-driver`: only then does the built workbench honour the
// `?payload=` development options. VS Code web reports the runner's end through
// window.codeAutomationExit(code) and forwards extension-host console lines to codeAutomationLog.
import fs from 'node:fs';
import path from 'node:path';
import util from 'node:util';
import { launchBrowser } from './browser.mjs';

/** Lines the suite's reporter prints start with this (see suite/index.ts). */
const MARK = '[e2e]';

/**
 * @param {object} o
 * @param {{url: string, workspace: string, extensionPath: string}} o.session
 * @param {string} o.suiteIndex compiled suite entry (absolute path on this machine)
 * @param {string} o.resultsFile where the suite writes its JSON summary
 * @param {string} o.playwrightCore
 * @param {string} [o.lang] browser language
 * @param {number} o.timeoutMs watchdog for the whole run
 * @returns {Promise<{exitCode: number|'timeout', passed: number, failed: number, skipped: number, failures: string[]}>}
 */
export async function runExtensionTests({ session, suiteIndex, resultsFile, playwrightCore, lang, timeoutMs, log, verbose }) {
  const authority = new URL(session.url).host;
  const remote = (p) => `vscode-remote://${authority}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(session.extensionPath)],
    ['extensionTestsPath', remote(suiteIndex)],
    ['skipWelcome', 'true'],
    ['skipReleaseNotes', 'true'],
  ];
  const url = `${session.url}/?folder=${encodeURIComponent(session.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  fs.rmSync(resultsFile, { force: true });
  const browser = await launchBrowser(playwrightCore, session.dir, { lang });
  const transcript = [];
  let watchdog;
  try {
    let finish;
    const finished = new Promise((resolve) => (finish = resolve));
    await browser.page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = util.format(...(Array.isArray(args) ? args : [args]));
      transcript.push(`${type}: ${line}`);
      if (verbose || line.startsWith(MARK)) log(line.startsWith(MARK) ? line.slice(MARK.length + 1) : line);
    });
    await browser.page.exposeFunction('codeAutomationExit', (code) => finish(code));
    await browser.page.goto(url);
    const exitCode = await Promise.race([
      finished,
      new Promise((resolve) => (watchdog = setTimeout(() => resolve('timeout'), timeoutMs))),
    ]);
    const summary = readSummary(resultsFile);
    if (exitCode !== 0 || summary.failed > 0) {
      const out = path.join(path.dirname(resultsFile), `${path.basename(resultsFile, '.json')}-transcript.txt`);
      fs.writeFileSync(out, transcript.join('\n'));
      log(`extension host transcript: ${out}`);
    }
    return { exitCode, ...summary };
  } finally {
    clearTimeout(watchdog);
    await browser.close();
  }
}

function readSummary(file) {
  try {
    const { passed, failed, skipped, failures } = JSON.parse(fs.readFileSync(file, 'utf8'));
    return { passed, failed, skipped, failures };
  } catch {
    return { passed: 0, failed: 1, skipped: 0, failures: [`no results in ${file}: the suite did not finish`] };
  }
}
