import { parseTree, printParseErrorCode } from 'jsonc-parser';
import type { Node } from 'jsonc-parser';
import type { Extraction, Finding, ParseProblem, Range, Setting, TextEdit } from '../model/types';
import { blankCellMagic } from './ipython';

/**
 * The code cells of a Jupyter notebook (nbformat 4) as one IPython text, with the way back to the
 * notebook file. Cells are joined in order, each ending in a line break (as ruff and nbQA lint them),
 * so a name bound in one cell resolves in a later one. Markdown/raw cells and every cell's `outputs`
 * are never read (outputs can hold printed keys).
 *
 * `starts[i]`/`ends[i]` are the notebook offsets where the source of character `i` of `text` begins
 * and ends: an escape such as `\"` or `\u00e9` is one character here and 2 or 6 characters there.
 * The line break added after a cell maps to the cell's closing quote and belongs to no cell.
 */
export interface NotebookSource {
  text: string;
  starts: Int32Array;
  ends: Int32Array;
  /** Per character: the index of its cell, or -1 for an added line break. */
  cells: Int32Array;
}

/** Notebook languages linted as Python (`metadata.kernelspec.language` / `language_info.name`). */
const PYTHON_LANGUAGES = new Set(['python', 'python3', 'ipython', 'ipython3']);

/**
 * Reads the code cells of a notebook file's text (`text` without BOM). Returns the parse problems
 * instead when the JSON is malformed or is not a notebook; `skip` when the notebook's kernel is not
 * Python (an R or Julia notebook). Never throws.
 */
export function notebookSource(text: string): { source: NotebookSource } | { problems: ParseProblem[] } | { skip: true } {
  const errors: { error: number; offset: number; length: number }[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length > 0 || root?.type !== 'object') {
    // After the first JSON error the rest are its echoes (jsonc-parser recovers token by token).
    const problems = errors.slice(0, 1).map((e) => ({ message: `Notebook JSON: ${printParseErrorCode(e.error as never)}`, range: { start: Math.min(e.offset, text.length), end: Math.min(e.offset + e.length, text.length) } }));
    return { problems: problems.length > 0 ? problems : [{ message: 'Notebook JSON is not an object', range: { start: 0, end: Math.min(1, text.length) } }] };
  }
  const language = stringAt(root, ['metadata', 'kernelspec', 'language']) ?? stringAt(root, ['metadata', 'language_info', 'name']);
  if (language !== undefined && !PYTHON_LANGUAGES.has(language.toLowerCase())) return { skip: true };
  const cells = member(root, 'cells');
  const parts: { chars: string[]; starts: number[]; ends: number[]; cell: number; added?: number }[] = [];
  (cells?.type === 'array' ? cells.children ?? [] : []).forEach((cell, index) => {
    if (cell.type !== 'object' || member(cell, 'cell_type')?.value !== 'code') return;
    const source = member(cell, 'source');
    const strings = source?.type === 'string' ? [source] : source?.type === 'array' ? (source.children ?? []).filter((c) => c.type === 'string') : [];
    const part: (typeof parts)[number] = { chars: [], starts: [], ends: [], cell: index };
    for (const node of strings) decodeInto(text, node, part);
    const blanked = blankCellMagic(part.chars.join(''));
    part.chars = Array.from({ length: part.chars.length }, (_, i) => blanked[i]);
    const close = strings.length > 0 ? strings[strings.length - 1].offset + strings[strings.length - 1].length - 1 : (source?.offset ?? cell.offset);
    if (part.chars[part.chars.length - 1] !== '\n') {
      part.chars.push('\n');
      part.starts.push(close);
      part.ends.push(close);
      part.added = part.chars.length - 1;
    }
    parts.push(part);
  });
  const length = parts.reduce((n, p) => n + p.chars.length, 0);
  const out: NotebookSource = { text: '', starts: new Int32Array(length + 1), ends: new Int32Array(length + 1), cells: new Int32Array(length + 1) };
  let i = 0;
  const chunks: string[] = [];
  for (const part of parts) {
    const added = part.added;
    part.chars.forEach((c, k) => {
      out.starts[i] = part.starts[k];
      out.ends[i] = part.ends[k];
      out.cells[i] = k === added ? -1 : part.cell;
      i++;
    });
    chunks.push(part.chars.join(''));
  }
  out.starts[length] = out.ends[length] = length > 0 ? out.ends[length - 1] : 0;
  out.cells[length] = -1;
  out.text = chunks.join('');
  return { source: out };
}

function member(node: Node, key: string): Node | undefined {
  const property = node.children?.find((p) => p.children?.[0]?.value === key);
  return property?.children?.[1];
}

function stringAt(node: Node, path: string[]): string | undefined {
  let current: Node | undefined = node;
  for (const key of path) current = current?.type === 'object' ? member(current, key) : undefined;
  return current?.type === 'string' ? String(current.value) : undefined;
}

const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Decodes one JSON string node character by character, recording where each came from. */
function decodeInto(text: string, node: Node, part: { chars: string[]; starts: number[]; ends: number[] }): void {
  const end = node.offset + node.length - 1;
  for (let at = node.offset + 1; at < end; ) {
    const c = text[at];
    if (c !== '\\') {
      part.chars.push(c);
      part.starts.push(at);
      part.ends.push(at + 1);
      at++;
      continue;
    }
    const next = text[at + 1];
    if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) {
      part.chars.push(String.fromCharCode(parseInt(text.slice(at + 2, at + 6), 16)));
      part.starts.push(at);
      part.ends.push(at + 6);
      at += 6;
      continue;
    }
    part.chars.push(SIMPLE_ESCAPES[next] ?? next);
    part.starts.push(at);
    part.ends.push(at + 2);
    at += 2;
  }
}

/** The notebook range of a range of `source.text`. */
export function toNotebookRange(source: NotebookSource, range: Range): Range {
  const start = source.starts[Math.min(range.start, source.text.length)];
  const end = range.end > range.start ? source.ends[Math.min(range.end, source.text.length) - 1] : start;
  return { start, end: Math.max(start, end) };
}

/** The cell a range of `source.text` lies in, or `undefined` when it touches an added line break or two cells. */
function cellOf(source: NotebookSource, range: Range): number | undefined {
  const last = Math.max(range.start, range.end - 1);
  let cell: number | undefined;
  for (let i = range.start; i <= Math.min(last, source.text.length - 1); i++) {
    if (source.cells[i] < 0) {
      if (i === range.start && range.end === range.start) continue;
      return undefined;
    }
    if (cell !== undefined && cell !== source.cells[i]) return undefined;
    cell = source.cells[i];
  }
  return cell ?? (range.start > 0 && source.cells[range.start - 1] >= 0 ? source.cells[range.start - 1] : undefined);
}

/**
 * One text edit of `source.text` as an edit of the notebook file: the range mapped, the new text
 * written as JSON string content (`"` → `\"`, line break → `\n`). An insertion right after a cell's
 * last character goes before its closing quote. `undefined` when the edit spans two cells (no single
 * JSON string can take it).
 */
export function toNotebookEdit(source: NotebookSource, edit: TextEdit): TextEdit | undefined {
  if (cellOf(source, edit.range) === undefined) return undefined;
  const range = edit.range.end > edit.range.start ? toNotebookRange(source, edit.range) : insertionPoint(source, edit.range.start);
  return { range, text: JSON.stringify(edit.text).slice(1, -1) };
}

function insertionPoint(source: NotebookSource, offset: number): Range {
  const at = offset < source.text.length && source.cells[offset] >= 0 ? source.starts[offset] : source.ends[offset - 1];
  return { start: at, end: at };
}

/**
 * Maps a finding of the joined cells onto the notebook file: its range, and its fixes' edits (a fix
 * with an edit that cannot be mapped is dropped).
 */
export function toNotebookFinding(source: NotebookSource, finding: Finding): Finding {
  const fixes = finding.fixes
    .map((fix) => {
      const edits = fix.edits.map((e) => toNotebookEdit(source, e));
      return edits.every((e): e is TextEdit => e !== undefined) ? { ...fix, edits } : undefined;
    })
    .filter((f): f is Finding['fixes'][number] => f !== undefined);
  return { ...finding, range: toNotebookRange(source, finding.range), fixes };
}

/**
 * Rewrites every range of an extraction of the joined cells into notebook offsets (new range
 * objects; each setting once even when it is also a binding), for hover, code lenses and the
 * endpoints view.
 */
export function toNotebookExtraction(source: NotebookSource, extraction: Extraction): void {
  const map = (r: Range) => toNotebookRange(source, r);
  const done = new Set<Setting>();
  const setting = (s: Setting) => {
    if (done.has(s)) return;
    done.add(s);
    s.keyRange = map(s.keyRange);
    s.valueRange = map(s.valueRange);
    s.contentRange = map(s.contentRange);
    s.statementRange = map(s.statementRange);
  };
  extraction.settings.forEach(setting);
  Object.values(extraction.bindings).forEach(setting);
  for (const site of extraction.requestSites) {
    site.range = map(site.range);
    site.anchorRange = map(site.anchorRange);
    for (const p of Object.values(site.params)) setting(p);
    delete site.insertion;
  }
  for (const e of extraction.consumerEvidence) e.range = map(e.range);
  for (const e of extraction.envReads) e.range = map(e.range);
  for (const c of extraction.comments) c.range = map(c.range);
  for (const p of extraction.parseProblems) p.range = map(p.range);
  delete extraction.groups;
}
