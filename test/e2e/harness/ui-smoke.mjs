// A person's path through the workbench, in headless Chromium: Quick Open a file, see the squiggle
// and its Problems row, apply the fix from the quick-fix menu, run a command from the palette and
// read its notification; then the surfaces of issue 18: hover, Fix All with its count, the language
// status popup, the read-only connection report, the Output log, the rules setting in the Settings
// editor, the walkthrough and Turn On Fix on Save. Runs against code-server WITHOUT the smoke-test
// driver (which hides toasts), once in English and once with `--locale zh-cn` (our contributed and
// client strings are Chinese there; the workbench's own stay English: the language pack is empty).
// Few selectors, all of them stable workbench class names. A screenshot per step (`ui-<lang>-N-*.png`);
// the English pass also writes the walkthrough's images (`walkthrough-*.png`).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './browser.mjs';

const STEP_TIMEOUT = 60000;
// Not .env: the fixture's .gitignore lists it, and Quick Open leaves git-ignored files out.
const FILE = 'openclaw.json';
const RULE = 'base-url-duplicate-v1';
/** What each pass expects to read, by UI language (the Chinese texts come from our bundles). */
const TEXTS = {
  en: { endpointsKey: 'key: ', endpointsNotTested: 'not tested yet', fixTitle: 'Remove the repeated /v1', chat: 'Requests go to', fixed: 'Fixed 2 problems in fix-all.env', detail: 'hints are not counted', again: 'Test again', reportSetting: 'configs/local.env, line 1', walkthrough: 'Get your rollout endpoint right', fixOnSave: 'Fix on save is on', progress: 'Rollout Lint: testing', pickTitle: 'Test TaoToken Connection', advice: 'does not ask for log probs', adviceAction: 'Ask for log probs for a rollout: add logprobs=True', pickDefault: 'TaoToken (default)', verdict: 'Verdict: ok', consumer: 'Consumer: openai-sdk', scan: 'workspace scan:' },
  'zh-cn': { endpointsKey: '密钥：', endpointsNotTested: '尚未测试', fixTitle: '删除重复的 /v1', chat: '请求会发往', fixed: '已修复 fix-all.env 中的 2 个问题', detail: '提示不计入', again: '再次测试', reportSetting: 'configs/local.env 第 1 行', walkthrough: '配置好你的 rollout 端点', fixOnSave: '已开启保存时修复', progress: '正在测试', pickTitle: '测试 TaoToken 连接', advice: '未请求 logprobs', adviceAction: '为 rollout 请求 logprobs：添加 logprobs=True', pickDefault: 'TaoToken（默认）', verdict: '结论：正常（ok）', consumer: '使用方：OpenAI SDK（openai-sdk）', scan: '工作区扫描：' },
};
/** Written into the workspace copy: two safely fixable problems (a doubled /v1, a trailing space). */
const FIX_ALL_FILE = 'fix-all.env';
const FIX_ALL_TEXT = 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\nOPENAI_API_KEY=sk-fixall-e2e-0000000000000000000000000000 \n';
const DOUBLED = 'https://taotoken.net/api/v1/v1';
/** The fixture's .env key (fake): the Rollout Endpoints view may show only its mask. */
const ENV_KEY = 'sk-test-0000000000000000000000000000abcd';
/** Rows the Rollout Endpoints view lists for the fixture (`file:line` in each row's description). */
const ENDPOINT_ROWS = ['.env:2', 'policy_serving.py:7', 'rollout/rollout.yaml:7', 'scripts/launch.sh:5', 'openclaw.json:5'];
const FIXED_LINE = '"baseUrl": "https://taotoken.net/api/v1",';
const TEST_CONNECTION = 'rolloutLint.testConnection';
/** Written into the workspace copy: a notebook whose one code cell has a doubled /v1 (port 31999, for the Problems filter). */
const NOTEBOOK = 'notebooks/smoke.ipynb';
const NOTEBOOK_URL = 'http://127.0.0.1:31999/v1/v1';
const NOTEBOOK_JSON = JSON.stringify({
  cells: [{ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: [`llm = OpenAI(base_url="${NOTEBOOK_URL}", api_key="EMPTY")\n`] }],
  metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, language_info: { name: 'python' } },
  nbformat: 4,
  nbformat_minor: 5,
}, null, 1);
/**
 * Written into the workspace copy: the TaoToken guide's demo script, a chat call without logprobs in a
 * file no rollout glob matches (issue 25 item 4). Under `zz-demo/` so that its row sorts last in the
 * Rollout Endpoints view and leaves the fixture's rows in sight.
 */
const DEMO = 'zz-demo/chat_demo.py';
const DEMO_TEXT = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'lsp', 'taotoken-demo.py'), 'utf8');
/** Written into the session's workspace copy: a loopback base URL and its key in one block. */
const LOCAL_ENV = 'configs/local.env';
const LOCAL_KEY = 'sk-test-e2e-ui-00000000000000000000000000';

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
export async function runUiSmoke({ session, playwrightCore, outDir, log, lang = 'en' }) {
  const T = TEXTS[lang];
  const browser = await launchBrowser(playwrightCore, session.dir);
  const { page } = browser;
  const consoleErrors = [];
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  let passed = 0;
  let skipped = 0;
  let okServer;
  let shotIndex = 0;
  const failures = [];
  const shot = async (name) => page.screenshot({ path: path.join(outDir, `ui-${lang}-${++shotIndex}-${name}.png`) });
  /** A walkthrough image (`walkthrough-<name>.png`; `walkthrough-zh-cn-<name>.png` in the Chinese pass): the area of `locator` with some margin. */
  const walkthroughShot = async (name, locator) => {
    const box = await locator.boundingBox();
    if (!box) return;
    const margin = 24;
    const clip = { x: Math.max(0, box.x - margin), y: Math.max(0, box.y - margin), width: Math.min(1400 - Math.max(0, box.x - margin), box.width + 2 * margin), height: Math.min(900 - Math.max(0, box.y - margin), box.height + 2 * margin) };
    await page.screenshot({ path: path.join(outDir, `walkthrough-${lang === 'en' ? '' : `${lang}-`}${name}.png`), clip });
  };
  /** Runs one step; a failed step is recorded and, when `essential`, ends the pass. */
  const step = async (name, fn, { essential = false } = {}) => {
    const started = Date.now();
    try {
      await fn();
      passed++;
      log(`ui: ✔ ${name} (${Date.now() - started} ms)`);
    } catch (error) {
      failures.push(`${name}: ${String(error?.message ?? error).split('\n')[0]}`);
      log(`ui: ✘ ${name}: ${error?.message ?? error}`);
      await shot('failure').catch(() => {});
      await page.keyboard.press('Escape').catch(() => {});
      if (essential) throw error;
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
  const nlsFile = path.join(session.extensionPath, lang === 'en' ? 'package.nls.json' : `package.nls.${lang}.json`);
  const nls = fs.existsSync(nlsFile) ? JSON.parse(fs.readFileSync(nlsFile, 'utf8')) : {};
  const localized = (value) => (typeof value === 'string' ? value.replace(/^%(.+)%$/, (whole, key) => nls[key] ?? whole) : value);
  /** The palette title of a contributed command (`Rollout Lint: Fix All …`), in this pass's language. */
  const commandTitle = (id) => {
    const c = manifest.contributes?.commands?.find((x) => x.command === id);
    return c ? `${c.category ? `${localized(c.category)}: ` : ''}${localized(c.title)}` : undefined;
  };
  const command = manifest.contributes?.commands?.find((c) => c.command === TEST_CONNECTION);
  /** Runs a command from the palette by its title. */
  const runCommand = async (title) => {
    await quickInput('Control+Shift+p', `>${title}`);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: STEP_TIMEOUT });
    await page.keyboard.press('Enter');
  };
  const openFile = async (name, expectText) => {
    await quickInput('Control+p', name);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: path.basename(name) }).first().waitFor({ timeout: STEP_TIMEOUT });
    await page.keyboard.press('Enter');
    await page.locator('.monaco-editor .view-lines', { hasText: expectText }).first().waitFor({ timeout: STEP_TIMEOUT });
  };
  const openFileWith = async (name, selector, expectText) => {
    await quickInput('Control+p', name);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: path.basename(name) }).first().waitFor({ timeout: STEP_TIMEOUT });
    await page.keyboard.press('Enter');
    await page.locator(selector, { hasText: expectText }).first().waitFor({ timeout: STEP_TIMEOUT });
  };
  const toast = (hasText) => page.locator('.notifications-toasts .notification-toast', { hasText }).first();
  fs.writeFileSync(path.join(session.workspace, FIX_ALL_FILE), FIX_ALL_TEXT);
  fs.mkdirSync(path.join(session.workspace, path.dirname(NOTEBOOK)), { recursive: true });
  fs.writeFileSync(path.join(session.workspace, NOTEBOOK), NOTEBOOK_JSON);
  fs.mkdirSync(path.join(session.workspace, path.dirname(DEMO)), { recursive: true });
  fs.writeFileSync(path.join(session.workspace, DEMO), DEMO_TEXT);
  // Written before the workbench opens: Quick Open's file index may not yet list a file created later.
  if (command) {
    okServer = await startOkServer();
    fs.mkdirSync(path.join(session.workspace, path.dirname(LOCAL_ENV)), { recursive: true });
    fs.writeFileSync(path.join(session.workspace, LOCAL_ENV), `OPENAI_BASE_URL=http://127.0.0.1:${okServer.port}/v1\nOPENAI_API_KEY=${LOCAL_KEY}\n`);
  }

  try {
    await step('workbench opens the workspace', async () => {
      await page.goto(`${session.url}/?folder=${encodeURIComponent(session.workspace)}`, { waitUntil: 'domcontentloaded' });
      await page.locator('.monaco-workbench').waitFor({ timeout: STEP_TIMEOUT });
      await page.locator('.explorer-folders-view .monaco-list-row', { hasText: FILE }).first().waitFor({ timeout: STEP_TIMEOUT });
      await shot('workbench');
    }, { essential: true });

    await step(`Quick Open ${FILE}`, async () => {
      await page.locator('.monaco-workbench .part.editor').click({ position: { x: 300, y: 300 } }).catch(() => {});
      await quickInput('Control+p', FILE);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: FILE }).first().waitFor({ timeout: STEP_TIMEOUT });
      await page.keyboard.press('Enter');
      await page.locator('.monaco-editor .view-lines', { hasText: 'baseUrl' }).first().waitFor({ timeout: STEP_TIMEOUT });
      await shot('quick-open');
    }, { essential: true });

    await step('squiggle and Problems row', async () => {
      await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: STEP_TIMEOUT });
      await page.keyboard.press('Control+Shift+m');
      await problemRow.first().waitFor({ timeout: STEP_TIMEOUT });
      log(`ui:   problem row: ${(await problemRow.first().innerText()).replace(/\s+/g, ' ')}`);
      await shot('problems');
      await walkthroughShot('read-finding', page.locator('.monaco-workbench .part.panel'));
    });

    await step('hover on the base URL names each client once', async () => {
      const box = await page.locator('.monaco-editor .squiggly-error').first().boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      const hover = page.locator('.monaco-hover', { hasText: T.chat }).first();
      await hover.waitFor({ timeout: STEP_TIMEOUT });
      const text = (await hover.innerText()).replace(/\s+/g, ' ');
      log(`ui:   hover: ${text.slice(0, 300)}`);
      await shot('hover');
      if (/\((openai SDK|Anthropic SDK)\)`?\)/.test(text)) throw new Error(`the hover names a client twice: ${text}`);
      await page.mouse.move(10, 450);
    });

    await step('quick fix from the menu', async () => {
      // The squiggle lies under .view-lines, which takes the pointer events: click its centre.
      const box = await page.locator('.monaco-editor .squiggly-error').first().boundingBox();
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      const item = page.locator('.action-widget .monaco-list-row', { hasText: T.fixTitle }).first();
      // The menu closes when diagnostics refresh under it (the workspace scan): ask again, up to 3 times.
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('Control+.');
        try {
          await item.waitFor({ timeout: attempt < 3 ? 15000 : STEP_TIMEOUT });
          break;
        } catch (error) {
          if (attempt >= 3) throw error;
          await page.keyboard.press('Escape');
          await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
        }
      }
      await shot('quick-fix-menu');
      await walkthroughShot('quick-fix', page.locator('.action-widget').first());
      await item.click();
      await page.locator('.monaco-editor .view-lines', { hasText: FIXED_LINE }).first().waitFor({ timeout: STEP_TIMEOUT });
      await problemRow.first().waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
      await shot('fixed');
    });

    await step('Rollout Endpoints view: a row per endpoint, the key masked', async () => {
      const viewName = localized(manifest.contributes.views.explorer.find((v) => v.id === 'rolloutLint.endpoints').name);
      // VS Code's own command for every view ("Focus on <name> View"; its words stay English under zh-cn).
      await runCommand(`Focus on ${viewName} View`);
      const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: viewName }) }).first();
      const rows = pane.locator('.pane-body .monaco-list-row');
      // The tree renders only the rows in sight: fold the file explorer above it so every endpoint has room.
      // A handle: once folded, the pane no longer holds .explorer-folders-view, so a locator would not find its header again.
      const folders = await page.locator('.pane', { has: page.locator('.explorer-folders-view') }).locator('.pane-header').first().elementHandle();
      const unfold = (await folders.getAttribute('aria-expanded')) === 'true';
      if (unfold) await folders.click();
      for (const where of ENDPOINT_ROWS) await rows.filter({ hasText: where }).first().waitFor({ timeout: STEP_TIMEOUT });
      // Expand the .env row (its twistie: a click on the row itself goes to the definition).
      const envRow = rows.filter({ hasText: '.env:2' }).first();
      await envRow.locator('.monaco-tl-twistie').click();
      const keyRow = rows.filter({ hasText: T.endpointsKey }).first();
      await keyRow.waitFor({ timeout: STEP_TIMEOUT });
      await rows.filter({ hasText: T.endpointsNotTested }).first().waitFor({ timeout: STEP_TIMEOUT });
      await page.waitForTimeout(300);
      await shot('endpoints-view');
      const text = (await pane.innerText()).replace(/\s+/g, ' ');
      log(`ui:   endpoints view: ${text.slice(0, 600)}`);
      const key = (await keyRow.innerText()).replace(/\s+/g, ' ');
      if (!key.includes('…abcd')) throw new Error(`the key row shows no mask: ${key}`);
      if (text.includes(ENV_KEY) || text.includes(ENV_KEY.slice(8, 36))) throw new Error('the view shows a full key');
      if (!text.includes('https://taotoken.net/api/v1')) throw new Error(`no row shows its URL: ${text}`);
      // scripts/launch.sh pairs its base URL with the placeholder key YOUR_API_KEY (an error in Problems): no ✓ there.
      const launch = rows.filter({ hasText: 'scripts/launch.sh:5' }).first();
      const icons = await launch.locator('.codicon').evaluateAll((els) => els.map((e) => e.className));
      log(`ui:   scripts/launch.sh row icons: ${icons.join(' | ')}`);
      if (icons.some((c) => /codicon-pass\b/.test(c)) || !icons.some((c) => /codicon-error\b/.test(c))) throw new Error(`the launch.sh row (placeholder key) is not marked as an error: ${icons.join(', ')}`);
      if (lang !== 'en' && /\b(key|model|client|not tested|value from|log probs)\b/.test(text.replace(/[\w.]+(-[\w.]+)+/g, ''))) throw new Error(`English labels under ${lang}: ${text}`);
      // Each row's label (the effective URL) and description (file:line · client) must be readable, not cut to nothing.
      for (const where of ENDPOINT_ROWS) {
        const row = rows.filter({ hasText: where }).first();
        const [label, description] = [row.locator('.label-name').first(), row.locator('.label-description').first()];
        const [lb, db, rb] = [await label.boundingBox(), await description.boundingBox(), await row.boundingBox()];
        if (!lb || !db || !rb) throw new Error(`row ${where} has no label or description`);
        if (lb.x + lb.width > rb.x + rb.width + 1) throw new Error(`row ${where}: the label (file:line) is cut off: ${JSON.stringify({ lb, rb })}`);
        if (db.x + 40 > rb.x + rb.width) throw new Error(`row ${where}: no room is left for the URL: ${JSON.stringify({ lb, db, rb })}`);
      }
      if (unfold) await folders.click();
    });

    await step('notebook: each finding once in Problems, at the cell', async () => {
      await openFileWith(NOTEBOOK, '.monaco-workbench .part.editor', '31999');
      await page.keyboard.press('Control+Shift+m');
      const filter = page.locator('.part.panel .viewpane-filter input, .markers-panel-action-filter input, .part.panel input[placeholder*="Filter"]').first();
      await filter.waitFor({ timeout: STEP_TIMEOUT });
      await filter.fill('31999');
      const rows = page.locator('.markers-panel .monaco-list-row', { hasText: RULE });
      await rows.filter({ hasText: '[Ln 1, Col' }).first().waitFor({ timeout: STEP_TIMEOUT });
      // the notebook's own report (notebook-JSON positions) goes away once its cells are open: wait for one row, then check it stays one
      const deadline = Date.now() + STEP_TIMEOUT;
      while ((await rows.count()) !== 1 && Date.now() < deadline) await page.waitForTimeout(250);
      await page.waitForTimeout(2000);
      const texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
      log(`ui:   notebook problem rows: ${JSON.stringify(texts)}`);
      await shot('notebook-problems');
      if (texts.length !== 1 || !texts[0].includes('[Ln 1, Col')) throw new Error(`the notebook's finding shows ${texts.length} times: ${JSON.stringify(texts)}`);
      await filter.fill('');
      await page.keyboard.press('Control+w');
    });

    await step('demo script: no squiggle; the hover on the call says a rollout needs logprobs=True; the action is in the Ctrl+. menu', async () => {
      await openFile(DEMO, 'completions');
      // Monaco joins tokens of one colour into one span: find the characters of `create` in the line's text.
      // Asked again before each use: a code lens drawn above line 3 moves the line down.
      const createBox = async () => (await page.waitForFunction(() => {
        for (const line of document.querySelectorAll('.monaco-editor .view-lines .view-line')) {
          const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const at = node.textContent.search(/\bcreate\b/);
            if (at < 0) continue;
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + 'create'.length);
            const r = range.getBoundingClientRect();
            return { x: r.x, y: r.y, width: r.width, height: r.height };
          }
        }
        return null;
      }, undefined, { timeout: STEP_TIMEOUT })).jsonValue();
      let box = await createBox();
      const hover = page.locator('.monaco-hover', { hasText: T.advice }).first();
      // the server answers the hover once it has linted the file: move away and back until it does
      for (const deadline = Date.now() + STEP_TIMEOUT; ;) {
        box = await createBox();
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        try {
          await hover.waitFor({ timeout: 5000 });
          break;
        } catch (error) {
          if (Date.now() > deadline) throw error;
          await page.mouse.move(10, 450);
        }
      }
      const text = (await hover.innerText()).replace(/\s+/g, ' ');
      log(`ui:   demo hover: ${text.slice(0, 400)}`);
      await shot('demo-hover');
      if (!text.includes('logprobs=True') || !text.includes(T.adviceAction)) throw new Error(`the hover does not say what to add, or which action adds it: ${text}`);
      if (lang !== 'en' && /\b(request|rollout needs|Nothing is reported|samples)\b/.test(text)) throw new Error(`English words in the ${lang} hover: ${text}`);
      const squiggles = await page.locator('.monaco-editor .squiggly-error, .monaco-editor .squiggly-warning, .monaco-editor .squiggly-info, .monaco-editor .squiggly-hint').count();
      if (squiggles !== 0) throw new Error(`the demo script shows ${squiggles} squiggle(s): a chat call outside rollout code is reported`);
      await page.mouse.move(10, 450);
      box = await createBox();
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.keyboard.press('Control+.');
      const item = page.locator('.action-widget .monaco-list-row', { hasText: T.adviceAction }).first();
      await item.waitFor({ timeout: STEP_TIMEOUT });
      await shot('demo-action-menu');
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+w');
    });

    if (command) {
      await step(`${T.pickTitle}: the pick shows at once (before the endpoint list), no row preselected, Enter alone probes nothing`, async () => {
        // an editor whose cursor is on no base URL (else the command tests that one)
        await openFile('.gitignore', '.env');
        const title = commandTitle(TEST_CONNECTION);
        await quickInput('Control+Shift+p', `>${title}`);
        await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: STEP_TIMEOUT });
        const pickTitle = page.locator('.quick-input-widget .quick-input-title', { hasText: T.pickTitle }).first();
        const started = Date.now();
        await page.keyboard.press('Enter');
        await pickTitle.waitFor({ timeout: STEP_TIMEOUT });
        const shownMs = Date.now() - started;
        log(`ui:   the pick was shown ${shownMs} ms after Enter`);
        await shot('connection-pick-loading');
        const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
        // The list renders only the rows in sight, the default row last: scroll (the wheel focuses no row) until it shows.
        const defaultRow = rows.filter({ hasText: T.pickDefault }).first();
        await rows.first().waitFor({ timeout: STEP_TIMEOUT });
        const listBox = await page.locator('.quick-input-widget .quick-input-list').first().boundingBox();
        for (let i = 0; i < 20 && listBox && !(await defaultRow.isVisible()); i++) {
          await page.mouse.move(listBox.x + listBox.width / 2, listBox.y + Math.min(listBox.height / 2, 100));
          await page.mouse.wheel(0, 400);
          await page.waitForTimeout(200);
        }
        await defaultRow.waitFor({ timeout: STEP_TIMEOUT });
        await page.waitForTimeout(300);
        const focused = await page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused').count();
        const labels = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
        log(`ui:   pick rows (${focused} focused): ${JSON.stringify(labels).slice(0, 500)}`);
        await shot('connection-pick');
        if (focused !== 0) throw new Error(`a row is preselected: ${focused} focused`);
        await page.keyboard.press('Enter');
        await page.waitForTimeout(1500);
        if (await page.locator('.notifications-toasts .notification-toast', { hasText: T.progress }).count()) throw new Error('Enter with no row chosen started a probe');
        if (!(await pickTitle.isVisible())) throw new Error('Enter with no row chosen closed the pick');
        await page.keyboard.press('Escape');
        // The target is 300 ms (issue 25; the pick took 5.3-5.7 s before). On a loaded 2-core machine the
        // palette-to-extension-host round trip alone varies (311-500 ms measured), so the step logs the time
        // and fails only an order of magnitude above it: a pick that waits for the server again would.
        if (shownMs > 2000) throw new Error(`the pick took ${shownMs} ms to appear (target 300 ms)`);
      });
    }

    if (!command) {
      skipped++;
      log(`ui: - command palette + notification (skipped: ${TEST_CONNECTION} is not in package.json contributes.commands yet)`);
    } else {
      const title = commandTitle(TEST_CONNECTION);
      await step(`command palette: ${title}`, async () => {
        const base = `http://127.0.0.1:${okServer.port}/v1`;
        await openFile(LOCAL_ENV, base);
        await quickInput('Control+Shift+p', `>${title}`);
        await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: STEP_TIMEOUT });
        await page.keyboard.press('Enter');
        // The result toast, not the progress toast ("Rollout Lint: testing <url>") shown while the probe runs.
        const toast = page.locator('.notifications-toasts .notification-toast', { hasText: `127.0.0.1:${okServer.port}`, hasNotText: T.progress }).first();
        await toast.waitFor({ timeout: STEP_TIMEOUT });
        const message = (await toast.innerText()).replace(/\s+/g, ' ');
        log(`ui:   notification: ${message}`);
        await shot('notification');
        if (!/\bok\b|log ?probs?/i.test(message)) throw new Error(`the notification does not report a working connection: ${message}`);
      });

      await step('language status: counts without hints, the connection item within its popup', async () => {
        await page.keyboard.press('Escape');
        const entry = page.locator('.statusbar-item[id*="languageStatus"], .statusbar-item[aria-label*="{ }"], .statusbar-item .codicon-json').first();
        await entry.click();
        const popup = page.locator('.monaco-hover:not(.hidden)', { hasText: T.detail }).first();
        await popup.waitFor({ timeout: STEP_TIMEOUT });
        const text = (await popup.innerText()).replace(/\s+/g, ' ');
        log(`ui:   language status: ${text}`);
        await shot('language-status');
        if (!text.includes(T.detail)) throw new Error(`the status does not say hints are left out: ${text}`);
        const again = popup.locator('a, .action-label', { hasText: T.again }).first();
        const [inner, outer] = [await again.boundingBox(), await popup.boundingBox()];
        if (!inner || !outer || inner.x + inner.width > outer.x + outer.width + 1) throw new Error(`"${T.again}" is cut off: ${JSON.stringify({ inner, outer })}`);
        await page.keyboard.press('Escape');
      });

      await step(`${commandTitle('rolloutLint.showReport')}: read-only, never asks to be saved`, async () => {
        await runCommand(commandTitle('rolloutLint.showReport'));
        const editor = page.locator('.monaco-editor .view-lines', { hasText: T.reportSetting }).first();
        await editor.waitFor({ timeout: STEP_TIMEOUT });
        const before = await editor.innerText();
        const report = before.replace(/\u00a0/g, ' ');
        for (const want of [T.verdict, T.consumer]) if (!report.includes(want)) throw new Error(`the report lacks "${want}": ${report.slice(0, 300)}`);
        const boxed = await page.locator('.monaco-editor .unicode-highlight').count();
        if (boxed) throw new Error(`${boxed} characters of the report are boxed as ambiguous`);
        if (lang !== 'en') {
          const english = report.replace(/https?:\/\/\S+/g, '').replace(/[\w.-]*[/.-][\w./-]*/g, '').replace(/（[^）]*）/g, '').replace(/\d{3} [A-Z][A-Za-z ]*/g, '').match(/\b[a-z]{3,}\b/gi)?.filter((w) => !['TaoToken', 'base', 'URL', 'logprobs', 'chat', 'GET', 'POST', 'SDK', 'OpenAI', 'API', 'qwen'].includes(w)) ?? [];
          if (english.length) throw new Error(`English words in the Chinese report: ${english.join(', ')}`);
        }
        await walkthroughShot('test-connection', page.locator('.monaco-workbench .part.editor'));
        await editor.click();
        await page.keyboard.type('xyz');
        await shot('report');
        if ((await editor.innerText()) !== before) throw new Error('the report accepted typing');
        await page.keyboard.press('Control+w');
        await page.waitForTimeout(500);
        if (await page.locator('.monaco-dialog-box').isVisible()) throw new Error('closing the report asks to save it');
      });

      await step('Output: version, server start and scan summary, never the key', async () => {
        await runCommand(commandTitle('rolloutLint.showOutput'));
        const output = page.locator('.part.panel .monaco-editor .view-lines').first();
        await output.waitFor({ timeout: STEP_TIMEOUT });
        // The channel scrolls to its end (the connection report): go to the top, where the start is logged.
        await page.locator('.part.panel .monaco-editor').first().click({ position: { x: 200, y: 10 }, force: true });
        await page.keyboard.press('Control+Home');
        await page.locator('.part.panel .monaco-editor .view-lines', { hasText: T.scan }).first().waitFor({ timeout: STEP_TIMEOUT });
        // Monaco renders spaces as U+00A0.
        const text = (await output.innerText()).replace(/\u00a0/g, ' ');
        await shot('output');
        if (lang !== 'en' && /workspace scan|env index|started \(Node|candidate files/.test(text)) throw new Error(`English server lines under ${lang}: ${text.slice(0, 400)}`);
        for (const want of ['rollout-lint-server', 'Rollout Lint 0.', T.scan]) if (!text.includes(want)) throw new Error(`the log lacks "${want}": ${text.slice(0, 400)}`);
        if (text.includes(LOCAL_KEY.slice(8)) || text.includes('sk-fixall-e2e-0000')) throw new Error('the log shows a key');
      });
    }

    await step(`${commandTitle('rolloutLint.fixAll')}: fixes the file and says how many`, async () => {
      await openFile(FIX_ALL_FILE, 'OPENAI_BASE_URL');
      await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: STEP_TIMEOUT });
      await runCommand(commandTitle('rolloutLint.fixAll'));
      await toast(T.fixed).waitFor({ timeout: STEP_TIMEOUT });
      await page.locator('.monaco-editor .view-lines', { hasText: 'https://api.openai.com/v1' }).first().waitFor({ timeout: STEP_TIMEOUT });
      await shot('fix-all');
    });

    await step('rolloutLint.rules is editable in the Settings editor', async () => {
      await runCommand('Preferences: Open Settings (UI)');
      // The search box has the focus when the Settings editor opens.
      await page.locator('.settings-editor').first().waitFor({ timeout: STEP_TIMEOUT });
      await page.waitForTimeout(500);
      await page.keyboard.type('rolloutLint.rules');
      const row = page.locator('.settings-editor .setting-item-contents', { hasText: 'Rollout Lint: Rules' }).first();
      await row.waitFor({ timeout: STEP_TIMEOUT });
      await shot('settings-rules');
      // An object setting VS Code can render gets a key/value table with "Add Item", not only "Edit in settings.json".
      const add = row.getByRole('button', { name: 'Add Item' }).first();
      await add.waitFor({ timeout: STEP_TIMEOUT });
      await add.click();
      // The new row offers the rule ids as keys and the levels as values (select boxes).
      await row.locator('.setting-list-edit-row, .monaco-select-box, select').first().waitFor({ timeout: STEP_TIMEOUT });
      await shot('settings-rules-add');
      // Escape leaves the new row, then the search box; the Settings editor (a modal here) closes last.
      for (let i = 0; i < 4 && (await page.locator('.settings-editor').first().isVisible()); i++) {
        await page.keyboard.press('Escape');
        await page.waitForTimeout(300);
      }
      if (await page.locator('.settings-editor').first().isVisible()) await page.keyboard.press('Control+w');
    });

    await step(`walkthrough: ${T.walkthrough}`, async () => {
      await runCommand('Welcome: Open Walkthrough...');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: T.walkthrough }).first().waitFor({ timeout: STEP_TIMEOUT });
      await page.keyboard.type(T.walkthrough);
      await page.keyboard.press('Enter');
      await page.locator('.gettingStartedContainer', { hasText: T.walkthrough }).first().waitFor({ timeout: STEP_TIMEOUT });
      await page.waitForTimeout(1000);
      await shot('walkthrough');
    });

    await step(`${commandTitle('rolloutLint.setApiKey')}: asks for the origin`, async () => {
      await runCommand(commandTitle('rolloutLint.setApiKey'));
      const widget = page.locator('.quick-input-widget').first();
      await widget.waitFor({ timeout: STEP_TIMEOUT });
      await page.waitForTimeout(300);
      await shot('set-api-key');
      await walkthroughShot('set-api-key', widget);
      await page.keyboard.press('Escape');
    });

    await step(`${commandTitle('rolloutLint.enableFixOnSave')}`, async () => {
      await runCommand(commandTitle('rolloutLint.enableFixOnSave'));
      const done = toast(T.fixOnSave);
      await done.waitFor({ timeout: STEP_TIMEOUT });
      await shot('fix-on-save');
      await walkthroughShot('fix-on-save', done);
    });
    await step('extension details page: the README, its images from https:// (the only ones the page loads)', async () => {
      await runCommand('Extensions: Show Installed Extensions');
      const item = page.locator('.extensions-viewlet .monaco-list-row', { hasText: manifest.displayName }).first();
      await item.waitFor({ timeout: STEP_TIMEOUT });
      await item.click();
      await page.locator('.extension-editor', { hasText: manifest.displayName }).first().waitFor({ timeout: STEP_TIMEOUT });
      // The README is a webview (an iframe in an iframe): find the frame that holds it. VS Code keeps only
      // http(s) image sources there (relative paths and data: URIs lose their src) and its CSP loads only https.
      let images = [];
      const deadline = Date.now() + STEP_TIMEOUT;
      for (;;) {
        images = [];
        for (const frame of page.frames()) {
          const found = await frame.evaluate(() => (document.querySelector('h1')?.textContent?.includes('Rollout Lint') ? [...document.images].map((i) => ({ src: i.getAttribute('src'), alt: i.alt, complete: i.complete, width: i.naturalWidth })) : [])).catch(() => []);
          images.push(...found);
        }
        if (images.length >= 3 || Date.now() > deadline) break;
        await page.waitForTimeout(500);
      }
      await page.waitForTimeout(500);
      await shot('extension-details');
      log(`ui:   details page images: ${JSON.stringify(images)}`);
      if (images.length < 3) throw new Error(`the details page shows ${images.length} README images`);
      const unusable = images.filter((i) => !/^https:\/\/\S+\/client\/media\/walkthrough\/[a-z-]+\.png$/.test(i.src ?? '') || !i.alt);
      if (unusable.length) throw new Error(`README images without an https:// source or an alt text (the page drops or cannot load them): ${JSON.stringify(unusable)}`);
      await page.keyboard.press('Control+w');
      await page.keyboard.press('Control+Shift+e');
    });
  } catch {
    fs.writeFileSync(path.join(outDir, 'ui-failure.html'), await page.content().catch(() => ''));
    if (consoleErrors.length) fs.writeFileSync(path.join(outDir, 'ui-page-errors.txt'), consoleErrors.join('\n'));
  } finally {
    await browser.close();
    await okServer?.close();
  }
  return { passed, failed: failures.length, skipped, failures };
}
