/**
 * The lint worker thread (bundled as `dist/lint-worker.js`; started by `OffloadedLinter`). It runs
 * `lintDocument` for big documents off the language server's request thread (issue 13 item 6), so
 * hovers, completions and other documents keep being answered while a multi-megabyte file is parsed.
 * The workspace facts and the env index stay on the main thread: the worker asks for them with
 * synchronous calls (`callMain`), which block this thread only, never the server's.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { WorkspaceFacts } from '../core/model/facts';
import type { ClientPin } from '../core/workspace/client-pins';
import { lintDocument, type LintOptions } from '../core/lint';
import type { EnvView } from '../core/workspace/env-index';
import { loadGrammars } from './grammars';
import { callSync, ENV_METHODS, type LintJob, type LintJobResult, type MainCall, type WorkerSetup } from './lint-protocol';

const setup = workerData as WorkerSetup;
const flag = new Int32Array(setup.flag);
const calls: MessagePort = setup.calls;

/** How long one synchronous call may wait for the main thread (ms); then it counts as unanswered. */
const CALL_TIMEOUT_MS = 30_000;

/** The number of the last call made (`MainCall.call`). */
let lastCall = 0;

/** Calls `method` on the main thread and waits for its answer; `undefined` when none came in time (a late answer is dropped). */
function callMain(job: number, method: MainCall['method'], args: unknown[]): unknown {
  return callSync(calls, flag, { call: ++lastCall, job, method, args }, CALL_TIMEOUT_MS)?.result;
}

function remoteFacts(job: number): WorkspaceFacts {
  return {
    gitState: (path) => (callMain(job, 'gitState', [path]) as ReturnType<WorkspaceFacts['gitState']> | undefined) ?? 'unknown',
    siblingEnv: (path) => (callMain(job, 'siblingEnv', [path]) as ReturnType<WorkspaceFacts['siblingEnv']> | undefined) ?? {},
    envFile: (path, file) => callMain(job, 'envFile', [path, file]) as ReturnType<WorkspaceFacts['envFile']>,
    clientPins: (path) => (callMain(job, 'clientPins', [path]) as ClientPin[] | undefined) ?? [],
  };
}

function remoteEnv(job: number, size: number): EnvView {
  const view = { size } as { -readonly [K in keyof EnvView]: EnvView[K] };
  for (const m of ENV_METHODS) (view as unknown as Record<string, unknown>)[m] = (...args: unknown[]) => (callMain(job, `env.${m}`, args) as unknown[] | undefined) ?? [];
  return view;
}

parentPort!.on('message', async (job: LintJob) => {
  let result: LintJobResult;
  try {
    const grammars = await loadGrammars();
    const options: LintOptions = {
      ...job.options,
      grammars,
      facts: job.hasFacts ? remoteFacts(job.id) : undefined,
      env: job.envSize === undefined ? undefined : remoteEnv(job.id, job.envSize),
    };
    const outcome = lintDocument(job.input, options);
    const { byRole: _byRole, ...resolution } = outcome.resolution;
    result = { id: job.id, outcome: { ...outcome, resolution } };
  } catch (error) {
    result = { id: job.id, error: (error as Error).stack ?? String(error) };
  }
  parentPort!.postMessage(result);
});
