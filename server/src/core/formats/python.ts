import { BudgetExceeded } from '../budget';
import type { Language, Tree } from 'web-tree-sitter';
import { emptyExtraction, type Extraction, type Range } from '../model/types';
import { newContext } from './python/context';
import { readEvidence } from './python/evidence';
import { blank, errorLine, mergeBlanked } from './python/recover';
import { readAssignments, readDicts, readEnv, readImports, readKwargs, readMutations } from './python/settings';
import { readSites } from './python/sites';
import { readSdkCalls } from './python/sdk-calls';
import { collect, type Collected } from './python/walk';
import { parseWith } from './treesitter';

/**
 * Recovery limits: re-parse rounds, the characters all rounds together may re-parse, and the most
 * statement-level errors a file may have for recovery to be tried (more means it is not Python).
 */
const MAX_ROUNDS = 3;
const RECOVERY_BUDGET = 1_000_000;
const MAX_RECOVERED_ERRORS = 10;

function fill(out: Extraction, collected: Collected, text: string): void {
  out.comments = collected.comments;
  const ctx = newContext(text, out, collected);
  readImports(ctx);
  readDicts(ctx);
  readKwargs(ctx);
  readAssignments(ctx);
  readMutations(ctx);
  readEnv(ctx);
  readEvidence(ctx);
  readSites(ctx);
  readSdkCalls(ctx);
  out.settings.sort((a, b) => a.statementRange.start - b.statementRange.start || a.keyRange.start - b.keyRange.start);
}

/**
 * Extracts settings, request sites, consumer evidence, env reads, bindings and comments from Python
 * source (`text` without BOM) with the tree-sitter-python grammar `language`. All ranges are UTF-16
 * offsets into `text`. Never throws: syntax errors become `parseProblems` (one per outermost ERROR
 * node and per MISSING token). A statement-level error (an unclosed `(` swallowing the lines after
 * it) is recovered by re-parsing with the offending line blanked out (up to a few rounds), so the rest
 * of the file still yields its settings; the intact parts of the blanked lines are kept too.
 * A lone `\r` is parsed as the line break CPython reads it as (same length, so offsets hold).
 */
export function extractPython(text: string, language: Language): Extraction {
  const out = emptyExtraction();
  const trees: Tree[] = [];
  try {
    let parseText = text.replace(/\r(?!\n)/g, '\n');
    trees.push(parseWith(language, parseText));
    const original = collect(trees[0], parseText, text);
    let current = original;
    const blanked: Range[] = [];
    const rounds = original.statementErrors.length > MAX_RECOVERED_ERRORS ? 0 : Math.min(MAX_ROUNDS, Math.floor(RECOVERY_BUDGET / Math.max(1, text.length)));
    for (let round = 0; round < rounds && current.statementErrors.length > 0; round++) {
      const lines = current.statementErrors.map((e) => errorLine(parseText, e)).filter((r): r is Range => r !== undefined);
      if (lines.length === 0) break;
      blanked.push(...lines);
      parseText = blank(parseText, lines);
      trees.push(parseWith(language, parseText));
      current = collect(trees[trees.length - 1], parseText, text);
    }
    fill(out, current, text);
    if (blanked.length > 0) {
      const whole = emptyExtraction();
      fill(whole, original, text);
      mergeBlanked(out, whole, blanked);
    }
    out.parseProblems = original.problems;
  } catch (err) {
    if (err instanceof BudgetExceeded) throw err;
    out.parseProblems.push({ message: `Python extractor failed: ${err instanceof Error ? err.message : String(err)}`, range: { start: 0, end: 0 } });
  } finally {
    for (const tree of trees) tree.delete();
  }
  return out;
}
