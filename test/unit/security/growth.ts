import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
/** A full collection before each timed run, so garbage of the previous run is not billed to the next. */
const collect = runInNewContext('gc') as () => void;

/**
 * Milliseconds of wall-clock time of `work`, best of `runs`: a loaded machine only adds time. Not the
 * process's processor time: that also bills the collector's helper threads, which after a full
 * collection of a big heap (late in `npm test`) added a fixed cost to every sample and made an exact
 * quadratic loop measure 1.95× (the main thread's own processor time is `process.threadCpuUsage`,
 * Node 23.9 and later).
 */
export function wallCost(work: () => void, runs: number): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    collect();
    const started = process.hrtime.bigint();
    work();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
  }
  return best;
}

/**
 * How much the cost of `workAt(n)` grows when the input doubles: cost at 2N over cost at N, with a
 * floor of `floorMs` (default 5 ms) under the smaller so clock noise cannot decide. A linear phase is
 * about 2×, a quadratic one 4×; tests bound it at 3 (issue 29 item 7, issue 27 item 6). No timed
 * assertion, so CI speed does not matter, only its noise: both sizes run twice first (JIT and heap
 * growth are billed to neither), short work is repeated to about 20 ms, then best of five each, and the round is repeated (up to five,
 * the lowest kept) while over 3. One round on a shared CI machine measured 3.05× for a shape that
 * measures 1.8–2.0× alone (stop 31); noise only adds time, and a quadratic phase is 4× in every
 * round, so it still fails all five (the self-test in linearity.test.ts proves it).
 */
export function growth(workAt: (n: number) => () => void, n: number, floorMs = 5): number {
  const once = [workAt(n), workAt(2 * n)];
  for (let i = 0; i < 2; i++) once.forEach((work) => work());
  // Short work is repeated until the smaller size takes about 20 ms: the same factor on both sizes
  // leaves the ratio as it is and lifts it above the clock's and the collector's noise.
  const repeats = Math.min(50, Math.ceil(20 / Math.max(0.05, wallCost(once[0], 3))));
  const [small, large] = once.map((work) => () => {
    for (let i = 0; i < repeats; i++) work();
  });
  let best = Infinity;
  for (let round = 0; round < 5 && best > 3; round++) best = Math.min(best, wallCost(large, 5) / Math.max(floorMs, wallCost(small, 5)));
  if (process.env.GROWTH_DEBUG) console.log(`      growth ${best.toFixed(2)}× (×${repeats})`);
  return best;
}
