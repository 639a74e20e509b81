/**
 * Terminal column widths, so carets line up under text with CJK characters. Code points in the
 * East Asian Wide (W) and Fullwidth (F) blocks of Unicode UAX #11 (EastAsianWidth.txt) take two
 * columns; combining marks (U+0300–U+036F, U+200B–U+200F) none; everything else one.
 */
const WIDE: readonly [number, number][] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

function columnsOf(codePoint: number): number {
  if ((codePoint >= 0x300 && codePoint <= 0x36f) || (codePoint >= 0x200b && codePoint <= 0x200f)) return 0;
  return WIDE.some(([lo, hi]) => codePoint >= lo && codePoint <= hi) ? 2 : 1;
}

/** Columns `text` takes in a terminal (tabs count as one: the text formatter prints them as spaces). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += columnsOf(ch.codePointAt(0)!);
  return width;
}
