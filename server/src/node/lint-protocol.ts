/** Messages between `OffloadedLinter` (main thread) and the lint worker (`lint-worker.ts`). */
import type { MessagePort } from 'node:worker_threads';
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
export type PortableLintOptions = Omit<LintOptions, 'grammars' | 'facts' | 'env' | 'reuse'>;

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
  job: number;
  method: keyof WorkspaceFacts | `env.${(typeof ENV_METHODS)[number]}`;
  args: unknown[];
}

/** The outcome without `resolution.byRole` (a function; rebuilt on the main thread). */
export type PortableOutcome = Omit<LintOutcome, 'resolution'> & { resolution: Omit<Resolution, 'byRole'> };

export type LintJobResult = { id: number; outcome: PortableOutcome; error?: undefined } | { id: number; error: string; outcome?: undefined };
