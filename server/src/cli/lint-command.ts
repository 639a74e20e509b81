import { dirname, isAbsolute, resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import { mergeConfig } from '../core/config/config';
import { globMatcher } from '../core/glob';
import { normalizeLocale, type Locale } from '../core/messages/locale';
import { RULES } from '../core/rules/index';
import { ConfigError, invalidate, loadConfigForDirectory, type LoadedConfig } from '../node/config';
import { loadGrammars } from '../node/grammars';
import { NodeWorkspaceFacts } from '../node/facts';
import { lintBytes, lintFile, type FileResult, type LintFileOptions } from '../node/lint-file';
import { posixRelative, ProjectLocator } from '../node/project';
import { walk } from '../node/walk';
import { unifiedDiff } from './diff';
import { indexFiles, type IndexedFile } from '../node/env-index';
import { FORMATTERS, type FormatName } from './format/index';
import { rootRelativePath } from './format/types';
import { formatStatistics } from './format/statistics';
import { useColor, type CliIo } from './io';
import { Progress } from './progress';
import { sanitizeForTerminal } from './sanitize';

/** Options of `rollout-lint [paths…]`, as commander parses them. */
export interface LintCommandOptions {
  format: FormatName;
  fix?: boolean;
  fixUnsafe?: boolean;
  diff?: boolean;
  exitZero?: boolean;
  includeHints?: boolean;
  quiet?: boolean;
  maxWarnings?: number;
  rule?: string[];
  lang?: string;
  ignore: boolean;
  color?: boolean;
  reportUnusedDisableDirectives?: boolean;
  stdinFilename?: string;
  outputFile?: string;
  statistics?: boolean;
  candidatesOnly?: boolean;
}

const ignoreMatchers = new WeakMap<LoadedConfig, (path: string) => boolean>();

/** Whether the config's `ignore` globs match `path` (relative to the config file's folder; matcher compiled once per config). */
function ignoredBy(loaded: LoadedConfig, path: string): boolean {
  if (loaded.config.ignore.length === 0) return false;
  let matcher = ignoreMatchers.get(loaded);
  if (!matcher) {
    matcher = globMatcher(loaded.config.ignore);
    ignoreMatchers.set(loaded, matcher);
  }
  return matcher(path);
}

class UsageError extends Error {}

/**
 * Lints `paths` (default `.`; `-` or `--stdin-filename` alone: standard input) and prints the chosen
 * format on stdout (or `--output-file`); walk problems, rule failures and configuration errors go to
 * stderr. Each file is judged from its own folders (see `ProjectLocator`): its nearest
 * `.rolloutlintrc.json` (up to its git work tree), globs relative to its project root, git facts of
 * its own work tree; so the working directory changes only how paths are printed. Named files of a
 * type Rollout Lint does not read are skipped quietly.
 * Exit code per DESIGN (ESLint's): 0 clean or warnings within `--max-warnings`; 1 errors or too many
 * warnings (with `--diff`: some file would change); 2 usage, config or internal error (a bad config
 * prints `file:line:col: $.path: reason` and nothing on stdout).
 */
export async function runLint(paths: string[], options: LintCommandOptions, io: CliIo): Promise<number> {
  try {
    return await lint(paths, options, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`rollout-lint: ${error.message}\n`);
      return 2;
    }
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(`rollout-lint: invalid configuration\n${error.message}\n`);
    return 2;
  }
}

async function lint(paths: string[], options: LintCommandOptions, io: CliIo): Promise<number> {
  const locale: Locale = normalizeLocale(options.lang ?? io.env.LC_ALL ?? io.env.LC_MESSAGES ?? io.env.LANG);
  const unknown = (options.rule ?? []).filter((id) => !RULES.some((r) => r.meta.id === id));
  if (unknown.length) throw new UsageError(`unknown rule id ${unknown.join(', ')} (see "rollout-lint rules")`);
  const stdin = paths.includes('-') || (options.stdinFilename !== undefined && paths.length === 0);
  if (stdin && options.stdinFilename === undefined) throw new UsageError('reading standard input ("-") needs --stdin-filename PATH, which decides the format and the configuration');
  if (stdin && paths.some((p) => p !== '-')) throw new UsageError('"-" (standard input) cannot be combined with other paths');
  if (options.statistics && options.format !== 'text' && options.format !== 'json') throw new UsageError('--statistics prints text or JSON (--format text|json)');
  if (options.diff && (options.format !== 'text' || options.statistics)) throw new UsageError('--diff prints a unified diff; it takes no --format or --statistics');
  const fix = options.fixUnsafe ? 'unsafe' : options.fix || options.diff ? 'safe' : undefined;
  const cwd = io.cwd;
  invalidate();
  const locator = new ProjectLocator(cwd);
  const factsByRoot = new Map<string, NodeWorkspaceFacts>();
  const factsFor = (root: string) => {
    let facts = factsByRoot.get(root);
    if (!facts) factsByRoot.set(root, (facts = new NodeWorkspaceFacts(root)));
    return facts;
  };
  const grammars = await loadGrammars();
  const fileOptions = (lintPath: string, loaded: LoadedConfig, root: string, force: boolean): LintFileOptions => ({
    grammars,
    config: loaded.config,
    facts: factsFor(root),
    locale,
    onlyRules: options.rule?.length ? options.rule : undefined,
    reportUnusedDisableDirectives: !!options.reportUnusedDisableDirectives,
    fix,
    write: !options.diff,
    force,
    maxFileBytes: loaded.config.maxFileBytes,
    lintPath,
  });

  const results: FileResult[] = [];
  const problems: string[] = [];
  let otherTypes: string[] = [];
  if (stdin) {
    const absPath = resolve(cwd, options.stdinFilename!);
    const project = locator.projectOf(absPath);
    const bytes = io.readStdin ? await io.readStdin() : new Uint8Array();
    if (ignoredBy(project.loaded, posixRelative(project.ignoreBase, absPath))) {
      // An editor piping through `--fix` gets its text back unchanged.
      if (fix && !options.diff) io.stdout(Buffer.from(bytes).toString('utf8'));
    } else {
      const result = lintBytes(bytes, absPath, displayPath(cwd, absPath), fileOptions(project.lintPath, project.loaded, project.root, !options.candidatesOnly));
      if (result.format) results.push(result);
      else otherTypes = [options.stdinFilename!];
      if (fix && !options.diff) {
        // ruff's habit: with --fix, standard input comes back fixed on stdout; the report goes to stderr.
        io.stdout(result.text ?? Buffer.from(bytes).toString('utf8'));
        return finish(results, options, io, locale, cwd, problems, otherTypes, io.stderr);
      }
    }
  } else {
    // The walk prunes with `ignore` globs only of a config in the working directory itself: its globs
    // are relative to that folder, as the walk's paths are. Every file is checked against its own config below.
    const cwdConfig = loadConfigForDirectory(cwd, locator.workTreeOf(cwd) ?? cwd);
    const pruning = cwdConfig.source && resolve(dirname(cwdConfig.source)) === resolve(cwd) ? cwdConfig.config : mergeConfig();
    const walked = walk(paths.length ? paths : ['.'], cwd, factsFor(cwd), { noIgnore: !options.ignore, config: pruning });
    otherTypes = walked.otherTypes;
    for (const p of walked.problems) problems.push(`${p.path}: ${p.message}`);
    const explicit = new Set(paths.map((p) => resolve(cwd, p)));
    // The env index (definitions and reads across files) covers the working directory's tree even when
    // only some paths are linted, when that tree is a project (a git work tree, or a config in it): run
    // from a home or temp folder, `rollout-lint a.env` must not read everything below it. Files are keyed
    // by the path the rules see; their parses are reused by the lint.
    const whole = paths.length === 0 || (paths.length === 1 && resolve(cwd, paths[0]) === resolve(cwd));
    const project = locator.workTreeOf(cwd) !== undefined || cwdConfig.source !== undefined;
    const indexed = whole || !project ? walked.files : walk(['.'], cwd, factsFor(cwd), { noIgnore: !options.ignore, config: pruning }).files;
    const extractions = new Map<string, IndexedFile>();
    const envIndex = indexFiles(
      indexed.map((f) => ({ ...f, relPath: locator.projectOf(f.absPath).lintPath })),
      grammars,
      (absPath) => locator.projectOf(absPath).loaded.config,
      undefined,
      extractions,
    );
    const progress = new Progress(io, walked.files.length, locale);
    for (const file of walked.files) {
      progress.tick(file.relPath);
      const project = locator.projectOf(file.absPath);
      if (ignoredBy(project.loaded, posixRelative(project.ignoreBase, file.absPath))) continue;
      const named = explicit.has(file.absPath);
      // A git-ignored file (a local .env) is linted but only rewritten (or diffed) when named on the command line.
      const fixable = fix !== undefined && (named || factsFor(project.root).gitState(file.absPath) !== 'ignored');
      const result = lintFile(file.absPath, file.relPath, {
        ...fileOptions(project.lintPath, project.loaded, project.root, named && !options.candidatesOnly),
        fix: fixable ? fix : undefined,
        env: envIndex.viewFor(project.lintPath),
        ...indexedFor(extractions.get(project.lintPath)),
      });
      extractions.delete(project.lintPath);
      if (result.fixedPasses && !options.diff) io.stderr(`rollout-lint: fixed ${file.relPath}\n`);
      else if (fix && !fixable && result.findings.some((f) => f.fixes.some((x) => x.safety === 'safe' || fix === 'unsafe'))) {
        io.stderr(`rollout-lint: ${file.relPath}: not fixed: git ignores it (name the file to fix it)\n`);
      }
      results.push(result);
    }
    progress.done();
  }
  return finish(results, options, io, locale, cwd, problems, otherTypes);
}

/** Prints the report (or diff, or statistics) and computes the exit code. */
function finish(results: FileResult[], options: LintCommandOptions, io: CliIo, locale: Locale, cwd: string, problems: string[], otherTypes: string[], report?: (text: string) => void): number {
  for (const p of problems) io.stderr(`rollout-lint: ${p}\n`);
  for (const r of results) for (const f of r.failures) io.stderr(`rollout-lint: ${r.relPath}: internal error in ${f.ruleId}: ${f.error.split('\n')[0]}\n`);
  if (results.length === 0 && otherTypes.length > 0 && problems.length === 0) io.stderr(`rollout-lint: ${nothingToLint(locale, otherTypes)}\n`);
  const toFile = options.outputFile !== undefined;
  const color = toFile ? options.color === true : useColor(options.color, io.env, io.isTTY);
  const sarifRoot = new ProjectLocator(cwd).workTreeOf(cwd) ?? cwd;
  let output: string;
  if (options.diff) {
    output = results.filter((r) => r.originalText !== undefined && r.text !== undefined).map((r) => unifiedDiff(rootRelativePath(r, sarifRoot), r.originalText!, r.text!)).join('');
  } else if (options.statistics) {
    output = formatStatistics({ results, includeHints: !!options.includeHints, quiet: !!options.quiet, color, root: sarifRoot, locale }, options.format === 'json');
  } else {
    const fixedFiles = results.filter((r) => r.fixedCount);
    const fixed = fix(options) ? { count: fixedFiles.reduce((n, r) => n + r.fixedCount!, 0), files: fixedFiles.length } : undefined;
    output = FORMATTERS[options.format]({ results, includeHints: !!options.includeHints, quiet: !!options.quiet, color, root: sarifRoot, locale, fixed });
  }
  // JSON and SARIF escape control characters themselves; the text formatter sanitises before colouring.
  if (options.format === 'github' && !options.diff && !options.statistics) output = sanitizeForTerminal(output);
  // A diff stays byte-exact for `git apply` on a pipe or in a file; on a terminal the file's own control characters go.
  if (options.diff && !toFile && io.isTTY) output = sanitizeForTerminal(output);
  if (toFile) {
    const target = isAbsolute(options.outputFile!) ? options.outputFile! : resolve(cwd, options.outputFile!);
    try {
      writeFileSync(target, output);
    } catch (error) {
      io.stderr(`rollout-lint: cannot write --output-file ${options.outputFile}: ${(error as Error).message}\n`);
      return 2;
    }
  } else (report ?? io.stdout)(output);
  if (problems.length || results.some((r) => r.failures.length)) return 2;
  if (options.diff) return output.length > 0 && !options.exitZero ? 1 : 0;
  if (options.exitZero) return 0;
  const all = results.flatMap((r) => r.findings);
  const errors = all.filter((f) => f.severity === 'error').length;
  const warnings = all.filter((f) => f.severity === 'warning').length;
  if (errors > 0) return 1;
  if (options.maxWarnings !== undefined && options.maxWarnings >= 0 && warnings > options.maxWarnings) {
    io.stderr(`rollout-lint: ${warnings} warning${warnings === 1 ? '' : 's'} found, more than --max-warnings ${options.maxWarnings} allows\n`);
    return 1;
  }
  return 0;
}

/** The note when every named file is of a type Rollout Lint does not read (stderr; the exit code stays 0). */
function nothingToLint(locale: Locale, otherTypes: string[]): string {
  if (locale === 'zh-CN') {
    const which = otherTypes.length === 1 ? otherTypes[0] : `${otherTypes.length} 个指定的文件`;
    return `没有可检查的文件（${which}不是 Rollout Lint 读取的文件类型：.env、YAML、JSON、Python、shell）`;
  }
  const which = otherTypes.length === 1 ? `${otherTypes[0]} is not a file type` : `${otherTypes.length} named files are not file types`;
  return `nothing to lint (${which} Rollout Lint reads: .env, YAML, JSON, Python, shell)`;
}

function fix(options: LintCommandOptions): boolean {
  return !!(options.fix || options.fixUnsafe);
}

/** `absPath` relative to the working directory when inside it, else as given. */
function displayPath(cwd: string, absPath: string): string {
  const rel = posixRelative(cwd, absPath);
  return rel.startsWith('..') ? absPath : rel;
}

/** The lint options from a file's index pass: its extraction to reuse and the budget it spent (one budget per file in every phase). */
function indexedFor(indexed: IndexedFile | undefined): Pick<LintFileOptions, 'reuse' | 'spent'> {
  if (!indexed) return {};
  return { ...(indexed.extraction ? { reuse: { text: indexed.text, extraction: indexed.extraction } } : {}), ...(indexed.spent ? { spent: indexed.spent } : {}) };
}
