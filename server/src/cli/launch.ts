/**
 * The CLI's entry (`server/dist/cli.js`): loads the bundle `cli-main.js` beside it through a V8 code
 * cache, so a run does not compile the 3 MB bundle again (Node 20 has no `module.enableCompileCache`;
 * this is what Node 22's compile cache does). Only Node built-ins are used here, so this file stays small.
 *
 * The cache is `code-cache/<profile>-<location hash>-<hash>.bin` in the user's cache folder
 * (`$ROLLOUT_LINT_CACHE_DIR`, else `$XDG_CACHE_HOME/rollout-lint`, else `~/.cache/rollout-lint`, the
 * folder of the `/models` lists and the lint cache's signing key), never in a linted repository: V8's
 * code cache holds compiled code, so only a file the user owns and nobody else can write is read
 * (owner, mode, regular file, size). V8 itself rejects a cache of another V8 version, flags or source
 * length (`cachedDataRejected`), and `<hash>` covers the bundle's path, size, modification and change
 * times (ns), inode, the Node version, architecture and flags, so a rebuilt bundle never meets an old cache. `profile` is `lint` or the subcommand/flag that starts the run
 * (`--version`, `rules`, …): each kind of run keeps the functions it compiled. A missing or rejected
 * cache is written when the process exits (temporary file, then rename; errors ignored).
 * `ROLLOUT_LINT_NO_CODE_CACHE=1` turns it off. Any failure falls back to a plain `require`.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeFileSync, constants as fsConstants } from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { userCacheDir } from '../node/user-cache';

/** Largest code cache read (bytes); the bundle's is about 1 MB. */
const MAX_CODE_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Most code caches kept (about 1.7 MB each): one per kind of run and bundle location, so copies of the CLI in
 * many places (checkouts, CI workspaces, temporary installs) would otherwise add files for ever.
 */
const MAX_CODE_CACHES = 24;

/** Deletes the least recently written `.bin` files of `folder` beyond the newest `keep` (errors ignored, file by file). */
function pruneOldest(folder: string, keep: number): void {
  const caches = readdirSync(folder)
    .filter((name) => name.endsWith('.bin'))
    .flatMap((name) => {
      try {
        return [{ path: join(folder, name), written: statSync(join(folder, name)).mtimeMs }];
      } catch {
        return [];
      }
    })
    .sort((a, b) => b.written - a.written);
  for (const old of caches.slice(keep)) {
    try {
      unlinkSync(old.path);
    } catch {
      /* gone already */
    }
  }
}

/** What the bundle exports (server/src/cli/main.ts). */
interface CliMain {
  run(): void;
}

/** `lint`, or the subcommand / informational flag the arguments start with (they compile other functions). */
function profileOf(args: readonly string[]): string {
  const first = args[0];
  if (first === '--version' || first === '-V') return 'version';
  if (first === '--help' || first === '-h' || first === 'help') return 'help';
  if (first === 'rules' || first === 'explain' || first === 'ping' || first === 'endpoints') return first;
  return 'lint';
}

/** The cache's bytes when the file is a regular file of this user that no one else can write, else `undefined`. */
function readOwnCache(path: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0));
    const st = fstatSync(fd);
    const uid = process.getuid?.();
    if (!st.isFile() || st.size > MAX_CODE_CACHE_BYTES || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) return undefined;
    const bytes = Buffer.alloc(st.size);
    let at = 0;
    while (at < bytes.length) {
      const n = readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) return undefined;
      at += n;
    }
    return bytes;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Loads `cli-main.js` (beside this file) as a CommonJS module, through the code cache when there is one.
 * Returns its exports.
 */
function loadMain(): CliMain {
  const file = join(__dirname, 'cli-main.js');
  const base = process.env.ROLLOUT_LINT_NO_CODE_CACHE === '1' ? undefined : userCacheDir(process.env);
  if (!base) return require(file) as CliMain;
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return require(file) as CliMain;
  }
  if (source.startsWith('#!')) source = `//${source.slice(2)}`; // same length; a shebang is not JavaScript
  const folder = join(base, 'code-cache');
  // One cache per kind of run and bundle location (a global and a project install keep theirs).
  const prefix = `${profileOf(process.argv.slice(2))}-${createHash('sha256').update(file).digest('hex').slice(0, 8)}-`;
  // The bundle's identity without hashing 3 MB: its size, times (ns) and inode change with every build.
  let identity: string;
  try {
    const st = statSync(file, { bigint: true });
    identity = `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.dev}`;
  } catch {
    return require(file) as CliMain;
  }
  const digest = createHash('sha256').update(`${file}\0${identity}\0${source.length}\0${process.version}\0${process.arch}\0${process.execArgv.join(' ')}`).digest('hex').slice(0, 32);
  const cachePath = join(folder, `${prefix}${digest}.bin`);
  const cached = readOwnCache(cachePath);
  let script: Script;
  try {
    script = new Script(Module.wrap(source), { filename: file, cachedData: cached });
  } catch {
    return require(file) as CliMain;
  }
  if (!cached || script.cachedDataRejected) {
    process.once('exit', () => {
      try {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        const tmp = `${cachePath}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600, flag: 'wx' });
        renameSync(tmp, cachePath);
        // Caches of earlier builds of this bundle for this profile are of no use any more.
        for (const name of readdirSync(folder)) if (name.startsWith(prefix) && name.endsWith('.bin') && join(folder, name) !== cachePath) unlinkSync(join(folder, name));
        pruneOldest(folder, MAX_CODE_CACHES);
      } catch {
        /* no cache this time */
      }
    });
  }
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  const requireFrom = ((id: string) => mod.require(id)) as NodeJS.Require;
  requireFrom.main = require.main;
  requireFrom.cache = require.cache;
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  wrapper.call(mod.exports, mod.exports, requireFrom, mod, file, dirname(file));
  mod.loaded = true;
  return mod.exports as CliMain;
}

// V8 grows the heap after each full collection by up to 4× what survived; a whole-tree run allocates
// fast but keeps little (findings, the env index), so a 10,000-file run held 450–550 MB of RSS for
// about 50 MB live. 1.5× keeps it near 280 MB for the same processor time (issue 27, measured on
// OpenClaw-RL and a generated 10,000-file tree). Set before the bundle is compiled: V8's code cache
// carries a hash of the flags, and a flag changed after it was made would reject it on every run.
setFlagsFromString('--heap-growing-percent=50');

const main = loadMain();

/** Runs the CLI on the process arguments (the bin entry calls this; `node dist/cli.js` runs it itself). */
export function run(): void {
  main.run();
}

if (require.main === module) run();
