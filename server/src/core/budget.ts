/**
 * The work one file may cost (issue 13 item 6): a time budget and a syntax-node budget, checked at
 * points inside the extractors and between rules. When either runs out, `lintDocument` stops and
 * reports `skipped-file` with the reason instead of findings, so a 5 MB file of call chains cannot
 * freeze the editor or exhaust memory. Linting is synchronous: one budget is active at a time.
 */
export interface LintBudget {
  /**
   * Processor time for one file, in milliseconds (default `DEFAULT_BUDGET.timeMs`): the thread's CPU
   * time where the host exposes it (Node's `process.cpuUsage`), so a busy machine does not skip files;
   * wall time elsewhere.
   */
  timeMs: number;
  /** Syntax nodes (tree-sitter nodes, YAML/JSON nodes) one file may have (default `DEFAULT_BUDGET.maxNodes`). */
  maxNodes: number;
}

/** 5 s and 2 million nodes: about 40 times what a 1 MB file of dense Python needs. */
export const DEFAULT_BUDGET: LintBudget = { timeMs: 5000, maxNodes: 2_000_000 };

/** Thrown at a checkpoint when the active budget is spent; `reason` is `time` or `nodes`. */
export class BudgetExceeded extends Error {
  /**
   * @param limit what was over, when a size check before a parse stands in for the node budget
   *   (`50000 .env lines`); the skipped-file message names it instead of the node budget.
   */
  constructor(
    readonly reason: 'time' | 'nodes',
    readonly limit?: string,
  ) {
    super(`lint budget exceeded (${limit ?? reason})`);
    this.name = 'BudgetExceeded';
  }
}

let active: { deadline: number; nodesLeft: number; ticks: number } | undefined;

/** The processor clock is read at most once per this many wall-clock milliseconds (one read is a `getrusage` system call). */
const CLOCK_EVERY_MS = 10;

const cpu = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process?.cpuUsage;

let sample = { wall: -Infinity, cpu: 0 };

/**
 * Milliseconds of processor time used so far (wall-clock milliseconds where CPU time is unknown).
 * A reading is reused for `CLOCK_EVERY_MS` of wall time: one is a `getrusage` system call, ~100 µs
 * on a loaded VM, and the CLI starts a budget per file (OpenClaw-RL: 6,000 of them).
 */
function clock(): number {
  if (!cpu) return Date.now();
  const now = performance.now();
  if (now - sample.wall >= CLOCK_EVERY_MS) {
    const { user, system } = cpu();
    sample = { wall: now, cpu: (user + system) / 1000 };
  }
  return sample.cpu;
}

/**
 * What one file has spent of its budget in an earlier phase (the CLI's index pass before its lint), so
 * every phase of a file shares one budget (issue 29 item 7): processor milliseconds, syntax nodes,
 * and the reason when that phase already ran out.
 */
export interface BudgetSpent {
  timeMs: number;
  nodes: number;
  exceeded?: 'time' | 'nodes';
  /** `BudgetExceeded.limit` of the phase that went over, when it named one. */
  limit?: string;
}

/**
 * Runs `work` under `budget`, less what `spent` says earlier phases of the same file used; nested
 * calls keep the outer budget. With `record`, what the budget holds as spent afterwards (earlier
 * phases included) is written into it, also when `work` throws.
 */
export function withBudget<T>(budget: LintBudget, work: () => T, spent?: BudgetSpent, record?: BudgetSpent): T {
  if (active) return work();
  const started = clock();
  const carried = { timeMs: spent?.timeMs ?? 0, nodes: spent?.nodes ?? 0 };
  active = { deadline: started + budget.timeMs - carried.timeMs, nodesLeft: budget.maxNodes - carried.nodes, ticks: 0 };
  try {
    return work();
  } catch (error) {
    if (record && error instanceof BudgetExceeded) {
      record.exceeded = error.reason;
      if (error.limit) record.limit = error.limit;
    }
    throw error;
  } finally {
    if (record) {
      record.timeMs = carried.timeMs + (clock() - started);
      record.nodes = budget.maxNodes - active.nodesLeft;
    }
    active = undefined;
  }
}

/**
 * A checkpoint: counts `nodes` against the node budget and, every 256 calls (or when `force`), looks
 * at the clock (a reading at most 10 ms old). Throws `BudgetExceeded`; does nothing outside `withBudget`.
 */
export function spend(nodes = 1, force = false): void {
  if (!active) return;
  active.nodesLeft -= nodes;
  if (active.nodesLeft < 0) throw new BudgetExceeded('nodes');
  if ((++active.ticks & 255) === 0 || force) {
    if (clock() >= active.deadline) throw new BudgetExceeded('time');
  }
}
