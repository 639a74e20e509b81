/**
 * fast-check run parameters: a fixed seed and a bounded number of runs in `npm test`; `npm run fuzz`
 * sets ROLLOUT_LINT_FUZZ_RUNS (and a fresh seed unless ROLLOUT_LINT_FUZZ_SEED is given) for long runs.
 * The seed in use is part of every failure report fast-check prints, so a failure can be replayed.
 */
export function fuzzParameters(runs: number): { seed: number; numRuns: number; endOnFailure: boolean } {
  const long = Number(process.env.ROLLOUT_LINT_FUZZ_RUNS ?? '');
  const seed = process.env.ROLLOUT_LINT_FUZZ_SEED ? Number(process.env.ROLLOUT_LINT_FUZZ_SEED) : long > 0 ? Date.now() % 2 ** 31 : 13;
  return { seed, numRuns: long > 0 ? Math.max(runs, long) : runs, endOnFailure: true };
}

/** True in `npm run fuzz` (long runs). */
export const LONG_FUZZ = Number(process.env.ROLLOUT_LINT_FUZZ_RUNS ?? '') > 0;
