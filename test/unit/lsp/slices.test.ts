import assert from 'node:assert/strict';
import { timeSlicer } from '../../../server/src/lsp/slices';

/** Spends about `ms` of the main thread. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* spin */
  }
}

describe('timeSlicer (background loops yield to requests)', () => {
  it('a request queued during a long loop runs before the loop ends, within about one slice', async () => {
    const started = performance.now();
    let answeredAt: number | undefined;
    let answeredAtUnit = -1;
    let unit = 0;
    setImmediate(() => {
      answeredAt = performance.now() - started;
      answeredAtUnit = unit;
    });
    const slice = timeSlicer(25);
    for (unit = 0; unit < 40; unit++) {
      busy(5);
      await slice();
    }
    assert.ok(answeredAt !== undefined);
    assert.ok(answeredAtUnit > 0 && answeredAtUnit < 40, `answered after unit ${answeredAtUnit} of 40`);
    assert.ok(answeredAtUnit <= 10, `a 25 ms slice of 5 ms units yields by unit 5 or so; was ${answeredAtUnit}`);
  });

  it('costs no turn of the event loop while the slice lasts', async () => {
    let turns = 0;
    const tick = () => {
      turns++;
    };
    const slice = timeSlicer(10_000);
    for (let i = 0; i < 100; i++) {
      setImmediate(tick);
      await slice();
    }
    assert.equal(turns, 0, 'no yield inside the slice');
    await new Promise((r) => setImmediate(r));
    assert.equal(turns, 100);
  });
});
