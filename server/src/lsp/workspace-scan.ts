import { existsSync, statSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { DiagnosticSeverity, type CancellationToken, type Diagnostic, type WorkDoneProgressReporter } from 'vscode-languageserver';
import type { Grammars } from '../core/formats/treesitter';
import type { Locale } from '../core/messages/locale';
import { lintFile, readCandidate, type FileResult, type LintFileOptions } from '../node/lint-file';
import { OFFLOAD_CHARS, type OffloadedLinter } from '../node/lint-offload';
import { lintDocument } from '../core/lint';
import { walk } from '../node/walk';
import { DocText, toDiagnostic } from './convert';
import { say } from './messages';
import { timeSlicer } from './slices';
import type { ConfigProvider } from './settings';
import { pathToUri, uriToPath, type Workspace } from './workspace';
import type { WorkspaceEnv } from './env-index';

/** What a scan needs from the session. */
export interface ScanDeps {
  workspace: Workspace;
  configs: ConfigProvider;
  grammars: () => Promise<Grammars>;
  locale: Locale;
  /** Open documents are linted from the editor's text, never from disk. */
  isOpen(uri: string): boolean;
  /**
   * A notebook (`file:` URI of an `.ipynb`) whose cells the editor has open: the cells carry its
   * findings at cell positions, so the file's own report (at notebook-JSON positions) is emptied,
   * never shown beside them.
   */
  cellsOpen?(uri: string): boolean;
  log(message: string): void;
  /** The workspace env index, for cross-file findings (none: each file is judged alone). */
  env?: WorkspaceEnv;
  /** Lints big files off the server's thread; absent = every file is linted on it. */
  offload?: OffloadedLinter;
}

/** One file's outcome: `diagnostics` absent = unchanged since the `resultId` the client holds. */
export interface ScanReport {
  uri: string;
  resultId: string;
  diagnostics?: Diagnostic[];
}

/** Suffix of the result id of a file that is gone from the scan (deleted, ignored, no longer a candidate). */
export const GONE = ':gone';

/** Files linted between two batches (and between two looks at the cancellation token). */
const BATCH = 16;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The result id of a file on disk: configuration generation, mtime, size and the env index's dependency signature. */
function diskResultId(generation: number, absPath: string, envSignature = ''): string | undefined {
  try {
    const st = statSync(absPath);
    return `${generation}:${st.mtimeMs}:${st.size}${envSignature && `:${envSignature}`}`;
  } catch {
    return undefined;
  }
}

function sizeOf(absPath: string): number {
  try {
    return statSync(absPath).size;
  } catch {
    return 0;
  }
}

/** `lintFile` with the engine run in the worker thread (a big file: the server keeps answering meanwhile); on this thread when the worker cannot run. */
async function lintInWorker(offload: OffloadedLinter, absPath: string, relPath: string, options: LintFileOptions, log: (message: string) => void, locale: Locale): Promise<FileResult> {
  const ready = readCandidate(absPath, relPath, options);
  if ('result' in ready) return ready.result;
  const input = { path: ready.lintPath, text: ready.text, format: ready.format };
  const outcome = await offload.lint(input, options).catch((error: Error) => {
    log(say(locale, 'log.workerFailed', { file: relPath, error: error.message }));
    return lintDocument(input, options);
  });
  return { ...ready.base, text: ready.text, findings: outcome.findings, failures: outcome.failures, secrets: outcome.secrets };
}

/**
 * Lints one file from disk (size checked before reading: files over `maxFileBytes` get
 * `skipped-file` without being read). `undefined` when the file is not a candidate or linting is off.
 */
export async function lintFromDisk(deps: ScanDeps, absPath: string, scopeUri: string, root: string): Promise<Diagnostic[] | undefined> {
  const { config, enabled } = await deps.configs.forFile(scopeUri, absPath, root);
  if (!enabled) return undefined;
  const relPath = relative(root, absPath).split(sep).join('/');
  const options = {
    grammars: await deps.grammars(),
    config,
    facts: deps.workspace.factsFor(root),
    locale: deps.locale,
    surface: deps.workspace.surface,
    maxFileBytes: config.maxFileBytes,
    verified: deps.workspace.verified,
    env: deps.env?.viewFor({ root, relPath }),
    // Closed files' diagnostics carry no fixes (`toDiagnostic(..., false)`): nothing to prove.
    proveFixes: false,
  };
  const result = deps.offload && sizeOf(absPath) >= OFFLOAD_CHARS ? await lintInWorker(deps.offload, absPath, relPath, options, deps.log, deps.locale) : lintFile(absPath, relPath, options);
  for (const failure of result.failures) deps.log(say(deps.locale, 'log.ruleFailed', { ruleId: failure.ruleId, file: relPath, error: failure.error.split('\n')[0] }));
  if (!result.format || result.notCandidate) return undefined;
  const doc = new DocText(result.text ?? '');
  return result.findings.map((f) => toDiagnostic(f, doc, undefined, false, root));
}

/**
 * Lints the candidate files of every workspace folder that are not open (the CLI's walker: skips
 * `node_modules`, `.git`, `.venv`, git-ignored non-config files). Files whose result id equals the
 * one in `previous` are reported unchanged without being read. Files in `previous` that are gone, or
 * no longer candidates, get an empty report. Reports go to `onBatch` in batches; the scan yields to
 * the event loop between batches and stops early when `token` is cancelled. Returns the result id
 * of every file that has a report.
 */
export async function scanWorkspace(
  deps: ScanDeps,
  previous: ReadonlyMap<string, string>,
  token: CancellationToken,
  onBatch: (reports: ScanReport[]) => void,
  progress?: WorkDoneProgressReporter,
): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  const walked = new Set<string>();
  await deps.env?.ensure();
  const generation = deps.configs.generation;
  const work: { absPath: string; uri: string; folderUri: string; root: string }[] = [];
  for (const folder of deps.workspace.roots()) {
    const { config, enabled } = await deps.configs.forFile(folder.uri, undefined, undefined);
    if (!enabled) continue;
    const { files } = walk([folder.path], folder.path, deps.workspace.factsFor(folder.path), { noIgnore: false, config });
    for (const f of files) {
      const uri = pathToUri(f.absPath);
      if (walked.has(uri)) continue;
      walked.add(uri);
      work.push({ absPath: f.absPath, uri, folderUri: folder.uri, root: folder.path });
    }
  }
  progress?.begin(say(deps.locale, 'progress.title'), 0, say(deps.locale, 'progress.scanning', { done: 0, total: work.length }), true);
  const started = Date.now();
  const summary = { linted: 0, unchanged: 0, errors: 0, warnings: 0, slow: [] as { file: string; ms: number }[] };
  let batch: ScanReport[] = [];
  const flush = () => {
    if (batch.length) onBatch(batch);
    batch = [];
  };
  const slice = timeSlicer();
  try {
    for (let i = 0; i < work.length; i++) {
      if (i % BATCH === 0) {
        flush();
        progress?.report(Math.round((i / Math.max(1, work.length)) * 100), say(deps.locale, 'progress.scanning', { done: i, total: work.length }));
        await nextTurn();
        if (token.isCancellationRequested) return seen;
      } else {
        await slice();
        if (token.isCancellationRequested) return seen;
      }
      const file = work[i];
      if (deps.cellsOpen?.(file.uri)) {
        const resultId = `${generation}:cells`;
        seen.set(file.uri, resultId);
        batch.push(previous.get(file.uri) === resultId ? { uri: file.uri, resultId } : { uri: file.uri, resultId, diagnostics: [] });
        continue;
      }
      if (deps.isOpen(file.uri)) continue;
      const resultId = diskResultId(generation, file.absPath, deps.env?.signature({ root: file.root, relPath: relative(file.root, file.absPath).split(sep).join('/') }));
      if (!resultId) continue;
      if (previous.get(file.uri) === resultId) {
        summary.unchanged++;
        seen.set(file.uri, resultId);
        batch.push({ uri: file.uri, resultId });
        continue;
      }
      let diagnostics: Diagnostic[] | undefined;
      const fileStarted = Date.now();
      try {
        diagnostics = await lintFromDisk(deps, file.absPath, file.folderUri, file.root);
      } catch (error) {
        deps.log(say(deps.locale, 'log.scanFailed', { file: file.absPath, error: (error as Error).message }));
      }
      const ms = Date.now() - fileStarted;
      if (ms >= SLOW_FILE_MS) summary.slow.push({ file: relative(file.root, file.absPath).split(sep).join('/'), ms });
      if (diagnostics) {
        summary.linted++;
        for (const d of diagnostics) {
          if (d.severity === DiagnosticSeverity.Error) summary.errors++;
          else if (d.severity === DiagnosticSeverity.Warning) summary.warnings++;
        }
      }
      if (diagnostics === undefined && !previous.has(file.uri)) continue;
      seen.set(file.uri, resultId);
      batch.push({ uri: file.uri, resultId, diagnostics: diagnostics ?? [] });
    }
    for (const uri of previous.keys()) {
      if (walked.has(uri) || deps.isOpen(uri)) continue;
      const path = uriToPath(uri);
      if (path && (!existsSync(path) || deps.workspace.folderOf(path))) batch.push({ uri, resultId: `${generation}${GONE}`, diagnostics: [] });
    }
    flush();
    // VS Code pulls workspace diagnostics again and again: log the scans that linted something.
    if (summary.linted > 0 || summary.slow.length > 0) deps.log(scanSummary(work.length, summary, Date.now() - started, deps.locale));
  } finally {
    progress?.done();
  }
  return seen;
}

/** A file whose lint takes this long (milliseconds) is named in the scan summary. */
const SLOW_FILE_MS = 500;

/**
 * The log line after a workspace scan: candidates, files linted and unchanged, errors and warnings
 * of the linted files, the time, and the slowest files (paths and counts only: never file content).
 */
export function scanSummary(candidates: number, s: { linted: number; unchanged: number; errors: number; warnings: number; slow: { file: string; ms: number }[] }, ms: number, locale: Locale = 'en'): string {
  const slow = [...s.slow].sort((a, b) => b.ms - a.ms).slice(0, 5);
  const slowText = slow.length ? say(locale, 'log.scanSlow', { files: slow.map((f) => `${f.file} (${f.ms} ms)`).join(locale === 'zh-CN' ? '、' : ', ') }) : '';
  return `${say(locale, 'log.scan', { candidates, linted: s.linted, unchanged: s.unchanged, errors: s.errors, warnings: s.warnings, ms })}${slowText}`;
}
