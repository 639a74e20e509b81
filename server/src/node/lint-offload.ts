import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { skippedOutcome, type LintOptions, type LintOutcome } from '../core/lint';
import { DEFAULT_BUDGET } from '../core/budget';
import { rolesOf } from '../core/resolve/resolve';
import type { Format } from '../core/model/types';
import { postReply, type LintJob, type LintJobResult, type MainCall, type PortableLintOptions, type WorkerSetup } from './lint-protocol';
import { formatMessage, type Locale } from '../core/messages/locale';

/** The worker's log lines in each language (the job's `LintOptions.locale`); error texts inside stay as Node gives them. */
const WORKER_LOG: Record<Locale, Record<'memory' | 'time' | 'linting' | 'callFailed', string>> = {
  en: {
    memory: 'lint worker: {file} needed more than {mb} MB; skipped',
    time: 'lint worker: {file} ran past {ms} ms; stopped and skipped',
    linting: 'lint worker: linting {file} ({kb} KB)',
    callFailed: 'lint worker: {method} failed: {error}',
  },
  'zh-CN': {
    memory: 'lint 工作线程：{file} 需要超过 {mb} MB 内存，已跳过',
    time: 'lint 工作线程：{file} 超过 {ms} ms，已停止并跳过',
    linting: 'lint 工作线程：正在检查 {file}（{kb} KB）',
    callFailed: 'lint 工作线程：{method} 调用失败：{error}',
  },
};

function workerLog(locale: Locale | undefined, id: keyof (typeof WORKER_LOG)['en'], data: Record<string, string | number>): string {
  const lang = locale ?? 'en';
  return formatMessage((WORKER_LOG[lang] ?? WORKER_LOG.en)[id], data, lang);
}

/**
 * Documents of at least this many bytes (UTF-16 code units of the text, which is what parsing costs)
 * are linted in the worker thread; smaller ones on the calling thread, where a lint takes a few
 * milliseconds and a thread hop would cost more than it saves.
 */
export const OFFLOAD_CHARS = 256 * 1024;

/** Old-generation heap (MB) the worker may use; over it the worker is stopped and the file reported as skipped. */
export const WORKER_HEAP_MB = 1024;

/**
 * The wall-clock watchdog (ms) of one job: the budget's CPU time measures the whole process (Node 20
 * has no per-thread CPU clock), and a library parse without checkpoints (a multi-megabyte YAML
 * document) cannot be stopped from inside; past this the worker is terminated.
 */
export function watchdogMs(timeMs: number): number {
  return Math.max(2 * timeMs, timeMs + 5000);
}

/** The worker script: `lint-worker.js` beside the bundle, or the TypeScript source when running from source (tests). */
function workerScript(): { file: string; execArgv: string[] } | undefined {
  const bundled = join(__dirname, 'lint-worker.js');
  if (process.env.ROLLOUT_LINT_BUNDLED === '1' && existsSync(bundled)) return { file: bundled, execArgv: [] };
  const source = join(__dirname, 'lint-worker.ts');
  if (existsSync(source)) return { file: source, execArgv: ['--require', 'tsx/cjs'] };
  return existsSync(bundled) ? { file: bundled, execArgv: [] } : undefined;
}

interface Running {
  job: LintJob;
  options: LintOptions;
  done: (outcome: LintOutcome) => void;
  fail: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Lints documents in one worker thread, one at a time in call order (issue 13 item 6: the language
 * server keeps answering while a big file is parsed). The worker starts on first use and again after
 * it was stopped. A job over `watchdogMs` of wall time or `WORKER_HEAP_MB` of heap stops the worker
 * and resolves to a `skipped-file` outcome. `facts` and `env` of the options stay on this thread and
 * are called synchronously from the worker (their results must be structured-cloneable).
 * `lint` rejects only when the worker cannot run at all (no worker script, a crash that is not a
 * budget); callers then lint on their own thread.
 */
export class OffloadedLinter {
  private worker: Worker | undefined;
  private calls: MessagePort | undefined;
  private flag: Int32Array | undefined;
  private running: Running | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private disposed = false;

  private readonly log: (message: string) => void;
  private readonly heapMb: number;
  private readonly watchdog: (timeMs: number) => number;

  /** `log` gets one line per job and per stop (paths and sizes only, never text); `heapMb` and `watchdogMs` default to `WORKER_HEAP_MB` and `watchdogMs`. */
  constructor(options: { log?: (message: string) => void; heapMb?: number; watchdogMs?: (timeMs: number) => number } = {}) {
    this.log = options.log ?? (() => undefined);
    this.heapMb = options.heapMb ?? WORKER_HEAP_MB;
    this.watchdog = options.watchdogMs ?? watchdogMs;
  }

  /** Whether a worker script exists (the bundle ships `lint-worker.js`). */
  static available(): boolean {
    return workerScript() !== undefined;
  }

  /** `lintDocument(input, options)` in the worker; `options.grammars` and `options.reuse` are not used there. */
  lint(input: { path: string; text: string; format?: Format }, options: LintOptions): Promise<LintOutcome> {
    const run = this.queue.then(() => this.runJob(input, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Stops the worker; later calls reject. */
  dispose(): void {
    this.disposed = true;
    this.stop(new Error('the lint worker was disposed'));
  }

  /** The running worker, started if needed; `undefined` after telling `fail` why it cannot start. */
  private workerOr(fail: (error: Error) => void): Worker | undefined {
    try {
      return this.worker ?? this.start();
    } catch (error) {
      fail(error as Error);
      return undefined;
    }
  }

  private start(): Worker {
    const script = workerScript();
    if (!script) throw new Error('lint worker script not found (run "npm run build")');
    const flag = new SharedArrayBuffer(4);
    const channel = new MessageChannel();
    const setup: WorkerSetup = { flag, calls: channel.port2 };
    const worker = new Worker(script.file, { workerData: setup, transferList: [channel.port2], execArgv: script.execArgv, resourceLimits: { maxOldGenerationSizeMb: this.heapMb }, stdout: true, stderr: true });
    // The language server speaks LSP on its stdout: nothing the worker prints may reach it.
    worker.stdout.resume();
    worker.stderr.resume();
    worker.unref();
    this.flag = new Int32Array(flag);
    this.calls = channel.port1;
    this.calls.on('message', (call: MainCall) => this.answer(call));
    this.calls.unref();
    worker.on('message', (result: LintJobResult) => this.finish(result));
    worker.on('error', (error: Error & { code?: string }) => {
      if (this.worker !== worker) return;
      const running = this.running;
      this.stop(undefined);
      if (!running) return;
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        this.log(workerLog(running.options.locale, 'memory', { file: running.job.input.path, mb: this.heapMb }));
        running.done(skippedOutcome(running.job.input, running.options, `${this.heapMb} MB of memory`, 'memory'));
      } else running.fail(error);
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      const running = this.running;
      this.stop(undefined);
      running?.fail(new Error(`the lint worker exited (code ${code})`));
    });
    this.worker = worker;
    return worker;
  }

  /** Terminates the worker (if any); a job still running fails with `reason` or is left to the caller. */
  private stop(reason: Error | undefined): void {
    const worker = this.worker;
    const running = this.running;
    this.worker = undefined;
    this.running = undefined;
    this.calls?.close();
    this.calls = undefined;
    if (running) clearTimeout(running.timer);
    if (worker) void worker.terminate();
    if (reason) running?.fail(reason);
  }

  private runJob(input: { path: string; text: string; format?: Format }, options: LintOptions): Promise<LintOutcome> {
    if (this.disposed) return Promise.reject(new Error('the lint worker was disposed'));
    return new Promise<LintOutcome>((done, fail) => {
      const worker = this.workerOr(fail);
      if (!worker) return;
      // The worker proves fixes during the lint (`proveFixes` dropped): a held-back proof cannot cross the thread.
      const { grammars: _g, facts, env, reuse: _r, proveFixes: _p, ...rest } = options;
      const portable: PortableLintOptions = rest;
      const job: LintJob = { id: this.nextId++, input, options: portable, hasFacts: facts !== undefined, envSize: env?.size };
      const budget = options.budget ?? DEFAULT_BUDGET;
      const limit = this.watchdog(budget.timeMs);
      const timer = setTimeout(() => {
        if (this.running?.job.id !== job.id) return;
        this.log(workerLog(options.locale, 'time', { file: input.path, ms: limit }));
        const running = this.running;
        this.stop(undefined);
        // the finding names the limit the log names: the wall-clock watchdog that stopped the job
        running.done(skippedOutcome(input, options, `${limit} ms`, 'time'));
      }, limit);
      this.running = { job, options, done, fail, timer };
      this.log(workerLog(options.locale, 'linting', { file: input.path, kb: Math.round(input.text.length / 1024) }));
      try {
        worker.postMessage(job);
      } catch (error) {
        this.stop(error as Error);
      }
    });
  }

  private finish(result: LintJobResult): void {
    const running = this.running;
    if (!running || running.job.id !== result.id) return;
    clearTimeout(running.timer);
    this.running = undefined;
    if (result.error !== undefined) {
      running.fail(new Error(`lint worker: ${result.error}`));
      return;
    }
    running.done({ ...result.outcome, resolution: { ...result.outcome.resolution, byRole: rolesOf(result.outcome.resolution.settings) } });
  }

  /** Answers one synchronous call of the worker: posts the result, then wakes the worker. */
  private answer(call: MainCall): void {
    const running = this.running;
    let result: unknown;
    if (running && running.job.id === call.job) {
      try {
        if (call.method.startsWith('env.')) {
          const env = running.options.env as unknown as Record<string, (...args: unknown[]) => unknown> | undefined;
          result = env?.[call.method.slice(4)]?.(...call.args);
        } else {
          const facts = running.options.facts as unknown as Record<string, (...args: unknown[]) => unknown> | undefined;
          result = facts?.[call.method]?.(...call.args);
        }
      } catch (error) {
        this.log(workerLog(running.options.locale, 'callFailed', { method: call.method, error: (error as Error).message }));
        result = undefined;
      }
    }
    postReply(this.calls, this.flag, call, result);
  }
}
