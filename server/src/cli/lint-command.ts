import { WRITE_REFUSAL } from '../node/write-guard';
import { loadModelLists } from '../node/models-cache';
import { dirname, isAbsolute, resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import { mergeConfig } from '../core/config/config';
import { globMatcher } from '../core/glob';
import type { Locale } from '../core/messages/locale';
import { RULES } from '../core/rules/index';
import { ConfigError, invalidate, loadConfigForDirectory, readConfigFile, refusedGlobs, type LoadedConfig } from '../node/config';
import type { RuleLevel } from '../core/config/config';
import type { Finding } from '../core/model/types';
import type { EnvIndex } from '../core/workspace/env-index';
import { Baseline, BaselineError } from './baseline';
import { skippedNote } from './format/text';
import { loadGrammars } from '../node/grammars';
import { NodeWorkspaceFacts } from '../node/facts';
import { lintBytes, lintFile, type FileResult, type LintFileOptions, type PreRead } from '../node/lint-file';
import { posixRelative, ProjectLocator, type FileProject } from '../node/project';
import { walk, type WalkedFile } from '../node/walk';
import { unifiedDiff } from './diff';
import { KEPT_EXTRACTIONS_BYTES, KeptExtractions, type IndexedFile } from '../node/env-index';
import { indexForLint } from '../node/index-scope';
import { indexFileCached, LintCacheRun, lintFileCached } from '../node/lint-cache-run';
import { VERSION } from './version';
import { FORMATTERS, type FormatName } from './format/index';
import { rootRelativePath } from './format/types';
import { formatStatistics } from './format/statistics';
import { cliLocale, useColor, type CliIo } from './io';
import { Progress } from './progress';
import { escapeForLine, sanitizeForTerminal } from './sanitize';

/** Options of `rollout-lint [paths…]`, as commander parses them. */
export interface LintCommandOptions {
  format: FormatName;
  /** ruff's spelling of `--format`; wins when both are given. */
  outputFormat?: FormatName;
  fix?: boolean;
  fixUnsafe?: boolean;
  diff?: boolean;
  exitZero?: boolean;
  includeHints?: boolean;
  quiet?: boolean;
  maxWarnings?: number;
  /** `--rule ID` (run only this rule) or ESLint's `--rule 'ID: off|error|warning|hint'` / `--rule '{"ID": "off"}'` (set its level). */
  rule?: string[];
  /** ruff's `--select ID[,ID]`: run only these rules. */
  select?: string[];
  /** ruff's `--ignore ID[,ID]` (`rules` turned off), collected by main.ts beside `--no-ignore`. */
  ignoreRules?: string[];
  lang?: string;
  /** `false` with `--no-ignore` (lint git-ignored files too). */
  ignore?: boolean;
  color?: boolean;
  reportUnusedDisableDirectives?: boolean;
  stdinFilename?: string;
  outputFile?: string;
  statistics?: boolean;
  candidatesOnly?: boolean;
  /** `--config FILE`: this configuration for every file, no lookup. */
  config?: string;
  /** `false` with `--no-config-lookup`: the defaults for every file. */
  configLookup?: boolean;
  /** `--print-config FILE`: print the configuration that applies to FILE and lint nothing. */
  printConfig?: string;
  /** `--baseline FILE`: findings recorded there are not reported. */
  baseline?: string;
  /** `--update-baseline`: (re)write `--baseline` with the findings of this run. */
  updateBaseline?: boolean;
  /** `--prune-baseline`: drop entries of `--baseline` that no finding matches any more. */
  pruneBaseline?: boolean;
  /**
   * `--index-scope`: which files the env index reads. `project` (default): each linted file's whole
   * project; `named`: only the files this run lints (pre-commit's staged files: fast, and cross-file
   * findings between them are still found; those needing an unstaged file are left to the full run in CI).
   */
  indexScope?: 'project' | 'named';
  /** `false` with `--no-cache`: read and write no cache (`node/lint-cache.ts`). */
  cache?: boolean;
  /** `--cache-location DIR`: the cache folder instead of `<project root>/.rollout-lint-cache`. */
  cacheLocation?: string;
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

const LEVELS: Record<string, RuleLevel> = { off: 'off', '0': 'off', error: 'error', '2': 'error', warning: 'warning', warn: 'warning', '1': 'warning', hint: 'hint', info: 'hint' };

/**
 * The rule selection of the command line: `only` (rules to run, from plain `--rule ID` and
 * `--select`) and `levels` (per-rule levels over every config, from `--rule 'ID: LEVEL'`, ESLint's
 * JSON form `--rule '{"ID": "off"}'`, and `--ignore ID` = off). Throws `UsageError` for unknown ids or levels.
 */
export function ruleSelection(options: Pick<LintCommandOptions, 'rule' | 'select' | 'ignoreRules'>): { only?: string[]; levels: Record<string, RuleLevel> } {
  const only: string[] = [];
  const levels: Record<string, RuleLevel> = {};
  const split = (values: string[] | undefined) => (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  const level = (id: string, raw: unknown) => {
    const value = String(Array.isArray(raw) ? raw[0] : raw).trim().toLowerCase();
    if (!(value in LEVELS)) throw new UsageError(`--rule ${id}: unknown level "${value}" (use off, error, warning or hint)`);
    levels[id] = LEVELS[value];
  };
  for (const value of options.rule ?? []) {
    const text = value.trim();
    if (text.startsWith('{')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new UsageError(`--rule ${text}: not valid JSON`);
      }
      for (const [id, raw] of Object.entries(parsed as Record<string, unknown>)) level(id, raw);
    } else if (text.includes(':')) {
      const at = text.indexOf(':');
      level(text.slice(0, at).trim(), text.slice(at + 1));
    } else only.push(text);
  }
  only.push(...split(options.select));
  for (const id of split(options.ignoreRules)) levels[id] = 'off';
  const unknown = [...only, ...Object.keys(levels)].filter((id) => !RULES.some((r) => r.meta.id === id));
  if (unknown.length) throw new UsageError(`unknown rule id ${[...new Set(unknown)].join(', ')} (see "rollout-lint rules")`);
  return { only: only.length ? only : undefined, levels };
}

/**
 * Lints `paths` (default `.`; `-` or `--stdin-filename` alone: standard input) and prints the chosen
 * format on stdout (or `--output-file`); walk problems, rule failures and configuration errors go to
 * stderr. Each file is judged from its own folders (see `ProjectLocator`): its nearest
 * `.rolloutlintrc.json` (up to its git work tree), globs relative to its project root, git facts of
 * its own work tree, and the env index (definitions and reads across files) of its own project;
 * so the working directory changes only how paths are printed. Named files of a type Rollout Lint
 * does not read are skipped quietly. `--fix`/`--diff` apply only the fixes of findings the report
 * shows (hints only with `--include-hints` or `--rule`, errors only with `--quiet`, nothing the baseline holds).
 * Exit code per DESIGN (ESLint's): 0 clean or warnings within `--max-warnings`; 1 errors or too many
 * warnings (with `--diff`: some file would change); 2 usage, config or internal error (a bad config
 * prints `file:line:col: $.path: reason` and nothing on stdout).
 */
export async function runLint(paths: string[], options: LintCommandOptions, io: CliIo): Promise<number> {
  try {
    return await lint(paths, options, io);
  } catch (error) {
    if (error instanceof UsageError || error instanceof BaselineError) {
      io.stderr(`rollout-lint: ${error.message}\n`);
      return 2;
    }
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(`rollout-lint: ${NOTES[cliLocale(options.lang, io.env)].invalidConfig}\n${error.message}\n`);
    return 2;
  }
}

/** Fixable findings the run left alone, by reason (the summary line names them). */
export interface SkippedFixes {
  /** In git-ignored files not named on the command line. */
  gitIgnored: number;
  /** Only an unsafe fix, and `--fix` (not `--fix-unsafe`) was given. */
  unsafe: number;
}

async function lint(paths: string[], optionsIn: LintCommandOptions, io: CliIo): Promise<number> {
  const options: LintCommandOptions = { ...optionsIn, format: optionsIn.outputFormat ?? optionsIn.format };
  const locale: Locale = cliLocale(options.lang, io.env);
  const selection = ruleSelection(options);
  // Rules named on the command line are shown whatever their severity: their hints too.
  const includeHints = !!options.includeHints || selection.only !== undefined;
  const stdin = paths.includes('-') || (options.stdinFilename !== undefined && paths.length === 0);
  if (stdin && options.stdinFilename === undefined) throw new UsageError('reading standard input ("-") needs --stdin-filename PATH, which decides the format and the configuration');
  if (stdin && paths.some((p) => p !== '-')) throw new UsageError('"-" (standard input) cannot be combined with other paths');
  if (options.statistics && options.format !== 'text' && options.format !== 'json') throw new UsageError('--statistics prints text or JSON (--format text|json)');
  if (options.diff && (options.format !== 'text' || options.statistics)) throw new UsageError('--diff prints a unified diff; it takes no --format or --statistics');
  if ((options.updateBaseline || options.pruneBaseline) && !options.baseline) throw new UsageError('--update-baseline and --prune-baseline need --baseline FILE');
  if (options.config !== undefined && options.configLookup === false) throw new UsageError('--config and --no-config-lookup exclude each other');
  const fix = options.fixUnsafe ? 'unsafe' : options.fix || options.diff ? 'safe' : undefined;
  const cwd = io.cwd;
  invalidate();
  const override: LoadedConfig | undefined =
    options.config !== undefined ? { config: mergeConfig(readConfigFile(resolve(cwd, options.config))), source: resolve(cwd, options.config) } : options.configLookup === false ? { config: mergeConfig() } : undefined;
  const locator = new ProjectLocator(cwd, override);
  const withLevels = new WeakMap<LoadedConfig, LoadedConfig>();
  /** The file's config with the command line's rule levels over it. */
  const effective = (loaded: LoadedConfig): LoadedConfig => {
    if (Object.keys(selection.levels).length === 0) return loaded;
    let out = withLevels.get(loaded);
    if (!out) withLevels.set(loaded, (out = { ...loaded, config: { ...loaded.config, rules: { ...loaded.config.rules, ...selection.levels } } }));
    return out;
  };
  if (options.printConfig !== undefined) {
    const target = resolve(cwd, options.printConfig);
    const project = locator.projectOf(target);
    const { config, source } = effective(project.loaded);
    io.stdout(`${JSON.stringify({ file: displayPath(cwd, target), configFile: source ?? null, projectRoot: project.root, ...config }, null, 2)}\n`);
    return 0;
  }
  const baseline = options.baseline !== undefined ? Baseline.load(resolve(cwd, options.baseline), !!options.updateBaseline) : undefined;
  const shown = (f: Finding) => (options.quiet ? f.severity === 'error' : f.severity !== 'hint' || includeHints);
  /** A fix pass may apply only the fixes of findings the report will show. */
  const selectFixable = (absPath: string) => (findings: readonly Finding[], text: string) => {
    const held = baseline && !options.updateBaseline ? baseline.matches(absPath, findings, text) : undefined;
    return findings.filter((f, i) => shown(f) && !held?.[i]);
  };
  const factsByRoot = new Map<string, NodeWorkspaceFacts>();
  const factsFor = (root: string) => {
    let facts = factsByRoot.get(root);
    if (!facts) factsByRoot.set(root, (facts = new NodeWorkspaceFacts(root)));
    return facts;
  };
  const grammars = await loadGrammars();
  const modelLists = loadModelLists(io.env);
  const fileOptions = (absPath: string, lintPath: string, loaded: LoadedConfig, root: string, force: boolean): LintFileOptions => ({
    grammars,
    config: effective(loaded).config,
    facts: factsFor(root),
    locale,
    onlyRules: selection.only,
    reportUnusedDisableDirectives: !!options.reportUnusedDisableDirectives,
    fix,
    write: !options.diff,
    force,
    maxFileBytes: loaded.config.maxFileBytes,
    lintPath,
    selectFixable: selectFixable(absPath),
    modelLists,
  });

  const results: FileResult[] = [];
  const problems: string[] = [];
  const skipped: SkippedFixes = { gitIgnored: 0, unsafe: 0 };
  const notFixable = new Set<FileResult>();
  let otherTypes: string[] = [];
  if (stdin) {
    const absPath = resolve(cwd, options.stdinFilename!);
    const project = locator.projectOf(absPath);
    const bytes = io.readStdin ? await io.readStdin() : new Uint8Array();
    if (ignoredBy(project.loaded, posixRelative(project.ignoreBase, absPath))) {
      // An editor piping through `--fix` gets its text back unchanged.
      if (fix && !options.diff) io.stdout(Buffer.from(bytes).toString('utf8'));
    } else {
      const result = lintBytes(bytes, absPath, displayPath(cwd, absPath), fileOptions(absPath, project.lintPath, project.loaded, project.root, !options.candidatesOnly));
      if (result.format) results.push(result);
      else otherTypes = [options.stdinFilename!];
      if (fix && !options.diff) {
        // ruff's habit: with --fix, standard input comes back fixed on stdout; the report goes to stderr.
        io.stdout(result.text ?? Buffer.from(bytes).toString('utf8'));
        applyBaseline(baseline, results, options, io, locale);
        return finish(results, options, io, locale, cwd, problems, otherTypes, includeHints, skipped, io.stderr);
      }
    }
  } else {
    const progress = new Progress(io, locale);
    progress.phase('walk');
    // The walk prunes with `ignore` globs only of a config in the working directory itself: its globs
    // are relative to that folder, as the walk's paths are. Every file is checked against its own config below.
    const cwdConfig = override ?? loadConfigForDirectory(cwd, locator.workTreeOf(cwd) ?? cwd);
    const pruningFor = (dir: string, loaded: LoadedConfig) => (loaded.source && resolve(dirname(loaded.source)) === resolve(dir) ? loaded.config : mergeConfig());
    const walked = walk(paths.length ? paths : ['.'], cwd, factsFor(cwd), { noIgnore: options.ignore === false, config: pruningFor(cwd, cwdConfig) });
    otherTypes = walked.otherTypes;
    for (const p of walked.problems) problems.push(`${escapeForLine(p.path)}: ${escapeForLine(p.message)}`);
    const explicit = new Set(paths.map((p) => resolve(cwd, p)));
    // The env index (definitions and reads across files) of each linted file covers that file's own
    // project (its git work tree, else the folder of its config), whatever the working directory and
    // whichever paths are named: `rollout-lint`, `rollout-lint ..` and `rollout-lint /repo` from a
    // subfolder or from elsewhere report the same cross-file findings. A file in no project (a home or
    // temp folder) is indexed with the other named files outside projects only: `rollout-lint a.env`
    // there must not read everything below. Files are keyed by the path the rules see; their parses are reused by the lint.
    // [cache hook 1/4] The persistent cache (issue 27 item 2): per project root, unless --no-cache.
    const cache = options.cache === false ? undefined : LintCacheRun.open(options.cacheLocation === undefined ? undefined : resolve(cwd, options.cacheLocation), VERSION, io.env);
    const byRoot = new Map<string, { kind: FileProject['kind']; files: WalkedFile[] }>();
    for (const file of walked.files) {
      const project = locator.projectOf(file.absPath);
      const key = project.kind === 'none' ? '' : project.root;
      let group = byRoot.get(key);
      if (!group) byRoot.set(key, (group = { kind: project.kind, files: [] }));
      group.files.push(file);
    }
    const whole = paths.length === 0 || (paths.length === 1 && resolve(cwd, paths[0]) === resolve(cwd));
    const indexes = new Map<string, EnvIndex>();
    const extractions = new Map<string, Map<string, IndexedFile>>();
    // Without the persistent cache, what the index pass read of each file (by project and lint path), so the lint pass reads nothing again.
    const preReads = new Map<string, Map<string, PreRead>>();
    // `named`: the project's files this run lints when the index covers more (its other files are indexed only when they can matter to these: `indexForLint`).
    const toIndex: { key: string; files: WalkedFile[]; named?: WalkedFile[] }[] = [];
    for (const [key, group] of byRoot) {
      let files = group.files.map((f) => ({ ...f, relPath: locator.projectOf(f.absPath).lintPath }));
      let named: WalkedFile[] | undefined;
      if (group.kind !== 'none' && options.indexScope !== 'named' && !(whole && resolve(key) === resolve(cwd))) {
        const rootConfig = override ?? loadConfigForDirectory(key, locator.workTreeOf(key) ?? key);
        named = files;
        files = walk(['.'], key, factsFor(key), { noIgnore: options.ignore === false, config: pruningFor(key, rootConfig) }).files.flatMap((f) => {
          const project = locator.projectOf(f.absPath);
          return key === project.root ? [{ ...f, relPath: project.lintPath }] : [];
        });
      }
      toIndex.push({ key, files, named });
    }
    progress.start('index', toIndex.reduce((n, g) => n + g.files.length, 0));
    for (const { key, files, named } of toIndex) {
      // A named-file run keeps every extraction: its scope reads them (`indexForLint`), and it indexes only what can matter.
      const keep = named ? new Map<string, IndexedFile>() : new KeptExtractions(KEPT_EXTRACTIONS_BYTES);
      // [cache hook 2/4] facts kept for the same bytes and configuration are not parsed again (a whole-tree index; a named-file run indexes only what can reach its files).
      const store = cache?.storeFor(key);
      const reads = store ? undefined : new Map<string, PreRead>();
      const { index } = indexForLint(files, named, grammars, (file) => effective(locator.projectOf(file.absPath).loaded).config, keep, {
        tick: (file) => progress.tick(file.relPath),
        indexWhole: store && ((idx, file, config, kept) => indexFileCached(idx, file, grammars, config, kept, store)),
        reads,
      });
      indexes.set(key, index);
      extractions.set(key, keep);
      if (reads) preReads.set(key, reads);
    }
    progress.start('lint', walked.files.length);
    for (const file of walked.files) {
      progress.tick(file.relPath);
      const project = locator.projectOf(file.absPath);
      if (ignoredBy(project.loaded, posixRelative(project.ignoreBase, file.absPath))) continue;
      const key = project.kind === 'none' ? '' : project.root;
      const named = explicit.has(file.absPath);
      // A git-ignored file (a local .env) is linted but only rewritten (or diffed) when named on the command line.
      const fixable = fix !== undefined && (named || factsFor(project.root).gitState(file.absPath) !== 'ignored');
      const keep = extractions.get(key);
      const reads = preReads.get(key);
      const lintOptions: LintFileOptions = {
        ...fileOptions(file.absPath, project.lintPath, project.loaded, project.root, named && !options.candidatesOnly),
        fix: fixable ? fix : undefined,
        env: indexes.get(key)?.viewFor(project.lintPath),
        ...indexedFor(keep?.get(project.lintPath)),
        preRead: reads?.get(project.lintPath),
      };
      // [cache hook 3/4] a result kept for the same bytes, options and cross-file answers is reused.
      const result = cache && !fix ? lintFileCached(file.absPath, file.relPath, lintOptions, cache.storeFor(key)) : lintFile(file.absPath, file.relPath, lintOptions);
      keep?.delete(project.lintPath);
      reads?.delete(project.lintPath);
      // Streaming: a result without findings keeps no text until the report (formatters, the baseline and fixes read text only for findings).
      if (fix === undefined && result.findings.length === 0) {
        result.text = undefined;
        result.secrets = undefined;
      }
      if (result.notFixed) io.stderr(`rollout-lint: ${NOTES[locale].notFixed(escapeForLine(file.relPath), result.notFixed)}\n`);
      else if (result.fixedPasses && !options.diff) io.stderr(`rollout-lint: ${NOTES[locale].fixed(escapeForLine(file.relPath))}\n`);
      else if (fix && !fixable) {
        const eligible = new Set(selectFixable(file.absPath)(result.findings, result.text ?? ''));
        const left = result.findings.filter((f) => eligible.has(f) && f.fixes.some((x) => x.edits.length > 0 && (x.safety === 'safe' || fix === 'unsafe'))).length;
        notFixable.add(result);
        if (left > 0) {
          skipped.gitIgnored += left;
          io.stderr(`rollout-lint: ${NOTES[locale].gitIgnored(escapeForLine(file.relPath))}\n`);
        }
      }
      results.push(result);
    }
    // [cache hook 4/4]
    cache?.save();
    progress.done();
  }
  applyBaseline(baseline, results, options, io, locale);
  if (fix === 'safe') {
    for (const r of results) {
      if (!notFixable.has(r)) skipped.unsafe += r.findings.filter((f) => shown(f) && !f.fixes.some((x) => x.safety === 'safe' && x.edits.length > 0) && f.fixes.some((x) => x.edits.length > 0)).length;
    }
  }
  return finish(results, options, io, locale, cwd, problems, otherTypes, includeHints, skipped);
}

/**
 * `--baseline`: with `--update-baseline` writes every finding of the run (then none is reported);
 * else drops the findings the baseline holds from `results`, and with `--prune-baseline` rewrites
 * it without the entries that matched nothing. Notes go to stderr.
 */
function applyBaseline(baseline: Baseline | undefined, results: FileResult[], options: LintCommandOptions, io: CliIo, locale: Locale): void {
  if (!baseline) return;
  if (options.updateBaseline) {
    const n = baseline.update(results.filter((r) => !r.notCandidate));
    io.stderr(`rollout-lint: ${NOTES[locale].wroteBaseline(n, options.baseline!)}\n`);
    for (const r of results) r.findings = [];
    return;
  }
  for (const r of results) {
    if (r.notCandidate) continue;
    const hits = baseline.matches(r.absPath, r.findings, r.text, true);
    r.findings = r.findings.filter((_, i) => !hits[i]);
  }
  if (options.pruneBaseline) {
    const dropped = baseline.prune();
    io.stderr(`rollout-lint: ${NOTES[locale].pruned(dropped, options.baseline!)}\n`);
  } else {
    const stale = baseline.stale();
    if (stale > 0) io.stderr(`rollout-lint: ${NOTES[locale].stale(stale)}\n`);
  }
}

/** Prints the report (or diff, or statistics) and computes the exit code. */
function finish(
  results: FileResult[],
  options: LintCommandOptions,
  io: CliIo,
  locale: Locale,
  cwd: string,
  problems: string[],
  otherTypes: string[],
  includeHints: boolean,
  skipped: SkippedFixes,
  report?: (text: string) => void,
): number {
  for (const p of problems) io.stderr(`rollout-lint: ${locale === 'zh-CN' ? p.replace(/: no such file or directory$/, '：没有这个文件或文件夹') : p}\n`);
  // A refused glob is a configuration error (exit 2), but the rest of that configuration still applied.
  const refused = refusedGlobs();
  for (const e of refused) io.stderr(`rollout-lint: ${NOTES[locale].refusedGlobs}\n${e.message}\n`);
  for (const r of results) for (const f of r.failures) io.stderr(`rollout-lint: ${NOTES[locale].internalError(escapeForLine(r.relPath), f.ruleId, escapeForLine(f.error.split('\n')[0]))}\n`);
  if (results.length === 0 && otherTypes.length > 0 && problems.length === 0) io.stderr(`rollout-lint: ${nothingToLint(locale, otherTypes)}\n`);
  const toFile = options.outputFile !== undefined;
  const color = toFile ? options.color === true : useColor(options.color, io.env, io.isTTY);
  const sarifRoot = new ProjectLocator(cwd).workTreeOf(cwd) ?? cwd;
  let output: string;
  if (options.diff) {
    // Keys are masked on every line of the diff: those the linted file holds (by its parse, `r.secrets`) and any found by shape or evidence.
    const known = (r: FileResult) => (r.secrets ?? []).map((x) => r.text!.slice(x.start, x.end));
    output = results.filter((r) => r.originalText !== undefined && r.text !== undefined).map((r) => unifiedDiff(rootRelativePath(r, sarifRoot), r.originalText!, r.text!, known(r))).join('');
    const note = skippedNote(locale, skipped, false);
    if (note) io.stderr(`rollout-lint: ${note}\n`);
  } else if (options.statistics) {
    output = formatStatistics({ results, includeHints, quiet: !!options.quiet, color, root: sarifRoot, locale }, options.format === 'json');
  } else {
    const fixedFiles = results.filter((r) => r.fixedCount);
    const fixed = fix(options) ? { count: fixedFiles.reduce((n, r) => n + r.fixedCount!, 0), files: fixedFiles.length } : undefined;
    output = FORMATTERS[options.format]({ results, includeHints, quiet: !!options.quiet, color, root: sarifRoot, locale, fixed, skipped: fixed ? skipped : undefined });
    if (fixed && options.format !== 'text') {
      const note = skippedNote(locale, skipped, false);
      if (note) io.stderr(`rollout-lint: ${note}\n`);
    }
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
  if (problems.length || refused.length || results.some((r) => r.failures.length)) return 2;
  if (options.diff) return output.length > 0 && !options.exitZero ? 1 : 0;
  if (options.exitZero) return 0;
  const all = results.flatMap((r) => r.findings);
  const errors = all.filter((f) => f.severity === 'error').length;
  const warnings = all.filter((f) => f.severity === 'warning').length;
  if (errors > 0) return 1;
  if (options.maxWarnings !== undefined && options.maxWarnings >= 0 && warnings > options.maxWarnings) {
    io.stderr(`rollout-lint: ${NOTES[locale].maxWarnings(warnings, options.maxWarnings)}\n`);
    return 1;
  }
  return 0;
}

/** The note when every named file is of a type Rollout Lint does not read (stderr; the exit code stays 0). */
/** The CLI's notes on stderr (after `rollout-lint: `), in each locale; file names come escaped. */
const NOTES: Record<Locale, {
  fixed: (file: string) => string;
  gitIgnored: (file: string) => string;
  wroteBaseline: (n: number, file: string) => string;
  pruned: (n: number, file: string) => string;
  stale: (n: number) => string;
  maxWarnings: (n: number, max: number) => string;
  invalidConfig: string;
  refusedGlobs: string;
  /** `error` is the first line of the thrown message (a library's or Node's text, kept as it is). */
  internalError: (file: string, ruleId: string, error: string) => string;
  /** `reason` is `FileResult.notFixed` (`writeRefusal`'s English text; translated when known). */
  notFixed: (file: string, reason: string) => string;
}> = {
  en: {
    invalidConfig: 'invalid configuration',
    refusedGlobs: 'invalid configuration (these globs were left out; the rest applies)',
    internalError: (file, ruleId, error) => `${file}: internal error in ${ruleId}: ${error}`,
    notFixed: (file, reason) => `${file}: not fixed: ${reason}`,
    fixed: (file) => `fixed ${file}`,
    gitIgnored: (file) => `${file}: not fixed: git ignores it (name the file to fix it)`,
    wroteBaseline: (n, file) => `wrote ${n} finding${n === 1 ? '' : 's'} to the baseline ${file}`,
    pruned: (n, file) => `removed ${n} entr${n === 1 ? 'y' : 'ies'} no finding matches from the baseline ${file}`,
    stale: (n) => `${n} baseline entr${n === 1 ? 'y matches' : 'ies match'} no finding any more (fixed?); --prune-baseline removes ${n === 1 ? 'it' : 'them'}`,
    maxWarnings: (n, max) => `${n} warning${n === 1 ? '' : 's'} found, more than --max-warnings ${max} allows`,
  },
  'zh-CN': {
    invalidConfig: '配置无效',
    refusedGlobs: '配置无效（以下 glob 已被忽略，其余配置照常生效）',
    internalError: (file, ruleId, error) => `${file}：${ruleId} 内部错误：${error}`,
    notFixed: (file, reason) => `${file}：未修复：${reason === WRITE_REFUSAL ? '这是指向工作区外文件的符号链接，未写入' : reason}`,
    fixed: (file) => `已修复 ${file}`,
    gitIgnored: (file) => `${file}：未修复：该文件被 git 忽略（在命令行中指定该文件即可修复）`,
    wroteBaseline: (n, file) => `已将 ${n} 个问题写入基线 ${file}`,
    pruned: (n, file) => `已从基线 ${file} 中删除 ${n} 个不再匹配任何问题的条目`,
    stale: (n) => `基线中有 ${n} 个条目不再匹配任何问题（已修复？）；--prune-baseline 可删除它们`,
    maxWarnings: (n, max) => `发现 ${n} 个警告，超过了 --max-warnings ${max} 的上限`,
  },
};

function nothingToLint(locale: Locale, otherTypes: string[]): string {
  if (locale === 'zh-CN') {
    const which = otherTypes.length === 1 ? escapeForLine(otherTypes[0]) : `${otherTypes.length} 个指定的文件`;
    return `没有可检查的文件（${which}不是 Rollout Lint 读取的文件类型：.env、YAML、JSON、Python、shell）`;
  }
  const which = otherTypes.length === 1 ? `${escapeForLine(otherTypes[0])} is not a file type` : `${otherTypes.length} named files are not file types`;
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
