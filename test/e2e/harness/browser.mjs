// Debian's headless Chromium driven by playwright-core (from the tools folder, not a project
// dependency: nothing here downloads a browser).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CHROMIUM } from './tools.mjs';

const require = createRequire(import.meta.url);

const ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--disable-crash-reporter',
  '--disable-breakpad',
];

/**
 * Launches Chromium with a throwaway profile inside `parentDir` (a session folder, removed with it).
 * @param {string} playwrightCore path of the playwright-core package
 * @param {string} parentDir
 * @param {{lang?: string}} [options] `lang`: the browser UI language (`navigator.language`)
 * @returns {Promise<{context, page, close(): Promise<void>}>}
 */
export async function launchBrowser(playwrightCore, parentDir, { lang } = {}) {
  const { chromium } = require(playwrightCore);
  const profile = fs.mkdtempSync(path.join(parentDir, 'chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: process.env.HEADFUL !== '1',
    viewport: { width: 1400, height: 900 },
    locale: lang,
    args: [...ARGS, ...(lang ? [`--lang=${lang}`] : [])],
    env: { ...process.env, HOME: profile, XDG_CONFIG_HOME: profile, XDG_CACHE_HOME: profile },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => {});
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
