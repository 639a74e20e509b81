/** Messages between `OffloadedLinter` (main thread) and the lint worker (`lint-worker.ts`). */
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { Format } from '../core/model/types';
import type { WorkspaceFacts } from '../core/model/facts';
import type { LintOptions, LintOutcome } from '../core/lint';
import type { Resolution } from '../core/resolve/resolve';

/** The `EnvView` methods the worker calls back on the main thread (prefixed `env.`). */
export const ENV_METHODS = ['chain', 'readsElsewhere', 'reads', 'chainAt', 'readersOf'] as const;

/** `workerData` of a lint worker: the flag it waits on and the port its synchronous calls go through. */
export interface WorkerSetup {
  /** 4 bytes: an Int32 the main thread sets to 1 (and notifies) once a call's answer is posted. */
  flag: SharedArrayBuffer;
  calls: MessagePort;
}

/** The options of one job that cross the thread boundary (plain data: everything but grammars, facts and env). */
export type PortableLintOptions = Omit<LintOptions, 'grammars' | 'facts' | 'env' | 'reuse' | 'proveFixes'>;

export interface LintJob {
  id: number;
  input: { path: string; text: string; format?: Format };
  options: PortableLintOptions;
  /** Whether `facts` exist on the main thread (calls go there); `NO_FACTS` otherwise. */
  hasFacts: boolean;
  /** `EnvView.size` on the main thread; absent = no env view. */
  envSize?: number;
}

/** A synchronous call from the worker: a `WorkspaceFacts` or `env.`-prefixed `EnvView` method. */
export interface MainCall {
  /** Numbers the worker's calls (1, 2, …): the reply names it, so a reply that comes after its call timed out is dropped, never taken for the next call's. */
  call: number;
  job: number;
  method: keyof WorkspaceFacts | `env.${(typeof ENV_METHODS)[number]}`;
  args: unknown[];
}

/** The main thread's answer to `MainCall` number `call`. */
export interface MainReply {
  call: number;
  result?: unknown;
}

/**
 * Worker side: posts `call` on `port` and blocks this thread until the reply naming `call.call`
 * arrives or `timeoutMs` (wall milliseconds) pass; `undefined` then. Replies to other (earlier,
 * timed-out) calls are read and dropped. `flag` (Int32 at index 0) is set to 1 by `postReply`
 * after each reply; spurious wake-ups only loop.
 */
export function callSync(port: MessagePort, flag: Int32Array, call: MainCall, timeoutMs: number): { result: unknown } | undefined {
  const deadline = performance.now() + timeoutMs;
  Atomics.store(flag, 0, 0);
  port.postMessage(call);
  for (;;) {
    // Reset before reading: a reply posted after the reset sets the flag again, so the wait below cannot miss it.
    Atomics.store(flag, 0, 0);
    for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
      const reply = m.message as MainReply | undefined;
      if (reply?.call === call.call) return { result: reply.result };
    }
    const left = deadline - performance.now();
    if (left <= 0) return undefined;
    Atomics.wait(flag, 0, 0, left);
  }
}

/** Main side: answers `call` with `result` (structured-cloneable, else `undefined` is sent) and wakes the worker waiting in `callSync`. */
export function postReply(port: MessagePort | undefined, flag: Int32Array | undefined, call: MainCall, result: unknown): void {
  try {
    port?.postMessage({ call: call.call, result } satisfies MainReply);
  } catch {
    port?.postMessage({ call: call.call, result: undefined } satisfies MainReply);
  }
  if (flag) {
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  }
}

/** The outcome without `resolution.byRole` (a function; rebuilt on the main thread). */
export type PortableOutcome = Omit<LintOutcome, 'resolution'> & { resolution: Omit<Resolution, 'byRole'> };

export type LintJobResult = { id: number; outcome: PortableOutcome; error?: undefined } | { id: number; error: string; outcome?: undefined };
