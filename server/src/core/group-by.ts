/** `items` grouped by `keyOf`, each group in input order; groups in order of their first item. */
export function groupBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** The first of `items` for each key of `keyOf` (what the first `find` per key would return), in input order. */
export function firstBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K): Map<K, T> {
  const first = new Map<K, T>();
  for (const item of items) {
    const key = keyOf(item);
    if (!first.has(key)) first.set(key, item);
  }
  return first;
}
