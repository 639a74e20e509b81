// One code-server session: a throwaway folder (user data, extensions, XDG dirs, TMPDIR, a copy of the
// fixture workspace), the .vsix installed into it, and code-server on 127.0.0.1 in its own process
// group so that stopping it also ends the extension host, language server and file watcher.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { registerEmptyLanguagePack } from './locale-pack.mjs';
import { cleanEnv } from './tools.mjs';

const live = new Set();

/** Ends every session still running (process groups); safe to call more than once. */
export function stopAll() {
  for (const session of [...live]) session.stopSync();
}

/** Workbench settings: no welcome page, no telemetry or update checks, no AI side bar, no trust prompt. */
const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'files.autoSave': 'off',
};

/** A free TCP port on 127.0.0.1 (asked from the OS, then released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * A short temp folder: VS Code puts unix sockets (`vscode-ipc-<uuid>.sock`, 52 chars) in TMPDIR,
 * and socket paths must stay under 108 bytes.
 */
function shortTempDir(prefix) {
  const base = os.tmpdir().length <= 40 ? os.tmpdir() : '/tmp';
  return fs.mkdtempSync(path.join(base, prefix));
}

async function waitForHealth(url, child, logFile, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited (${child.exitCode}):\n${fs.readFileSync(logFile, 'utf8')}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`code-server did not answer ${url}/healthz within ${timeoutMs} ms:\n${fs.readFileSync(logFile, 'utf8')}`);
}

/**
 * Prepares a session folder, installs `vsix` and starts code-server.
 * @param {object} o
 * @param {{node: string, codeServer: string}} o.tools
 * @param {string} o.vsix the packaged extension (its folder becomes extensionPath)
 * @param {string} o.fixture workspace folder to copy
 * @param {boolean} o.smokeDriver `--vscode-option enable-smoke-test-driver` (needed for ?payload=; hides toasts)
 * @param {string} [o.locale] code-server `--locale`, with an empty language pack registered for it
 * @param {Record<string,string>} [o.env] extra environment (inherited by the extension host)
 * @returns {Promise<{url, workspace, extensionsDir, logFile, dir, extensionPath, stop(): Promise<void>, stopSync(): void}>}
 */
export async function startCodeServer({ tools, vsix, fixture, smokeDriver, locale, env: extraEnv = {}, log }) {
  const dir = shortTempDir('rle2e-');
  const sub = (name) => {
    const p = path.join(dir, name);
    fs.mkdirSync(p, { recursive: true });
    return p;
  };
  const userData = sub('user-data');
  const extensionsDir = sub('extensions');
  const workspace = sub('ws');
  fs.cpSync(fixture, workspace, { recursive: true });
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));
  if (locale) registerEmptyLanguagePack(userData, locale);
  const config = path.join(dir, 'config.yaml');
  fs.writeFileSync(config, 'auth: none\ncert: false\n');
  const env = cleanEnv({
    PATH: `${path.dirname(tools.node)}${path.delimiter}${process.env.PATH}`,
    XDG_CONFIG_HOME: sub('xdg/config'),
    XDG_DATA_HOME: sub('xdg/data'),
    XDG_CACHE_HOME: sub('xdg/cache'),
    TMPDIR: sub('tmp'),
    ...extraEnv,
  });
  const common = ['--config', config, '--user-data-dir', userData, '--extensions-dir', extensionsDir];
  const install = spawnSync(tools.codeServer, [...common, '--install-extension', vsix, '--force'], { env, encoding: 'utf8' });
  const extensionPath = fs.readdirSync(extensionsDir)
    .map((entry) => path.join(extensionsDir, entry))
    .find((p) => fs.existsSync(path.join(p, 'package.json')));
  if (install.status !== 0 || !extensionPath) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`--install-extension ${vsix} failed (exit ${install.status}):\n${install.stdout}\n${install.stderr}`);
  }

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = path.join(dir, 'code-server.log');
  const out = fs.openSync(logFile, 'w');
  const args = [
    ...common,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--reconnection-grace-time', '10',
    ...(smokeDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ...(locale ? ['--locale', locale] : []),
    workspace,
  ];
  const child = spawn(tools.codeServer, args, { env, detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  const session = {
    url,
    workspace,
    extensionsDir,
    extensionPath,
    logFile,
    dir,
    stopSync() {
      if (!live.has(session)) return;
      live.delete(session);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      try {
        fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      } catch {
        // a process of the group may still be writing; the folder is in the temp dir
      }
    },
    async stop({ keepDir = false } = {}) {
      if (!live.has(session)) return;
      live.delete(session);
      const alive = () => {
        try {
          process.kill(-child.pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
      if (alive()) process.kill(-child.pid, 'SIGKILL');
      if (!keepDir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  live.add(session);
  await waitForHealth(url, child, logFile, 60000);
  log?.(`code-server ${url} (pid ${child.pid}, ${smokeDriver ? 'smoke-test driver' : 'plain'}${locale ? `, --locale ${locale}` : ''}) on ${workspace}`);
  return session;
}
