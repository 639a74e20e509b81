// A person's path through the workbench, in headless Chromium: Quick Open a file, see the squiggle
// and its Problems row, apply the fix from the quick-fix menu, run a command from the palette and
// read its notification. Runs against code-server WITHOUT the smoke-test driver (which hides
// toasts). Few selectors, all of them stable workbench class names. A screenshot per step.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { launchBrowser } from './browser.mjs';

const STEP_TIMEOUT = 60000;
// Not .env: the fixture's .gitignore lists it, and Quick Open leaves git-ignored files out.
const FILE = 'openclaw.json';
const RULE = 'base-url-duplicate-v1';
const FIX_TITLE = 'Remove the repeated /v1';
const DOUBLED = 'https://taotoken.net/api/v1/v1';
const FIXED_LINE = '"baseUrl": "https://taotoken.net/api/v1",';
const TEST_CONNECTION = 'rolloutLint.testConnection';
/** Written into the session's workspace copy: a loopback base URL and its key in one block. */
const LOCAL_ENV = 'local.env';

/** An OpenAI-compatible answer with log probs for every chat request; models list for GET. */
async function startOkServer() {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.method === 'GET'
        ? { object: 'list', data: [{ id: 'qwen3-4b-instruct', object: 'model' }] }
        : { object: 'chat.completion', model: 'qwen3-4b-instruct', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, logprobs: { content: [{ token: 'ok', logprob: -0.01, top_logprobs: [] }] } }] }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }) };
}

/**
 * @returns {Promise<{passed: number, failed: number, skipped: number, failures: string[]}>}
 */
export async function runUiSmoke({ session, playwrightCore, outDir, log }) {
  const browser = await launchBrowser(playwrightCore, session.dir);
  const { page } = browser;
  const consoleErrors = [];
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  let passed = 0;
  let skipped = 0;
  let okServer;
  let shotIndex = 0;
  const failures = [];
  const shot = async (name) => page.screenshot({ path: path.join(outDir, `ui-${++shotIndex}-${name}.png`) });
  const step = async (name, fn) => {
    const started = Date.now();
    try {
      await fn();
      passed++;
      log(`ui: ✔ ${name} (${Date.now() - started} ms)`);
    } catch (error) {
      failures.push(`${name}: ${String(error?.message ?? error).split('\n')[0]}`);
      log(`ui: ✘ ${name}: ${error?.message ?? error}`);
      await shot('failure').catch(() => {});
      throw error;
    }
  };
  const quickInput = async (keys, text) => {
    await page.keyboard.press(keys);
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await input.fill(text);
  };
  // The Problems panel lists the whole workspace: pick FILE's row by rule id and position.
  const text = fs.readFileSync(path.join(session.workspace, FILE), 'utf8');
  const at = text.indexOf(DOUBLED);
  const line = text.slice(0, at).split('\n').length;
  const column = at - text.lastIndexOf('\n', at - 1);
  const problemRow = page.locator('.markers-panel .monaco-list-row', { hasText: RULE }).filter({ hasText: `[Ln ${line}, Col ${column}]` });

  const manifest = JSON.parse(fs.readFileSync(path.join(session.extensionPath, 'package.json'), 'utf8'));
  const command = manifest.contributes?.commands?.find((c) => c.command === TEST_CONNECTION);
  // Written before the workbench opens: Quick Open's file index may not yet list a file created later.
  if (command) {
    okServer = await startOkServer();
    fs.writeFileSync(path.join(session.workspace, LOCAL_ENV), `OPENAI_BASE_URL=http://127.0.0.1:${okServer.port}/v1\nOPENAI_API_KEY=sk-test-e2e-ui-00000000000000000000000000\n`);
  }

  try {
    await step('workbench opens the workspace', async () => {
      await page.goto(`${session.url}/?folder=${encodeURIComponent(session.workspace)}`, { waitUntil: 'domcontentloaded' });
      await page.locator('.monaco-workbench').waitFor({ timeout: STEP_TIMEOUT });
      await page.locator('.explorer-folders-view .monaco-list-row', { hasText: FILE }).first().waitFor({ timeout: STEP_TIMEOUT });
      await shot('workbench');
    });

    await step(`Quick Open ${FILE}`, async () => {
      await page.locator('.monaco-workbench .part.editor').click({ position: { x: 300, y: 300 } }).catch(() => {});
      await quickInput('Control+p', FILE);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: FILE }).first().waitFor({ timeout: STEP_TIMEOUT });
      await page.keyboard.press('Enter');
      await page.locator('.monaco-editor .view-lines', { hasText: 'baseUrl' }).first().waitFor({ timeout: STEP_TIMEOUT });
      await shot('quick-open');
    });

    await step('squiggle and Problems row', async () => {
      await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: STEP_TIMEOUT });
      await page.keyboard.press('Control+Shift+m');
      await problemRow.first().waitFor({ timeout: STEP_TIMEOUT });
      log(`ui:   problem row: ${(await problemRow.first().innerText()).replace(/\s+/g, ' ')}`);
      await shot('problems');
    });

    await step('quick fix from the menu', async () => {
      // The squiggle lies under .view-lines, which takes the pointer events: click its centre.
      const box = await page.locator('.monaco-editor .squiggly-error').first().boundingBox();
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.keyboard.press('Control+.');
      const item = page.locator('.action-widget .monaco-list-row', { hasText: FIX_TITLE }).first();
      await item.waitFor({ timeout: STEP_TIMEOUT });
      await shot('quick-fix-menu');
      await item.click();
      await page.locator('.monaco-editor .view-lines', { hasText: FIXED_LINE }).first().waitFor({ timeout: STEP_TIMEOUT });
      await problemRow.first().waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
      await shot('fixed');
    });

    if (!command) {
      skipped++;
      log(`ui: - command palette + notification (skipped: ${TEST_CONNECTION} is not in package.json contributes.commands yet)`);
    } else {
      const title = `${command.category ? `${command.category}: ` : ''}${command.title}`;
      await step(`command palette: ${title}`, async () => {
        const base = `http://127.0.0.1:${okServer.port}/v1`;
        await quickInput('Control+p', LOCAL_ENV);
        await page.locator('.quick-input-list .monaco-list-row', { hasText: LOCAL_ENV }).first().waitFor({ timeout: STEP_TIMEOUT });
        await page.keyboard.press('Enter');
        await page.locator('.monaco-editor .view-lines', { hasText: base }).first().waitFor({ timeout: STEP_TIMEOUT });
        await quickInput('Control+Shift+p', `>${title}`);
        await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: STEP_TIMEOUT });
        await page.keyboard.press('Enter');
        // The result toast, not the progress toast ("Rollout Lint: testing <url>") shown while the probe runs.
        const toast = page.locator('.notifications-toasts .notification-toast', { hasText: `127.0.0.1:${okServer.port}`, hasNotText: 'Rollout Lint: testing' }).first();
        await toast.waitFor({ timeout: STEP_TIMEOUT });
        const message = (await toast.innerText()).replace(/\s+/g, ' ');
        log(`ui:   notification: ${message}`);
        await shot('notification');
        if (!/\bok\b|log ?probs?/i.test(message)) throw new Error(`the notification does not report a working connection: ${message}`);
      });
    }
  } catch {
    fs.writeFileSync(path.join(outDir, 'ui-failure.html'), await page.content().catch(() => ''));
    if (consoleErrors.length) fs.writeFileSync(path.join(outDir, 'ui-page-errors.txt'), consoleErrors.join('\n'));
  } finally {
    await browser.close();
    await okServer?.close();
  }
  return { passed, failed: failures.length, skipped, failures };
}
