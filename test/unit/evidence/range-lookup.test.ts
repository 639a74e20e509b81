import assert from 'node:assert/strict';
import { lastIndexBefore } from '../../../server/src/core/range-lookup';

describe('lastIndexBefore (binary search over items sorted by start)', () => {
  it('gives the index a scan from the end would give, on every offset around every start', () => {
    for (const starts of [[], [5], [0, 0, 3, 3, 3, 9], [1, 2, 4, 8, 16, 32, 64]]) {
      for (let at = -1; at <= 70; at++) {
        let scan = -1;
        starts.forEach((s, i) => {
          if (s < at) scan = i;
        });
        assert.equal(lastIndexBefore(starts, at, (s) => s), scan, `[${starts}] at ${at}`);
      }
    }
  });
});
