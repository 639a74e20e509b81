import type { Range } from './model/types';

/**
 * A lookup of the items whose range (`rangeOf`, offsets with `end` exclusive or inclusive as the
 * caller reads them) overlaps a query range, inclusive at both ends (`a.start <= b.end && b.start <=
 * a.end`, the test fixes use). One sort, then per query a binary search and a walk back that stops
 * where no earlier range reaches far enough: for ranges that do not nest, a query costs O(log n + k)
 * instead of a scan of every item (a scan per finding made 85k-line files quadratic).
 * Results come in the items' original order.
 */
export function overlapping<T>(items: readonly T[], rangeOf: (item: T) => Range): (range: Range) => T[] {
  if (items.length === 0) return () => [];
  const order = items.map((_, i) => i).sort((a, b) => rangeOf(items[a]).start - rangeOf(items[b]).start || a - b);
  const starts = order.map((i) => rangeOf(items[i]).start);
  const reach: number[] = [];
  order.forEach((i, k) => reach.push(Math.max(k > 0 ? reach[k - 1] : -Infinity, rangeOf(items[i]).end)));
  return (range) => {
    let lo = 0;
    let hi = order.length - 1;
    let last = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] <= range.end) {
        last = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const hits: number[] = [];
    for (let k = last; k >= 0 && reach[k] >= range.start; k--) if (rangeOf(items[order[k]]).end >= range.start) hits.push(order[k]);
    return hits.sort((a, b) => a - b).map((i) => items[i]);
  };
}

/** Like `overlapping`, for the items whose range contains the query range (`start <= range.start && range.end <= end`), in original order. */
export function containing<T>(items: readonly T[], rangeOf: (item: T) => Range): (range: Range) => T[] {
  const candidates = overlapping(items, rangeOf);
  return (range) => candidates(range).filter((item) => rangeOf(item).start <= range.start && range.end <= rangeOf(item).end);
}

/**
 * The index of the last of `items` (sorted by `startOf`, ascending) that starts before offset `at`
 * (`startOf(item) < at`), or -1 when none does: a binary search.
 */
export function lastIndexBefore<T>(items: readonly T[], at: number, startOf: (item: T) => number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (startOf(items[mid]) < at) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
