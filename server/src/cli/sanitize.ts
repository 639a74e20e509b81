/**
 * Makes text safe to print on a terminal: ANSI/VT escape and control sequences (CSI, OSC, DCS …,
 * ECMA-48) and every other C0/C1 control character except line feed and tab are removed, so a
 * linted value or a server's message cannot move the cursor, retitle the window, or hide output.
 * `\r` goes too (it would overwrite the line it is on).
 */
export function sanitizeForTerminal(text: string): string {
  return text
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?/g, '')
    .replace(/\x1b[@-Z\\-_]?/g, '')
    .replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '');
}


export { escapeForLine } from '../core/escape';
