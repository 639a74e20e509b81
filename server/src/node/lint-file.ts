import { writeFileSync } from 'node:fs';
import type { Finding, Format, Range } from '../core/model/types';
import { formatOf, isCandidate, isExcludedByName } from '../core/files';
import { lintDocument, stripBom, type LintOptions, type RuleFailure } from '../core/lint';
import { applyEdits, chooseFixes } from '../core/fix';
import { ruleById } from '../core/rules/index';
import { formatMessage } from '../core/messages/locale';
import { decodeForLint, readForLint, type ReadResult } from './read';
import { writeRefusal } from './write-guard';
import { yamlMayMatter } from '../core/workspace/yaml-evidence';
import { secretRanges } from '../core/secrets';
import { emptyExtraction } from '../core/model/types';
import { DEFAULT_CONFIG } from '../core/config/config';

/** The result for one file, as the CLI formatters and the language server's workspace scan use it. */
export interface FileResult {
  absPath: string;
  relPath: string;
  format: Format | undefined;
  /** The text as linted (BOM removed); `undefined` when the file was skipped or unreadable. */
  text: string | undefined;
  findings: Finding[];
  failures: RuleFailure[];
  /** Spans of `text` holding keys or URL credentials, masked wherever source text is echoed. */
  secrets?: Range[];
  /** Set when `--fix` rewrote the file: the number of fix passes that changed it. */
  fixedPasses?: number;
  /** Set when `--fix` changed the text: how many fixes were applied over all passes. */
  fixedCount?: number;
  /** With `write: false` and fixes applied: the text before the fixes (for `--diff`). */
  originalText?: string;
  /** Not a candidate (a Python file without trigger tokens, a data JSON file by its name); `text` is then undefined. */
  notCandidate?: boolean;
  /** With `--fix`: why the file was not fixed although it could be (`writeRefusal`: a symlink out of its work tree). */
  notFixed?: string;
  /** The path the rules saw (`LintFileOptions.lintPath`), relative to the project root that `Finding.related` paths are relative to. */
  lintPath?: string;
}

/** Builds the host-side `skipped-file` finding (the rule itself never runs on such files). */
export function skippedFileFinding(messageId: 'tooLarge' | 'binary', data: Record<string, string | number>, locale: LintOptions['locale']): Finding {
  const rule = ruleById('skipped-file')!;
  const template = rule.messages[locale ?? 'en'][messageId];
  return { ruleId: 'skipped-file', severity: 'warning', messageId, data, message: formatMessage(template, data), range: { start: 0, end: 0 }, fixes: [] };
}

export interface LintFileOptions extends LintOptions {
  /** Apply fixes and write the file back: `safe` fixes, or all with `unsafe`. */
  fix?: 'safe' | 'unsafe';
  /** Lint even when the content has no trigger token (explicit file arguments). */
  force?: boolean;
  maxFileBytes: number;
  /**
   * The path the rules see (globs, test-file evidence, workspace facts): `/`-separated, relative to
   * the file's own project root. Defaults to `relPath`.
   */
  lintPath?: string;
  /** With `fix`: write the fixed text back (default `true`); `false` keeps the file as it is (`--diff`, stdin). */
  write?: boolean;
  /**
   * With `fix`: the findings whose fixes may be applied, out of one pass's findings on `text` (the
   * CLI passes the findings it would print: a fix never touches what the report does not show).
   * Default: all.
   */
  selectFixable?: (findings: readonly Finding[], text: string) => readonly Finding[];
  /**
   * The file as the whole-tree index pass already read it (`indexForLint`'s `reads`), so it is not read
   * again: the same bytes, size limit and name check. Ignored for `force`d `notIndexed` files (their text was not kept).
   */
  preRead?: PreRead;
}

/**
 * What the index pass learned by reading a file: the read itself (a candidate's text, or why it has none:
 * too large, binary, unreadable), or `notIndexed`: text that is not an index candidate (`isIndexCandidate`,
 * purpose `lint`, which holds for every lint candidate under the same path and config), so not a lint
 * candidate either; its text is not kept.
 */
export type PreRead = ReadResult | { kind: 'notIndexed' };

const MAX_FIX_PASSES = 10;

/**
 * Reads, lints and optionally fixes one file. Never throws for file content; a write failure when
 * fixing is reported as a `RuleFailure` with rule id `--fix`. With `fix`, passes repeat until no
 * chosen fix applies (at most 10), each pass re-linting the new text; bytes outside the edits,
 * including a BOM and CRLF line breaks, are kept.
 */
export function lintFile(absPath: string, relPath: string, options: LintFileOptions): FileResult {
  const ready = readCandidate(absPath, relPath, options);
  return 'result' in ready ? ready.result : lintReady(ready, absPath, options);
}

/** A candidate file read and ready to lint: its BOM-less text, format and the path the rules see. */
export interface ReadyFile {
  base: FileResult;
  text: string;
  hadBom: boolean;
  format: Format;
  lintPath: string;
}

/**
 * The steps of `lintFile` before the engine runs: the name check, the read (size and binary checks)
 * and candidacy. `result` when nothing is left to lint (skipped, not a candidate, unreadable).
 */
export function readCandidate(absPath: string, relPath: string, options: LintFileOptions): { result: FileResult } | ReadyFile {
  // A data JSON file is ruled out by its name: not read at all (OpenClaw-RL has 1,100 of them).
  if (!options.force && options.config && isExcludedByName(options.lintPath ?? relPath, options.config)) {
    return { result: { absPath, relPath, format: formatOf(options.lintPath ?? relPath), text: undefined, findings: [], failures: [], notCandidate: true } };
  }
  const pre = options.preRead;
  if (pre?.kind === 'notIndexed' && !options.force && options.config) {
    const base = baseResult(absPath, relPath, options);
    // as `readyRead` decides for that text: no format, else not a candidate
    return { result: base.format ? { ...base, notCandidate: true } : base };
  }
  return readyRead(pre && pre.kind !== 'notIndexed' ? pre : readForLint(absPath, options.maxFileBytes), absPath, relPath, options);
}

function baseResult(absPath: string, relPath: string, options: LintFileOptions): FileResult {
  const lintPath = options.lintPath ?? relPath;
  return { absPath, relPath, format: formatOf(lintPath), text: undefined, findings: [], failures: [], ...(options.lintPath !== undefined ? { lintPath } : {}) };
}

/**
 * Like `lintFile` for bytes that do not come from the file itself (standard input with
 * `--stdin-filename`): `absPath` names the file for formats, configuration and facts; nothing is
 * written, even with `fix` (the caller prints `text`).
 */
export function lintBytes(bytes: Uint8Array, absPath: string, relPath: string, options: LintFileOptions): FileResult {
  const read: ReadResult = bytes.length > options.maxFileBytes ? { kind: 'tooLarge', size: bytes.length } : decodeForLint(bytes);
  const ready = readyRead(read, absPath, relPath, { ...options, write: false });
  return 'result' in ready ? ready.result : lintReady(ready, absPath, { ...options, write: false });
}

function readyRead(read: ReadResult, absPath: string, relPath: string, options: LintFileOptions): { result: FileResult } | ReadyFile {
  const lintPath = options.lintPath ?? relPath;
  const base = baseResult(absPath, relPath, options);
  const format = base.format;
  if (read.kind === 'error') return { result: { ...base, failures: [{ ruleId: 'read', error: read.message }] } };
  if (read.kind === 'tooLarge') {
    return { result: { ...base, findings: [skippedFileFinding('tooLarge', { size: read.size, limit: options.maxFileBytes }, options.locale)] } };
  }
  if (read.kind === 'binary') return { result: { ...base, findings: [skippedFileFinding('binary', {}, options.locale)] } };
  const { text, hadBom } = stripBom(read.text);
  if (!format) return { result: base };
  // A non-candidate's text is never used (formatters and the workspace scan skip it): drop it now.
  if (!options.force && options.config && !isCandidate(lintPath, text, options.config)) return { result: { ...base, notCandidate: true } };
  return { base, text, hadBom, format, lintPath };
}

function lintReady(ready: ReadyFile, absPath: string, options: LintFileOptions): FileResult {
  const { base, text, hadBom, format, lintPath } = ready;
  // YAML without any evidence the extractor and the rules read: `lintDocument` would report nothing (`yamlMayMatter`).
  if (format === 'yaml' && !yamlMayMatter(text, options.config ?? DEFAULT_CONFIG)) return { ...base, text, findings: [], failures: [], secrets: secretRanges(emptyExtraction(), text) };
  let current = text;
  let outcome = lintDocument({ path: lintPath, text: current, format }, options);
  let passes = 0;
  let fixed = 0;
  // Never write through a symbolic link out of the file's work tree (named on the command line or not).
  const refusal = options.fix && options.write !== false ? writeRefusal(absPath) : undefined;
  if (options.fix && !refusal) {
    while (passes < MAX_FIX_PASSES) {
      const fixes = chooseFixes(options.selectFixable ? options.selectFixable(outcome.findings, current) : outcome.findings, options.fix === 'unsafe');
      if (fixes.length === 0) break;
      const next = applyEdits(current, fixes.flatMap((f) => f.edits));
      if (next === current) break;
      current = next;
      passes++;
      fixed += fixes.length;
      outcome = lintDocument({ path: lintPath, text: current, format }, options);
    }
    if (passes > 0 && options.write !== false) {
      try {
        writeFileSync(absPath, (hadBom ? '\ufeff' : '') + current);
      } catch (error) {
        outcome.failures.push({ ruleId: '--fix', error: (error as Error).message });
      }
    }
  }
  const result: FileResult = { ...base, text: current, findings: outcome.findings, failures: outcome.failures, secrets: outcome.secrets };
  if (refusal && chooseFixes(outcome.findings, options.fix === 'unsafe').length > 0) result.notFixed = refusal;
  if (passes > 0) {
    result.fixedPasses = passes;
    result.fixedCount = fixed;
    if (options.write === false) result.originalText = text;
  }
  return result;
}
