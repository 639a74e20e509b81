/** The clock the debounce reads (milliseconds); tests pass a fake one. */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout | undefined),
};

/**
 * Bounds of the quiet time before an edited document is linted, ms: `min` after a lone edit of a
 * document that lints fast; `burst`, the longest wait after a lone edit and the shortest while edits
 * keep arriving inside the quiet time (typing, key repeat); `max`, the longest wait in a burst.
 */
export const QUIET_MS = { min: 40, burst: 120, max: 400 } as const;

/** Weight of the newest lint time in a document's running estimate (exponentially weighted mean). */
const LINT_WEIGHT = 0.5;

interface DocumentQuiet {
  /** `Clock.now()` of the last edit; absent until the first edit after opening. */
  lastEdit?: number;
  /** The quiet time the last edit asked for, ms. */
  quiet: number;
  /** Running estimate of how long this document's lint takes, ms (absent before its first lint). */
  lintMs?: number;
  /** The lint of the opening text is still to come: it is not counted (it also pays for cold caches, compiling grammars). */
  opening?: boolean;
  /** An edit is waiting for its lint (set by `edited`, cleared by `settled`). */
  awaiting?: boolean;
}

/**
 * The adaptive debounce of open documents (the quiet time after an edit before its lint), per document:
 * - the content a document is opened with is linted at once (0 ms): nobody is typing yet;
 * - after a lone edit, the quiet time is the document's recent lint time (engine and index pass, wall
 *   time), between `QUIET_MS.min` and `QUIET_MS.burst`: a document that lints in 10 ms shows its
 *   diagnostics 40 ms after the edit, and lints that take up to `burst` leave the main thread free at
 *   least half of the time whatever the typing rhythm;
 * - an edit that comes before the previous edit's lint is done (`settled`: the quiet time is still
 *   running, or the lint is) is part of a burst: the quiet time is then the longer of `QUIET_MS.burst`
 *   and the lint time, at most `QUIET_MS.max`, so typing is linted once it pauses, not per keystroke;
 *   keystrokes that queue up behind a slow lint make a burst too.
 * Edits restart the wait (the caller's timer), so one lint runs per pause whatever the number of edits.
 */
export class QuietTime {
  private readonly docs = new Map<string, DocumentQuiet>();

  constructor(private readonly clock: Clock = SYSTEM_CLOCK) {}

  /** `uri` was opened: the text it opens with is linted without waiting. */
  opened(uri: string): void {
    this.docs.set(uri, { quiet: 0, opening: true });
  }

  /** `uri` changed now (an open counts when `opened` came first): the quiet time to wait before linting it, ms. */
  edited(uri: string): number {
    const now = this.clock.now();
    let doc = this.docs.get(uri);
    if (!doc) this.docs.set(uri, (doc = { quiet: QUIET_MS.min }));
    else if (doc.lastEdit === undefined && doc.opening) {
      doc.lastEdit = now; // the opening text
      doc.awaiting = true;
      return 0;
    } else {
      const lint = doc.lintMs ?? 0;
      const burst = doc.awaiting === true;
      doc.quiet = burst ? Math.min(QUIET_MS.max, Math.max(QUIET_MS.burst, lint)) : Math.min(QUIET_MS.burst, Math.max(QUIET_MS.min, lint));
    }
    doc.lastEdit = now;
    doc.awaiting = true;
    return doc.quiet;
  }

  /** The current version of `uri` was linted (its diagnostics are out or answered): the next edit starts afresh. */
  settled(uri: string): void {
    const doc = this.docs.get(uri);
    if (doc) doc.awaiting = false;
  }

  /** Milliseconds until the quiet time after `uri`'s last edit is over (0 when it is, or without an edit). */
  remaining(uri: string): number {
    const doc = this.docs.get(uri);
    return doc?.lastEdit === undefined ? 0 : Math.max(0, doc.lastEdit + doc.quiet - this.clock.now());
  }

  /** A lint of `uri` took `ms` (engine time): the next quiet times follow it. */
  linted(uri: string, ms: number): void {
    const doc = this.docs.get(uri);
    if (doc?.opening) doc.opening = false;
    else if (doc) doc.lintMs = doc.lintMs === undefined ? ms : LINT_WEIGHT * ms + (1 - LINT_WEIGHT) * doc.lintMs;
  }

  /** `uri` was closed. */
  forget(uri: string): void {
    this.docs.delete(uri);
  }
}
