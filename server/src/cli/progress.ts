import type { Locale } from '../core/messages/locale';
import { redact } from '../core/redact';
import type { CliIo } from './io';
import { escapeForLine } from './sanitize';

/** Runs with fewer files than this print no progress. */
const MIN_FILES = 50;
/** At most one redraw per this many milliseconds. */
const REDRAW_MS = 100;

/** The stages of a run, each with its own counter. */
export type ProgressPhase = 'walk' | 'index' | 'lint';

const WORDS: Record<Locale, Record<ProgressPhase, string>> = {
  en: { walk: 'Finding files…', index: 'Indexing', lint: 'Linting' },
  'zh-CN': { walk: '正在查找文件…', index: '正在索引', lint: '正在检查' },
};

/**
 * A one-line progress counter on stderr from the start of a run: `Finding files…` while the walk
 * runs, then `Indexing 120/4800 files… path` (the env index) and `Linting 120/480 files… path`.
 * Drawn only when stderr is a terminal that understands `\r` and erase-line (not `TERM=dumb`) and
 * `CI` is unset; the counters only for phases of at least 50 files; redrawn at most every 100 ms and
 * erased (`\r` + ANSI erase-line) before the report is printed. Pipes, CI logs and editors never see it.
 */
export class Progress {
  private readonly enabled: boolean;
  private last = -Infinity;
  private done_ = 0;
  private total = 0;
  private phase_: ProgressPhase = 'walk';
  private drawn = false;

  constructor(
    private readonly io: CliIo,
    private readonly locale: Locale,
  ) {
    this.enabled = !!io.stderrIsTTY && !io.env.CI && io.env.TERM !== 'dumb';
  }

  /** Shows `phase` without a counter (the walk: its size is not known yet). */
  phase(phase: ProgressPhase): void {
    this.phase_ = phase;
    this.total = 0;
    if (!this.enabled) return;
    this.write(`\r\x1b[K${WORDS[this.locale][phase]}`);
    this.drawn = true;
  }

  /** Starts a counted phase of `total` files (the line is erased when it is too short to count). */
  start(phase: ProgressPhase, total: number): void {
    this.phase_ = phase;
    this.total = total;
    this.done_ = 0;
    this.last = -Infinity;
    if (total < MIN_FILES) this.done();
  }

  /** Called before each file of the phase. */
  tick(path: string): void {
    this.done_++;
    if (!this.enabled || this.total < MIN_FILES) return;
    const now = (this.io.now ?? Date.now)();
    if (now - this.last < REDRAW_MS) return;
    this.last = now;
    const columns = Number(this.io.env.COLUMNS) || 80;
    const word = WORDS[this.locale][this.phase_];
    const head = this.locale === 'zh-CN' ? `${word} ${this.done_}/${this.total} 个文件… ` : `${word} ${this.done_}/${this.total} files… `;
    const room = Math.max(0, columns - head.length - 2);
    const clean = escapeForLine(redact(path));
    const shown = clean.length > room ? `…${clean.slice(clean.length - room + 1)}` : clean;
    this.write(`\r\x1b[K${head}${shown}`);
    this.drawn = true;
  }

  private write(text: string): void {
    (this.io.stderrControl ?? this.io.stderr)(text);
  }

  /** Erases the line. */
  done(): void {
    if (this.drawn) this.write('\r\x1b[K');
    this.drawn = false;
  }
}
