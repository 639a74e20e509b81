import assert from 'node:assert/strict';
import type { Connection, TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_CONFIG } from '../../../server/src/core/config/config';
import { DocText } from '../../../server/src/lsp/convert';
import { Diagnostics } from '../../../server/src/lsp/diagnostics';
import type { DocumentLint, LintService } from '../../../server/src/lsp/lint-service';
import { QUIET_MS, QuietTime, type Clock } from '../../../server/src/lsp/quiet';
import type { ScanDeps } from '../../../server/src/lsp/workspace-scan';

/** A clock that moves only when told: timers fire in order of their due time as `advance` passes it. */
class FakeClock implements Clock {
  private time = 0;
  private seq = 0;
  private readonly timers = new Map<number, { due: number; run: () => void }>();
  now(): number {
    return this.time;
  }
  setTimeout(run: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.set(id, { due: this.time + ms, run });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  /** Time passes while the thread is busy (a lint): timers falling due meanwhile fire late, in order. */
  block(ms: number): void {
    this.time += ms;
  }
  /** Moves time forward by `ms`, firing each timer that falls due (and the microtasks it queues). */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const next = [...this.timers].filter(([, t]) => t.due <= end).sort((a, b) => a[1].due - b[1].due || a[0] - b[0])[0];
      if (!next) break;
      this.timers.delete(next[0]);
      this.time = Math.max(this.time, next[1].due);
      next[1].run();
      for (let i = 0; i < 10; i++) await Promise.resolve();
    }
    this.time = Math.max(this.time, end);
  }
}

describe('LSP: adaptive quiet time before a lint (fake clock)', () => {
  it('the opening text waits for nothing; a lone edit waits for the lint time, within [min, burst]', () => {
    const clock = new FakeClock();
    const quiet = new QuietTime(clock);
    quiet.opened('a');
    assert.equal(quiet.edited('a'), 0);
    quiet.linted('a', 900); // the opening lint (cold caches) is not counted
    quiet.settled('a');
    void clock.advance(1000);
    assert.equal(quiet.edited('a'), QUIET_MS.min, 'no lint time known yet');
    quiet.linted('a', 10);
    quiet.settled('a');
    void clock.advance(1000);
    assert.equal(quiet.edited('a'), QUIET_MS.min, 'a fast lint');
    quiet.linted('a', 90);
    quiet.settled('a');
    void clock.advance(1000);
    assert.equal(quiet.edited('a'), 50, 'the running estimate of 10 and 90 ms');
    quiet.linted('a', 1000);
    quiet.linted('a', 1000);
    quiet.settled('a');
    void clock.advance(1000);
    assert.equal(quiet.edited('a'), QUIET_MS.burst, 'a lone edit never waits longer than the burst time');
  });

  it('an edit before the last one was linted is a burst: at least the burst time, the lint time when longer, at most max', async () => {
    const clock = new FakeClock();
    const quiet = new QuietTime(clock);
    assert.equal(quiet.edited('a'), QUIET_MS.min);
    await clock.advance(10);
    assert.equal(quiet.edited('a'), QUIET_MS.burst);
    assert.equal(quiet.remaining('a'), QUIET_MS.burst);
    await clock.advance(QUIET_MS.burst);
    assert.equal(quiet.remaining('a'), 0);
    quiet.linted('a', 300);
    quiet.settled('a');
    await clock.advance(1000);
    assert.equal(quiet.edited('a'), QUIET_MS.burst);
    await clock.advance(50);
    assert.equal(quiet.edited('a'), 300);
    quiet.linted('a', 5000);
    await clock.advance(10);
    assert.equal(quiet.edited('a'), QUIET_MS.max);
    quiet.forget('a');
    assert.equal(quiet.remaining('a'), 0);
  });

  describe('push diagnostics', () => {
    let clock: FakeClock;
    let documents: Map<string, TextDocument>;
    let lintRuns: number;
    let lintMs: number;
    let published: { uri: string; version?: number }[];
    let diagnostics: Diagnostics;
    const uri = 'file:///w/.env';

    beforeEach(() => {
      clock = new FakeClock();
      documents = new Map();
      lintRuns = 0;
      lintMs = 5;
      published = [];
      const cache = new Map<string, DocumentLint>();
      const lints = {
        lint: async (document: TextDocument): Promise<DocumentLint> => {
          const key = `${document.uri}@${document.version}`;
          const cached = cache.get(key);
          if (cached) return cached;
          lintRuns++;
          clock.block(lintMs);
          diagnostics.linted(document.uri, lintMs);
          const lint: DocumentLint = { uri: document.uri, version: document.version, generation: 0, doc: new DocText(document.getText()), location: { facts: undefined } as unknown as DocumentLint['location'], config: { enabled: true, config: DEFAULT_CONFIG }, findings: [] };
          cache.set(key, lint);
          return lint;
        },
        forget: () => undefined,
      } as unknown as LintService;
      const connection = { sendDiagnostics: async (p: { uri: string; version?: number }) => void published.push({ uri: p.uri, version: p.version }) } as unknown as Connection;
      const docs = { get: (u: string) => documents.get(u), all: () => [...documents.values()] } as unknown as TextDocuments<TextDocument>;
      diagnostics = new Diagnostics(connection, docs, lints, {} as ScanDeps, false, { refreshSupport: false, workDoneProgress: false }, clock);
    });

    const open = (text: string) => {
      documents.set(uri, TextDocument.create(uri, 'dotenv', 1, text));
      diagnostics.opened(uri);
      diagnostics.touched(uri);
    };
    const edit = (text: string) => {
      const doc = documents.get(uri)!;
      documents.set(uri, TextDocument.create(uri, 'dotenv', doc.version + 1, text));
      diagnostics.touched(uri);
    };

    it('publishes the opening text at once and a lone edit after the minimum quiet time', async () => {
      open('A=1\n');
      await clock.advance(0);
      assert.deepEqual(published, [{ uri, version: 1 }]);
      await clock.advance(1000);
      edit('A=2\n');
      await clock.advance(QUIET_MS.min - 1);
      assert.equal(published.length, 1, 'linted before the quiet time passed');
      await clock.advance(1);
      assert.deepEqual(published[1], { uri, version: 2 });
    });

    it('typing (an edit every 30 ms for 3 s) is linted once, after it stops, for the last version', async () => {
      open('A=1\n');
      await clock.advance(1000);
      const before = lintRuns;
      for (let i = 0; i < 100; i++) {
        edit(`A=${i}\n`);
        await clock.advance(30);
      }
      assert.equal(lintRuns, before, 'a lint ran while the edits kept coming');
      await clock.advance(QUIET_MS.max);
      assert.equal(lintRuns, before + 1);
      assert.equal(published[published.length - 1].version, 101);
    });

    it('a document whose lint is slow (400 ms, blocking) is not linted per keystroke at a typing pace (an edit every 150 ms)', async () => {
      open('A=1\n');
      await clock.advance(1000);
      lintMs = 400; // the lints from now on block the thread for 400 ms
      edit('A=2\n');
      await clock.advance(1000);
      const before = lintRuns;
      // keystrokes due every 150 ms; those due while a lint blocks are handled when it ends, in order
      for (let i = 0; i < 20; i++) clock.setTimeout(() => edit(`A=${i}\n`), 150 * i);
      await clock.advance(150 * 19);
      const during = lintRuns - before;
      assert.ok(during <= 2, `${during} lints while 20 edits came`);
      await clock.advance(QUIET_MS.max + 1000);
      assert.equal(published[published.length - 1].version, documents.get(uri)!.version);
    });

    it('an unchanged result is not published again when what the document depends on changed', async () => {
      open('A=1\n');
      await clock.advance(0);
      diagnostics.dependentsChanged([uri]);
      await clock.advance(QUIET_MS.max);
      assert.equal(published.length, 1);
      assert.equal(lintRuns, 1);
    });
  });
});
