import { spawnSync } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'server', 'dist', 'cli.js');

/**
 * A hostile repository in a temp folder: `files` (path → text, or `{fifo: true}`, or `{link: target}`),
 * with a `.git` folder unless `git` is false. `cleanup` removes it.
 */
export function hostileRepo(files: Record<string, string | { fifo: true } | { link: string }>, git = true): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'rollout-lint-hostile-'));
  if (git) mkdirSync(join(root, '.git'));
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    if (typeof content === 'string') writeFileSync(path, content);
    else if ('fifo' in content) execFileSync('mkfifo', [path]);
    else symlinkSync(content.link, path);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * Runs the built CLI bundle in a child process with a watchdog (a regression that blocks on a FIFO
 * would otherwise block the test process itself, where no mocha timeout can fire). `timedOut` is
 * true when the watchdog killed it.
 */
export function runBundle(cwd: string, args: string[], watchdogMs = 15_000): { code: number | null; out: string; err: string; timedOut: boolean } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: watchdogMs, env: { ...process.env, NO_COLOR: '1', CI: '' } });
  return { code: r.status, out: r.stdout ?? '', err: r.stderr ?? '', timedOut: r.error !== undefined || r.signal !== null };
}

/** Runs a TypeScript module body in a child (tsx) with a watchdog; resolves to its stdout parsed as JSON. */
export function runTsChild(body: string, watchdogMs = 15_000): unknown {
  const r = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '--eval', body], { cwd: ROOT, encoding: 'utf8', timeout: watchdogMs });
  if (r.error || r.signal) throw new Error(`child did not finish within ${watchdogMs} ms (${r.signal ?? r.error?.message})`);
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Whether this system can make FIFOs (Linux and macOS can). */
export function canMakeFifos(): boolean {
  try {
    execFileSync('mkfifo', ['--help'], { stdio: 'ignore' });
    return true;
  } catch {
    return process.platform !== 'win32';
  }
}
