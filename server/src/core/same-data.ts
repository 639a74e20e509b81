/**
 * Whether two plain-data values (what `JSON.stringify` would write: objects, arrays, strings,
 * finite numbers, booleans, null) hold the same data. Object keys compare as sets, and a key whose
 * value is `undefined` counts as absent, as in JSON. Used where a change check once kept a JSON copy
 * of every value (`EnvIndex.set`): this keeps no copy. Functions, symbols, Maps and class instances
 * are not plain data and are not expected (they compare by identity).
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let defined = 0;
  for (const k in x) {
    if (!Object.prototype.hasOwnProperty.call(x, k) || x[k] === undefined) continue;
    defined++;
    if (!Object.prototype.hasOwnProperty.call(y, k) || !sameData(x[k], y[k])) return false;
  }
  for (const k in y) if (Object.prototype.hasOwnProperty.call(y, k) && y[k] !== undefined) defined--;
  return defined === 0;
}
