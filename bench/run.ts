/**
 * `npm run bench` (issue 16 item 4). Measures, side by side in one sitting:
 * - the CLI vs parse floors (b) walk + read + one trigger regex and (c) the same + the real parsers on
 *   the hits only (bench/floor.cjs), each as its own process, runs interleaved, over a git checkout copy
 *   of ../shared/real-repos/OpenClaw-RL (when present) and generated trees (fixed seed; 1k and 10k
 *   files, 50k with `--big`);
 * - secretlint (recommended preset) on the same checkout;
 * - the engine in-process per 1,000-line file of each format (warm), and adversarial Python shapes;
 * - the language server over stdio: cold start → first diagnostics, edit → diagnostics per format,
 *   RSS after 200 open files; yaml-language-server's edit → diagnostics on the same YAML.
 * Prints median / p95 / peak RSS per measurement and the issue's targets; `--json` prints
 * `{machine, results, targets}` instead (also written to bench/out/results.json).
 * Flags: --json, --markdown (the README's tables), --runs N (default 5, at least 5), --big (adds the 50k tree), --sizes 1000,10000,
 * --skip engine,trees,real,server,compare,hostile (real: the OpenClaw-RL checkout; hostile: issue 29's inputs, bench/hostile.ts), --no-install (do not install the comparison tools),
 * --secretlint-runs N (default 1: one secretlint run costs about 100 CLI runs; the ratio needs no more).
 * Comparison tools are installed on first use into bench/.tools with npm; when that fails the
 * comparison is skipped with a message. Timings are wall clock; nothing here is asserted. Tree runs use `--no-cache` except the cold/warm cache pair on OpenClaw-RL.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { lintDocument } from '../server/src/core/lint';
import { loadGrammars } from '../server/src/node/grammars';
import { QUIET_MS } from '../server/src/lsp/quiet';
import { documentOf, gitCommitAll, treeFiles, writeCheckout } from './generate';
import { LspSession } from './lsp';
import { FIVE_MB, FLAT, crossFileTree, plainEnv, type HostileInput } from './hostile';

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'server', 'dist', 'cli.js');
const SERVER = join(ROOT, 'server', 'dist', 'server.js');
const HOOK = join(__dirname, 'rss-hook.cjs');
const FLOOR = join(__dirname, 'floor.cjs');
const TOOLS = join(__dirname, '.tools');
const REAL = join(ROOT, '..', 'shared', 'real-repos', 'OpenClaw-RL');
/** Comparison tools, pinned (all run on Node 20). */
const TOOL_PACKAGES = ['secretlint@11.7.1', '@secretlint/secretlint-rule-preset-recommend@11.7.1', 'yaml-language-server@1.25.0'];

interface Args {
  json: boolean;
  markdown: boolean;
  runs: number;
  sizes: number[];
  skip: Set<string>;
  install: boolean;
  secretlintRuns: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { json: false, markdown: false, runs: 5, sizes: [1000, 10000], skip: new Set(), install: true, secretlintRuns: 1 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') args.json = true;
    else if (a === '--markdown') args.markdown = true;
    else if (a === '--big') args.sizes = [...new Set([...args.sizes, 50000])];
    else if (a === '--runs') args.runs = Math.max(5, Number(argv[++i]));
    else if (a === '--sizes') args.sizes = argv[++i].split(',').map(Number).filter((n) => n > 0);
    else if (a === '--skip') for (const s of argv[++i].split(',')) args.skip.add(s);
    else if (a === '--no-install') args.install = false;
    else if (a === '--secretlint-runs') args.secretlintRuns = Math.max(1, Number(argv[++i]));
    else throw new Error(`unknown argument ${a} (see the comment at the top of bench/run.ts)`);
  }
  return args;
}

/** Summary of repeated samples: median and p95 (nearest rank), and the peak RSS when measured. */
interface Stats {
  name: string;
  unit: 'ms';
  runs: number;
  median: number;
  p95: number;
  peakRssMiB?: number;
  note?: string;
}

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

function stats(name: string, ms: number[], rssKiB: number[] = [], note?: string): Stats {
  const round = (x: number) => Math.round(x * 10) / 10;
  return { name, unit: 'ms', runs: ms.length, median: round(quantile(ms, 0.5)), p95: round(quantile(ms, 0.95)), peakRssMiB: rssKiB.length ? round(Math.max(...rssKiB) / 1024) : undefined, note };
}

/** Runs `node -r rss-hook <args>` in `cwd` with stdout to a file; returns wall ms, peak RSS (KiB), processor ms (user + system) and stdout. */
function timeNode(args: string[], cwd: string): { ms: number; rssKiB: number; cpuMs: number; stdout: string } {
  const dir = mkdtempSync(join(tmpdir(), 'rl-bench-run-'));
  try {
    const rssFile = join(dir, 'rss');
    const outFile = join(dir, 'out');
    const fd = openSync(outFile, 'w');
    const t = performance.now();
    const r = spawnSync(process.execPath, ['-r', HOOK, ...args], { cwd, stdio: ['ignore', fd, 'pipe'], env: { ...process.env, BENCH_RSS_FILE: rssFile }, maxBuffer: 64 * 1024 * 1024 });
    const ms = performance.now() - t;
    closeSync(fd);
    if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 500)}`);
    const cpu = /"cpuMs":(\d+(?:\.\d+)?)/.exec(existsSync(`${rssFile}.cpu`) ? readFileSync(`${rssFile}.cpu`, 'utf8') : '');
    return { ms, rssKiB: Number(readFileSync(rssFile, 'utf8')), cpuMs: cpu ? Number(cpu[1]) : ms, stdout: readFileSync(outFile, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function countFindings(eslintJson: string): number {
  return (JSON.parse(eslintJson) as { messages: unknown[] }[]).reduce((n, f) => n + f.messages.length, 0);
}

/** The machine, for the README table and the JSON. */
function machine() {
  const c = cpus();
  return { cpu: c[0]?.model ?? 'unknown', cores: c.length, memGiB: Math.round(totalmem() / 2 ** 30), node: process.version, os: `${process.platform} ${release()}`, loadavg: loadavg().map((x) => Math.round(x * 100) / 100) };
}

/** Installs the comparison tools into bench/.tools once; returns false (with a message) when that fails. */
function tools(args: Args, log: (s: string) => void): boolean {
  const ok = () => existsSync(join(TOOLS, 'node_modules', 'secretlint')) && existsSync(join(TOOLS, 'node_modules', 'yaml-language-server'));
  if (ok()) return true;
  if (!args.install) {
    log('comparisons skipped: bench/.tools missing and --no-install given');
    return false;
  }
  log(`installing ${TOOL_PACKAGES.join(', ')} into bench/.tools …`);
  mkdirSync(TOOLS, { recursive: true });
  const r = spawnSync('npm', ['install', '--prefix', TOOLS, '--no-audit', '--no-fund', '--loglevel=error', ...TOOL_PACKAGES], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0 || !ok()) {
    log(`comparisons skipped: npm install failed (${(r.stderr ?? '').split('\n')[0]})`);
    return false;
  }
  return true;
}

/** A copy of OpenClaw-RL as its own git checkout (as ../shared/real-repos/README.md says to lint it). */
function realCheckout(): string | undefined {
  if (!existsSync(REAL)) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'rl-bench-openclaw-'));
  cpSync(REAL, dir, { recursive: true });
  execFileSync('chmod', ['-R', 'u+w', dir]);
  gitCommitAll(dir);
  return dir;
}

/**
 * The CLI's cache over `dir`: cold (an empty `--cache-location` each run: lint everything and write
 * the store) and warm (the store of the previous run, nothing changed), `runs` each, interleaved.
 * Both must print what `--no-cache` prints (the bench stops otherwise).
 */
function cacheBench(label: string, dir: string, runs: number): { rows: Stats[]; facts: Record<string, number> } {
  const args = [CLI, '.', '--format', 'json', '--exit-zero', '--include-hints'];
  const plain = timeNode([...args, '--no-cache'], dir).stdout;
  const warmDir = mkdtempSync(join(tmpdir(), 'rl-bench-cache-warm-'));
  const samples = { cold: { ms: [] as number[], rss: [] as number[], cpu: [] as number[] }, warm: { ms: [] as number[], rss: [] as number[], cpu: [] as number[] } };
  try {
    timeNode([...args, '--cache-location', warmDir], dir);
    for (let i = 0; i < runs; i++) {
      for (const which of i % 2 ? (['warm', 'cold'] as const) : (['cold', 'warm'] as const)) {
        const coldDir = which === 'cold' ? mkdtempSync(join(tmpdir(), 'rl-bench-cache-cold-')) : warmDir;
        try {
          const r = timeNode([...args, '--cache-location', coldDir], dir);
          if (r.stdout !== plain) throw new Error(`cache bench: the ${which}-cache run printed something else than --no-cache`);
          samples[which].ms.push(r.ms);
          samples[which].rss.push(r.rssKiB);
          samples[which].cpu.push(r.cpuMs);
        } finally {
          if (coldDir !== warmDir) rmSync(coldDir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    rmSync(warmDir, { recursive: true, force: true });
  }
  const cpu = (which: 'cold' | 'warm') => Math.round(quantile(samples[which].cpu, 0.5));
  const rows = [stats(`CLI, ${label}, cold cache (writes it)`, samples.cold.ms, samples.cold.rss, `CPU ${cpu('cold')} ms`), stats(`CLI, ${label}, warm cache (nothing changed)`, samples.warm.ms, samples.warm.rss, `CPU ${cpu('warm')} ms`)];
  return { rows, facts: { cold: rows[0].median, warm: rows[1].median, warmCpu: cpu('warm') } };
}

/** CLI vs floors (b) and (c), interleaved, `runs` each; secretlint on the same files when `secretlint` is set. */
function treeBench(label: string, dir: string, runs: number, secretlintRuns: number): { rows: Stats[]; facts: Record<string, number> } {
  const samples: Record<'cli' | 'b' | 'c', { ms: number[]; rss: number[] }> = { cli: { ms: [], rss: [] }, b: { ms: [], rss: [] }, c: { ms: [], rss: [] } };
  let findings = 0;
  let floor: { files: number; hits: number; bytes: number } = { files: 0, hits: 0, bytes: 0 };
  // One warm-up of each (page cache, wasm compile cache), then interleaved runs in rotating order.
  timeNode([CLI, '.', '--format', 'json', '--exit-zero', '--no-cache'], dir);
  timeNode([FLOOR, 'c', dir], dir);
  for (let i = 0; i < runs; i++) {
    const order: ('cli' | 'b' | 'c')[] = (['cli', 'b', 'c'] as const).map((_, k, xs) => xs[(k + i) % 3]);
    for (const which of order) {
      const r = which === 'cli' ? timeNode([CLI, '.', '--format', 'json', '--exit-zero', '--no-cache'], dir) : timeNode([FLOOR, which, dir], dir);
      samples[which].ms.push(r.ms);
      samples[which].rss.push(r.rssKiB);
      if (which === 'cli') findings = countFindings(r.stdout);
      else floor = JSON.parse(r.stdout);
    }
  }
  const rows = [
    stats(`CLI, ${label}`, samples.cli.ms, samples.cli.rss, `${findings} findings`),
    stats(`floor (b) walk+read+regex, ${label}`, samples.b.ms, samples.b.rss, `${floor.files} files, ${(floor.bytes / 1e6).toFixed(1)} MB`),
    stats(`floor (c) + parsers on hits, ${label}`, samples.c.ms, samples.c.rss, `${floor.hits} hits`),
  ];
  const facts: Record<string, number> = { cli: rows[0].median, b: rows[1].median, c: rows[2].median, cliRss: rows[0].peakRssMiB!, files: floor.files };
  if (secretlintRuns > 0) {
    const bin = join(TOOLS, 'node_modules', 'secretlint', 'bin', 'secretlint.js');
    const rc = '{"rules": [{"id": "@secretlint/secretlint-rule-preset-recommend"}]}';
    const ms: number[] = [];
    const rss: number[] = [];
    for (let i = 0; i < secretlintRuns; i++) {
      const r = timeNode([bin, '--secretlintrcJSON', rc, '--format', 'json', '**/*.{env,yaml,yml,json,jsonc,py,pyi,sh,bash}', '**/.env*'], dir);
      ms.push(r.ms);
      rss.push(r.rssKiB);
    }
    const row = stats(`secretlint (recommended preset), ${label}`, ms, rss, 'same files (by name)');
    rows.push(row);
    facts.secretlint = row.median;
  }
  return { rows, facts };
}

/**
 * Issue 27 item 1: the CLI on one named file in a big checkout (`rollout-lint .env`: its env index reads the
 * tree but extracts only what can matter to `.env`), start-up (`--version`) and one `.env` outside any
 * project; wall and processor time medians over `runs` after one warm-up each.
 */
function namedFileBench(dir: string, runs: number): { rows: Stats[]; facts: Record<string, number> } {
  writeFileSync(join(dir, '.env'), 'OPENAI_BASE_URL=https://taotoken.net/api/v1\nOPENAI_API_KEY=sk-test-0000000000000000000000000000\n');
  const lone = mkdtempSync(join(tmpdir(), 'rl-bench-lone-'));
  writeFileSync(join(lone, '.env'), 'OPENAI_BASE_URL=https://taotoken.net/api/v1/v1\n');
  try {
    const cases: [string, string[], string][] = [
      ['CLI .env (one named file), OpenClaw-RL', [CLI, '.env', '--format', 'json', '--exit-zero'], dir],
      ['CLI .env (one named file), OpenClaw-RL, --no-cache', [CLI, '.env', '--format', 'json', '--exit-zero', '--no-cache'], dir],
      ['CLI --version (start-up)', [CLI, '--version'], lone],
      ['CLI one .env outside a project', [CLI, '.env', '--format', 'json', '--exit-zero'], lone],
    ];
    const rows: Stats[] = [];
    const facts: Record<string, number> = {};
    for (const [name, args, cwd] of cases) {
      timeNode(args, cwd);
      const ms: number[] = [];
      const cpu: number[] = [];
      const rss: number[] = [];
      for (let i = 0; i < runs; i++) {
        const r = timeNode(args, cwd);
        ms.push(r.ms);
        cpu.push(r.cpuMs);
        rss.push(r.rssKiB);
      }
      const row = stats(name, ms, rss, `CPU median ${Math.round(quantile(cpu, 0.5))} ms`);
      rows.push(row);
      facts[name] = row.median;
      facts[`${name} CPU`] = quantile(cpu, 0.5);
    }
    return { rows, facts };
  } finally {
    rmSync(lone, { recursive: true, force: true });
    rmSync(join(dir, '.env'), { force: true });
  }
}

/** Engine per 1,000-line document, in-process, warm. */
async function engineBench(runs: number): Promise<{ rows: Stats[]; perFormat: Record<string, number> }> {
  const grammars = await loadGrammars();
  const rows: Stats[] = [];
  const perFormat: Record<string, number> = {};
  for (const format of ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml', 'notebook'] as const) {
    const { name, text } = documentOf(format);
    for (let i = 0; i < 3; i++) lintDocument({ path: name, text }, { grammars });
    const ms: number[] = [];
    let findings = 0;
    for (let i = 0; i < Math.max(runs, 20); i++) {
      const t = performance.now();
      findings = lintDocument({ path: name, text }, { grammars }).findings.length;
      ms.push(performance.now() - t);
    }
    const row = stats(`engine ${format}, 1,000 lines (in-process, warm)`, ms, [], `${text.split('\n').length - 1} lines, ${findings} findings`);
    rows.push(row);
    perFormat[format] = row.median;
    // The editor's path (issue 27 item 4): diagnostics without the fix proof, which runs only when a code action asks.
    const lazy: number[] = [];
    for (let i = 0; i < Math.max(runs, 20); i++) {
      const t = performance.now();
      lintDocument({ path: name, text }, { grammars, proveFixes: false });
      lazy.push(performance.now() - t);
    }
    rows.push(stats(`engine ${format}, 1,000 lines, diagnostics only (fix proof on demand)`, lazy));
  }
  // Adversarial shapes (issue 13 item 6): must stay linear per KB and inside the per-file budget.
  const adversarial: [string, string][] = [
    ['call chain f()()…', `OPENAI_BASE_URL = "x"\nx = f${'()'.repeat(50_000)}\n`],
    ['subscripts a[0][0]…', `OPENAI_BASE_URL = "x"\nx = a${'[0]'.repeat(33_000)}\n`],
    ['flat array', `OPENAI_BASE_URL = "x"\nx = [${'1, '.repeat(33_000)}]\n`],
  ];
  for (const [bench, text] of adversarial) {
    const ms: number[] = [];
    let skipped = false;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      skipped = lintDocument({ path: 'chain.py', text }, { grammars }).findings.some((f) => f.ruleId === 'skipped-file');
      ms.push(performance.now() - t);
    }
    rows.push(stats(`engine python ${bench} (${Math.round(text.length / 1000)} KB)`, ms, [], skipped ? 'skipped-file (budget)' : 'linted'));
  }
  return { rows, perFormat };
}

const LANGUAGE_IDS: Record<string, string> = { dotenv: 'dotenv', yaml: 'yaml', json: 'json', python: 'python', shell: 'shellscript' };

/** Server over stdio: cold start, edit → diagnostics per format, RSS after 200 open files; yaml-language-server on the same YAML. */
async function serverBench(runs: number, yamlLs: boolean): Promise<{ rows: Stats[]; facts: Record<string, number> }> {
  const rows: Stats[] = [];
  const facts: Record<string, number> = {};
  const ws = mkdtempSync(join(tmpdir(), 'rl-bench-lsp-'));
  try {
    // Cold start: a one-file workspace, spawn → initialize → didOpen → first diagnostics.
    const one = join(ws, 'one');
    mkdirSync(one);
    writeFileSync(join(one, '.env'), 'OPENAI_BASE_URL=https://taotoken.net/api/v1/v1\nOPENAI_API_KEY=sk-test-0000000000000000000000000000\n');
    const cold: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      const t = performance.now();
      const s = new LspSession(process.execPath, [SERVER, '--stdio'], one);
      await s.initialize(one);
      await s.open(join(one, '.env'), 'dotenv');
      if (i > 0) cold.push(performance.now() - t); // the first run warms the page cache
      await s.close();
    }
    if (process.env.BENCH_DEBUG) console.error('cold done');
    rows.push(stats('server cold start → first diagnostics (one-file workspace)', cold));
    facts.cold = rows[rows.length - 1].median;

    // Edit → diagnostics on 1,000-line documents.
    const docs = join(ws, 'docs');
    mkdirSync(docs);
    const s = new LspSession(process.execPath, [SERVER, '--stdio'], docs);
    await s.initialize(docs);
    const edits = Math.max(runs, 10);
    let editP50 = 0;
    for (const format of ['dotenv', 'yaml', 'json', 'python', 'shell'] as const) {
      const { name, text } = documentOf(format);
      const abs = join(docs, name);
      writeFileSync(abs, text);
      await s.open(abs, LANGUAGE_IDS[format], text);
      const ms: number[] = [];
      for (let i = 0; i < edits; i++) {
        const edited = format === 'json' ? text.replace('"p0"', `"p0x${i}"`) : `${text}\n${format === 'yaml' ? `extra_${i}: 1` : format === 'dotenv' ? `EXTRA_${i}=1` : `# edit ${i}`}\n`;
        const t = performance.now();
        await s.change(abs, edited);
        ms.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
      const row = stats(`server edit → diagnostics, ${format} 1,000 lines (adaptive debounce, ≥ ${QUIET_MS.min} ms)`, ms);
      rows.push(row);
      editP50 = Math.max(editP50, row.median);
      facts[`edit_${format}`] = row.median;
    }
    facts.editP50 = editP50;
    await s.close();

    // RSS after 200 open files of a generated tree.
    const tree = join(ws, 'tree');
    const files = treeFiles(1000).filter((f) => /\.(py|ya?ml|sh|json)$|\.env/.test(f.path)).slice(0, 200);
    writeCheckout(tree, files);
    const big = new LspSession(process.execPath, [SERVER, '--stdio'], tree);
    await big.initialize(tree);
    const language = (p: string) => (p.endsWith('.py') ? 'python' : p.endsWith('.sh') ? 'shellscript' : p.endsWith('.json') ? 'json' : /\.ya?ml$/.test(p) ? 'yaml' : 'dotenv');
    const t = performance.now();
    await Promise.all(files.map((f) => big.open(join(tree, f.path), language(f.path), f.text)));
    const openMs = performance.now() - t;
    await new Promise((r) => setTimeout(r, 500));
    const rss = big.rssMiB();
    rows.push({ ...stats('server: open 200 files → all diagnostics', [openMs]), peakRssMiB: Math.round(rss * 10) / 10, note: 'RSS after 200 open files' });
    facts.rss200 = rss;
    await big.close();

    // Main-thread responsiveness (issue 29 item 7): while the server indexes a 5,000-file workspace
    // and lints an open file, how long does a request wait for the event loop?
    const wide = join(ws, 'wide');
    writeCheckout(wide, treeFiles(5000));
    const busy = new LspSession(process.execPath, [SERVER, '--stdio'], wide);
    await busy.initialize(wide);
    const opened = treeFiles(5000).find((f) => f.path.endsWith('.env.example'))!;
    const trips = await busy.roundTrips(Promise.all([busy.open(join(wide, opened.path), 'dotenv', opened.text), new Promise((r) => setTimeout(r, 8000))]));
    const worst = Math.max(...trips);
    rows.push({ ...stats('server: request round trip while indexing 5,000 files (every 20 ms, 8 s)', trips), note: `worst ${Math.round(worst)} ms of ${trips.length}` });
    facts.mainThreadWorst = worst;
    await busy.close();

    if (yamlLs) {
      const bin = join(TOOLS, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server');
      const y = new LspSession(process.execPath, [bin, '--stdio'], docs);
      await y.initialize(docs);
      const { name, text } = documentOf('yaml');
      const abs = join(docs, `yls-${name}`);
      writeFileSync(abs, text);
      await y.open(abs, 'yaml', text);
      const ms: number[] = [];
      for (let i = 0; i < edits; i++) {
        const t0 = performance.now();
        await y.change(abs, `${text}\nextra_${i}: 1\n`);
        ms.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 20));
      }
      const row = stats('yaml-language-server edit → diagnostics, same YAML', ms);
      rows.push(row);
      facts.yamlLs = row.median;
      await y.close();
    }
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
  return { rows, facts };
}

interface Target {
  name: string;
  value: number | null;
  limit: number | null;
  unit: string;
  pass: boolean | null;
  note?: string;
}

function target(name: string, value: number | undefined, limit: number | null, unit: string, better: 'lower' | 'higher' | 'report', note?: string): Target {
  const v = value === undefined || Number.isNaN(value) ? null : Math.round(value * 100) / 100;
  const pass = v === null || limit === null || better === 'report' ? null : better === 'lower' ? v <= limit : v >= limit;
  return { name, value: v, limit, unit, pass, note: v === null ? note ?? 'not measured in this run' : note };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const log = (s: string) => (args.json ? process.stderr : process.stdout).write(`${s}\n`);
  const started = machine();
  const results: Stats[] = [];
  const targets: Target[] = [];
  const haveTools = !args.skip.has('compare') && tools(args, log);

  if (!args.skip.has('trees')) {
    const real = args.skip.has('real') ? undefined : realCheckout();
    if (real) {
      try {
        log('OpenClaw-RL checkout …');
        const { rows, facts } = treeBench('OpenClaw-RL', real, args.runs, haveTools ? args.secretlintRuns : 0);
        results.push(...rows);
        targets.push(target('CLI, whole OpenClaw-RL', facts.cli, 1000, 'ms', 'lower', `${facts.files} files`));
        targets.push(target('CLI ÷ floor (c), OpenClaw-RL', facts.cli / facts.c, 1.5, 'ratio', 'lower'));
        targets.push(target('CLI ÷ floor (b), OpenClaw-RL', facts.cli / facts.b, null, 'ratio', 'report'));
        log('OpenClaw-RL, cold and warm cache …');
        const cached = cacheBench('OpenClaw-RL', real, args.runs);
        results.push(...cached.rows);
        targets.push(target('CLI, whole OpenClaw-RL, cold cache ÷ --no-cache', cached.facts.cold / facts.cli, null, 'ratio', 'report'));
        targets.push(target('CLI, whole OpenClaw-RL, warm cache', cached.facts.warm, 300, 'ms', 'lower'));
        targets.push(target('CLI, whole OpenClaw-RL, warm cache (processor time)', cached.facts.warmCpu, 300, 'ms', 'lower'));
        targets.push(target('secretlint ÷ CLI, OpenClaw-RL', facts.secretlint / facts.cli, 100, 'ratio', 'higher', haveTools ? undefined : 'secretlint not installed'));
        log('OpenClaw-RL: one named file, start-up …');
        const named = namedFileBench(real, args.runs);
        results.push(...named.rows);
        const one = 'CLI .env (one named file), OpenClaw-RL';
        targets.push(target(one, named.facts[one], 500, 'ms', 'lower', `CPU ${Math.round(named.facts[`${one} CPU`])} ms`));
        targets.push(target(`${one} ÷ whole tree`, named.facts[one] / facts.cli, 0.1, 'ratio', 'lower'));
        // cache on, the runs above are second runs (the warm-up run kept the facts of the files the scope needs); the issue's target is a cold cache
        const cold = `${one}, --no-cache`;
        targets.push(target(cold, named.facts[cold], 500, 'ms', 'lower', `CPU ${Math.round(named.facts[`${cold} CPU`])} ms`));
        targets.push(target(`${cold} ÷ whole tree`, named.facts[cold] / facts.cli, 0.1, 'ratio', 'lower'));
        targets.push(target('CLI --version (start-up)', named.facts['CLI --version (start-up)'], null, 'ms', 'report', `CPU ${Math.round(named.facts['CLI --version (start-up) CPU'])} ms`));
      } finally {
        rmSync(real, { recursive: true, force: true });
      }
    } else {
      log(args.skip.has('real') ? 'OpenClaw-RL: skipped (--skip real)' : 'OpenClaw-RL: ../shared/real-repos/OpenClaw-RL not present, skipped');
      targets.push(target('CLI, whole OpenClaw-RL', undefined, 1000, 'ms', 'lower', args.skip.has('real') ? 'skipped' : '../shared/real-repos absent'));
    }
    const perFile: { size: number; ms: number }[] = [];
    for (const size of args.sizes) {
      const dir = mkdtempSync(join(tmpdir(), `rl-bench-gen${size}-`));
      try {
        log(`generated tree, ${size} files …`);
        writeCheckout(dir, treeFiles(size));
        const { rows, facts } = treeBench(`generated ${size} files`, dir, args.runs, 0);
        results.push(...rows);
        perFile.push({ size, ms: facts.cli / size });
        if (size === 50000) {
          targets.push(target('CLI, generated 50k files', facts.cli, 10000, 'ms', 'lower'));
          targets.push(target('CLI peak RSS, generated 50k files', facts.cliRss, 300, 'MiB', 'lower'));
        }
        targets.push(target(`CLI ÷ floor (c), generated ${size} files`, facts.cli / facts.c, 1.5, 'ratio', 'lower'));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    if (perFile.length >= 2) {
      const [a, b] = [perFile[perFile.length - 2], perFile[perFile.length - 1]];
      targets.push(target(`linear: ms per file at ${b.size} ÷ at ${a.size}`, b.ms / a.ms, 1.25, 'ratio', 'lower'));
    }
    if (!args.sizes.includes(50000)) targets.push(target('CLI, generated 50k files', undefined, 10000, 'ms', 'lower', 'run with --big'));
  }

  if (!args.skip.has('hostile')) {
    log('issue 29 / issue 27 inputs (one CLI run each, capped at 30 s) …');
    const [env10k, env20k] = [hostileRun(plainEnv(10000)), hostileRun(plainEnv(20000))];
    const [tree2500, tree5000] = [hostileRun(crossFileTree(2500)), hostileRun(crossFileTree(5000))];
    for (const r of [env10k, env20k, tree2500, tree5000]) results.push(r.row);
    targets.push(target('plain .env: 20,000 lines ÷ 10,000 lines (CPU)', env20k.cpuMs / env10k.cpuMs, 3, 'ratio', 'lower'));
    targets.push(target('cross-file tree: 5,000 files ÷ 2,500 (CPU)', tree5000.cpuMs / tree2500.cpuMs, 3, 'ratio', 'lower'));
    for (const input of FLAT) {
      const r = hostileRun(input);
      results.push(r.row);
      targets.push(target(`${input[0]}: wall`, r.killed ? undefined : r.row.median, 2000, 'ms', 'lower', r.killed ? 'killed at 30 s' : undefined));
      targets.push(target(`${input[0]}: skipped-file`, r.skipped ? 1 : 0, 0, 'count', 'lower'));
    }
    for (const input of FIVE_MB) {
      const r = hostileRun(input);
      results.push(r.row);
      const note = r.killed ? 'killed at 30 s' : r.skipped ? 'skipped-file' : 'linted';
      targets.push(target(`${input[0]}: wall`, r.killed ? undefined : r.row.median, 5000, 'ms', 'lower', note));
      targets.push(target(`${input[0]}: CPU`, r.killed ? undefined : r.cpuMs, 8000, 'ms', 'lower', note));
      targets.push(target(`${input[0]}: peak RSS`, r.row.peakRssMiB, 800, 'MiB', 'lower', note));
    }
  }

  if (!args.skip.has('engine')) {
    log('engine per format …');
    const { rows, perFormat } = await engineBench(args.runs);
    results.push(...rows);
    for (const [format, ms] of Object.entries(perFormat)) targets.push(target(`engine ${format} per 1,000-line file`, ms, 5, 'ms', 'lower'));
  }

  if (!args.skip.has('server')) {
    log('language server over stdio …');
    const { rows, facts } = await serverBench(args.runs, haveTools);
    results.push(...rows);
    targets.push(target('LSP edit → diagnostics p50 (worst format)', facts.editP50, 130, 'ms', 'lower'));
    targets.push(target('server cold start → first diagnostics', facts.cold, 250, 'ms', 'lower'));
    targets.push(target('server RSS after 200 open files', facts.rss200, 100, 'MiB', 'lower'));
    targets.push(target('server main thread: worst request wait while indexing 5,000 files', facts.mainThreadWorst, 200, 'ms', 'lower'));
    targets.push(target('yaml-language-server ÷ Rollout Lint, YAML edit p50', facts.yamlLs / facts.edit_yaml, 1, 'ratio', 'higher', haveTools ? undefined : 'yaml-language-server not installed'));
  }

  const out = { machine: { ...started, loadavgEnd: machine().loadavg }, results, targets };
  mkdirSync(join(__dirname, 'out'), { recursive: true });
  writeFileSync(join(__dirname, 'out', 'results.json'), `${JSON.stringify(out, null, 2)}\n`);
  if (args.json) {
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  if (args.markdown) {
    const m = started;
    log(`\nMachine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, Node ${m.node}, ${m.os}; load average ${m.loadavg[0]} at the start, ${out.machine.loadavgEnd[0]} at the end.\n`);
    log('| measurement | runs | median ms | p95 ms | peak RSS MiB | note |\n|---|---|---|---|---|---|');
    for (const r of results) log(`| ${r.name} | ${r.runs} | ${r.median} | ${r.p95} | ${r.peakRssMiB ?? ''} | ${r.note ?? ''} |`);
    log('\n| target | value | limit | unit | pass |\n|---|---|---|---|---|');
    for (const t of targets) log(`| ${t.name} | ${t.value ?? '—'} | ${t.limit ?? '—'} | ${t.unit} | ${t.pass === null ? (t.note ?? '—') : t.pass ? 'yes' : '**no**'} |`);
    return;
  }
  log(`\nmachine: ${started.cpu}, ${started.cores} cores, ${started.memGiB} GiB, Node ${started.node}, ${started.os}; load ${started.loadavg.join(' ')} → ${out.machine.loadavgEnd.join(' ')}`);
  console.table(results.map((r) => ({ bench: r.name, runs: r.runs, 'median ms': r.median, 'p95 ms': r.p95, 'peak RSS MiB': r.peakRssMiB ?? '', note: r.note ?? '' })));
  console.table(targets.map((t) => ({ target: t.name, value: t.value ?? '—', limit: t.limit ?? '—', unit: t.unit, pass: t.pass === null ? '—' : t.pass ? 'yes' : 'NO', note: t.note ?? '' })));
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);

/**
 * One CLI run over `input` written into a fresh git work tree: wall time, processor time and peak RSS
 * (from bench/rss-hook.cjs), whether a `skipped-file` was reported and whether the 30 s cap killed it or it crashed (`killed`).
 */
function hostileRun([name, files]: HostileInput): { row: Stats; cpuMs: number; skipped: boolean; killed: boolean } {
  const dir = mkdtempSync(join(tmpdir(), 'rl-bench-hostile-'));
  try {
    for (const [path, text] of files) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    gitCommitAll(dir);
    const rssFile = join(dir, '.rss');
    const t = performance.now();
    const child = spawnSync(process.execPath, ['-r', HOOK, CLI, '.', '--format', 'json', '--exit-zero', '--no-cache'], { cwd: dir, env: { ...process.env, BENCH_RSS_FILE: rssFile }, timeout: 30_000, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
    const ms = performance.now() - t;
    const killed = child.status === null;
    const rssKiB = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : NaN;
    const usage = /"cpuMs":(\d+(?:\.\d+)?)/.exec(existsSync(rssFile + '.cpu') ? readFileSync(rssFile + '.cpu', 'utf8') : '');
    const cpuMs = usage ? Number(usage[1]) : ms;
    const crashed = !killed && child.status !== 0 && child.status !== 1;
    const skipped = !killed && /"ruleId":\s*"skipped-file"/.test(child.stdout ?? '');
    const row = stats(`hostile: ${name}`, [ms], Number.isNaN(rssKiB) ? [] : [rssKiB], killed ? 'killed at 30 s' : crashed ? `exited ${child.status}` : skipped ? 'skipped-file' : `CPU ${Math.round(cpuMs)} ms`);
    return { row, cpuMs, skipped, killed: killed || crashed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
