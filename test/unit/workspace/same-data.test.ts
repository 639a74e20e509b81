import assert from 'node:assert/strict';
import { sameData } from '../../../server/src/core/same-data';

/** `sameData` replaces a comparison of JSON copies: it must agree with JSON wherever key order does not matter. */
describe('sameData (plain-data equality without a JSON copy)', () => {
  const cases: [unknown, unknown, boolean][] = [
    [{ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, true],
    [{ a: 1, b: undefined }, { a: 1 }, true],
    [{ a: 1 }, { a: 1, b: null }, false],
    [{ a: [1, 2] }, { a: [2, 1] }, false],
    [{ a: [1, 2] }, { a: [1, 2, 3] }, false],
    [{ a: '1' }, { a: 1 }, false],
    [[], {}, false],
    [{}, [], false],
    [null, {}, false],
    [{ a: { b: { c: { d: 'deep' } } } }, { a: { b: { c: { d: 'deeper' } } } }, false],
    [{ a: { b: { c: { d: 'deep' } } } }, { a: { b: { c: { d: 'deep' } } } }, true],
    ['x', 'x', true],
    [0, -0, true],
  ];
  for (const [a, b, want] of cases) {
    it(`${JSON.stringify(a)} vs ${JSON.stringify(b)}: ${want}`, () => {
      assert.equal(sameData(a, b), want);
      assert.equal(sameData(b, a), want);
    });
  }

  it('agrees with comparing sorted-key JSON copies on random plain data', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const value = (depth: number): unknown => {
      const r = rand();
      if (depth > 3 || r < 0.3) return [null, true, 1, 'a', 'b', undefined][Math.floor(rand() * 6)];
      if (r < 0.6) return Array.from({ length: Math.floor(rand() * 3) }, () => value(depth + 1) ?? null);
      const o: Record<string, unknown> = {};
      for (const k of ['x', 'y', 'z']) if (rand() < 0.6) o[k] = value(depth + 1);
      return o;
    };
    const sorted = (v: unknown): string => JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x));
    let equalPairs = 0;
    for (let i = 0; i < 3000; i++) {
      const a = value(0);
      const b = rand() < 0.5 ? JSON.parse(JSON.stringify(a ?? null)) : value(0);
      const want = sorted(a ?? null) === sorted(b ?? null);
      if (want) equalPairs++;
      assert.equal(sameData(a ?? null, b ?? null), want, `${sorted(a)} vs ${sorted(b)}`);
    }
    assert.ok(equalPairs > 1000 && equalPairs < 3000, `both outcomes exercised (${equalPairs} equal)`);
  });
});
