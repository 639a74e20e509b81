/** 0-based line and UTF-16 character, as LSP counts them. */
export interface LinePosition {
  line: number;
  character: number;
}

/**
 * Converts UTF-16 offsets to line/character positions and back. Line breaks are `\n`, `\r\n` and a
 * lone `\r`, as LSP defines them.
 */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      } else if (c === 10) {
        this.starts.push(i + 1);
      }
    }
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** Position of an offset (clamped to the text). */
  positionAt(offset: number): LinePosition {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts[lo] };
  }

  /** Offset of a position (clamped to its line). */
  offsetAt(position: LinePosition): number {
    if (position.line >= this.starts.length) return this.text.length;
    const start = this.starts[Math.max(0, position.line)];
    const end = position.line + 1 < this.starts.length ? this.starts[position.line + 1] : this.text.length;
    return Math.min(start + Math.max(0, position.character), end);
  }

  /** The text of a 0-based line without its line break. */
  lineText(line: number): string {
    const start = this.starts[line] ?? this.text.length;
    const end = line + 1 < this.starts.length ? this.starts[line + 1] : this.text.length;
    return this.text.slice(start, end).replace(/\r?\n$|\r$/, '');
  }
}
