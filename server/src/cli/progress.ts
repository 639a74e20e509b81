import type { Locale } from '../core/messages/locale';
import { redact } from '../core/redact';
import type { CliIo } from './io';
import { escapeForLine } from './sanitize';

/** Runs with fewer files than this print no progress. */
const MIN_FILES = 50;
/** At most one redraw per this many milliseconds. */
const REDRAW_MS = 100;

/**
 * A one-line progress counter on stderr (`Linting 120/480 files… rollout/proxy.py`), drawn only when
 * stderr is a terminal and the run has at least 50 files, redrawn at most every 100 ms and erased
 * (`\r` + ANSI erase-line) before the report is printed. Pipes, CI logs and editors never see it.
 */
export class Progress {
  private readonly enabled: boolean;
  private last = -Infinity;
  private done_ = 0;
  private drawn = false;

  constructor(
    private readonly io: CliIo,
    private readonly total: number,
    private readonly locale: Locale,
  ) {
    this.enabled = !!io.stderrIsTTY && total >= MIN_FILES && !io.env.CI;
  }

  /** Called before each file is linted. */
  tick(path: string): void {
    this.done_++;
    if (!this.enabled) return;
    const now = (this.io.now ?? Date.now)();
    if (now - this.last < REDRAW_MS) return;
    this.last = now;
    const columns = Number(this.io.env.COLUMNS) || 80;
    const head = this.locale === 'zh-CN' ? `正在检查 ${this.done_}/${this.total} 个文件… ` : `Linting ${this.done_}/${this.total} files… `;
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
