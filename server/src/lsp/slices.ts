/** The longest the server's background loops (index build, workspace scan) hold the event loop between two yields, ms. */
export const SLICE_MS = 25;

/**
 * A yield point for a background loop on the main thread: `await slice()` after each unit of work
 * yields to the event loop (`setImmediate`, so pending requests and notifications run first) once
 * `sliceMs` ms have passed since the last yield, and costs nothing otherwise. A request then waits
 * for at most about one slice plus one unit (one file, itself bounded by its budget).
 */
export function timeSlicer(sliceMs = SLICE_MS): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    last = performance.now();
  };
}
