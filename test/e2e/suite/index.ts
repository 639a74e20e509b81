// Entry point of the extension test suite in the @vscode/test-electron style: VS Code loads this file
// in the extension host (extensionTestsPath) and awaits run(). The same compiled files run under
// @vscode/test-electron (npm run test:electron) and inside code-server (npm run test:e2e).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { skipReasonOf, ZH_TAG } from './support';

/**
 * Prints one line per test through console.log (the extension host forwards it to the workbench,
 * where the harness reads lines starting with `[e2e]`) and writes a JSON summary to
 * `$ROLLOUT_LINT_E2E_RESULTS` when set.
 */
class LineReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const say = (line: string) => console.log(`[e2e] ${line}`);
    const failures: string[] = [];
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    runner.on('suite', (suite) => {
      if (suite.title) say(`${'  '.repeat(depth(suite) - 1)}${suite.title}`);
    });
    runner.on('pass', (test) => {
      passed++;
      say(`${indent(test)}✔ ${test.title} (${test.duration ?? 0} ms)`);
    });
    runner.on('pending', (test) => {
      skipped++;
      say(`${indent(test)}- ${test.title} (skipped: ${skipReasonOf(test) ?? 'pending'})`);
    });
    runner.on('fail', (test, error: Error) => {
      failed++;
      const message = `${test.fullTitle()}: ${error?.message ?? String(error)}`;
      failures.push(message);
      say(`${indent(test)}✘ ${test.title}\n${(error?.stack ?? message).split('\n').map((l) => `        ${l}`).join('\n')}`);
    });
    runner.once('end', () => {
      say(`${passed} passed, ${failed} failed, ${skipped} skipped`);
      const file = process.env.ROLLOUT_LINT_E2E_RESULTS;
      if (file) fs.writeFileSync(file, JSON.stringify({ passed, failed, skipped, failures }, null, 2));
    });
  }
}

function depth(suite: Mocha.Suite): number {
  let n = 0;
  for (let s: Mocha.Suite | undefined = suite; s && !s.root; s = s.parent) n++;
  return n;
}

function indent(test: Mocha.Runnable): string {
  return '  '.repeat(test.parent ? depth(test.parent) : 0);
}

/**
 * Runs every `*.test.js` beside this file, in name order; rejects when a test failed. Tests tagged
 * `@zh-cn` run only when `$ROLLOUT_LINT_E2E_LOCALE` is Chinese; `$ROLLOUT_LINT_E2E_GREP` picks tests by title.
 */
export function run(): Promise<void> {
  const zh = /^zh/i.test(process.env.ROLLOUT_LINT_E2E_LOCALE ?? '');
  const only = process.env.ROLLOUT_LINT_E2E_GREP;
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 120000,
    reporter: LineReporter,
    grep: only || ZH_TAG,
    invert: !only && !zh,
  });
  for (const name of fs.readdirSync(__dirname).filter((n) => n.endsWith('.test.js')).sort()) {
    mocha.addFile(path.join(__dirname, name));
  }
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
}
