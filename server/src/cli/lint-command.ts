import { resolve } from 'node:path';
import { globMatcher } from '../core/glob';
import { normalizeLocale, type Locale } from '../core/messages/locale';
import { RULES } from '../core/rules/index';
import { ConfigError, invalidate, loadConfigFor, loadConfigForDirectory, type LoadedConfig } from '../node/config';
import { loadGrammars } from '../node/grammars';
import { NodeWorkspaceFacts } from '../node/facts';
import { lintFile, type FileResult } from '../node/lint-file';
import { walk } from '../node/walk';
import { FORMATTERS, type FormatName } from './format/index';
import type { CliIo } from './io';
import { sanitizeForTerminal } from './sanitize';

/** Options of `rollout-lint [paths…]`, as commander parses them. */
export interface LintCommandOptions {
  format: FormatName;
  fix?: boolean;
  fixUnsafe?: boolean;
  exitZero?: boolean;
  includeHints?: boolean;
  quiet?: boolean;
  maxWarnings?: number;
  rule?: string[];
  lang?: string;
  ignore: boolean;
  color?: boolean;
  reportUnusedDisableDirectives?: boolean;
}

const ignoreMatchers = new WeakMap<LoadedConfig, (path: string) => boolean>();

/** Whether the config's `ignore` globs match the workspace-relative path (matcher compiled once per config). */
function ignoredBy(loaded: LoadedConfig, relPath: string): boolean {
  if (loaded.config.ignore.length === 0) return false;
  let matcher = ignoreMatchers.get(loaded);
  if (!matcher) {
    matcher = globMatcher(loaded.config.ignore);
    ignoreMatchers.set(loaded, matcher);
  }
  return matcher(relPath);
}

/**
 * Lints `paths` (default `.`) and prints the chosen format on stdout; walk problems, rule failures
 * and configuration errors go to stderr. Each file uses its nearest `.rolloutlintrc.json` (up to the
 * working directory, the workspace root) merged over the defaults; its `ignore` globs skip the file.
 * Exit code per DESIGN (ESLint's): 0 clean or warnings within `--max-warnings`; 1 errors or too many
 * warnings; 2 usage, config or internal error (a bad config prints `file:line:col: $.path: reason`
 * and nothing on stdout).
 */
export async function runLint(paths: string[], options: LintCommandOptions, io: CliIo): Promise<number> {
  const locale: Locale = normalizeLocale(options.lang ?? io.env.LC_ALL ?? io.env.LC_MESSAGES ?? io.env.LANG);
  const unknown = (options.rule ?? []).filter((id) => !RULES.some((r) => r.meta.id === id));
  if (unknown.length) {
    io.stderr(`rollout-lint: unknown rule id ${unknown.join(', ')} (see "rollout-lint rules")\n`);
    return 2;
  }
  const root = io.cwd;
  invalidate();
  const facts = new NodeWorkspaceFacts(root);
  try {
    const rootConfig = loadConfigForDirectory(root, root);
    const grammars = await loadGrammars();
    const { files, problems } = walk(paths.length ? paths : ['.'], root, facts, { noIgnore: !options.ignore, config: rootConfig.config });
    for (const p of problems) io.stderr(`rollout-lint: ${p.path}: ${p.message}\n`);
    const explicit = new Set(paths.map((p) => resolve(root, p)));
    const fixMode = options.fixUnsafe ? 'unsafe' : options.fix ? 'safe' : undefined;
    const results: FileResult[] = [];
    for (const file of files) {
      const loaded = loadConfigFor(file.absPath, root);
      if (ignoredBy(loaded, file.relPath)) continue;
      const named = explicit.has(file.absPath);
      // A git-ignored file (a local .env) is linted but only rewritten when named on the command line.
      const fixable = fixMode !== undefined && (named || facts.gitState(file.absPath) !== 'ignored');
      const result = lintFile(file.absPath, file.relPath, {
        grammars,
        config: loaded.config,
        facts,
        locale,
        onlyRules: options.rule?.length ? options.rule : undefined,
        reportUnusedDisableDirectives: !!options.reportUnusedDisableDirectives,
        fix: fixable ? fixMode : undefined,
        force: named,
        maxFileBytes: loaded.config.maxFileBytes,
      });
      if (result.fixedPasses) io.stderr(`rollout-lint: fixed ${file.relPath}\n`);
      else if (fixMode && !fixable && result.findings.some((f) => f.fixes.some((x) => x.safety === 'safe' || fixMode === 'unsafe'))) {
        io.stderr(`rollout-lint: ${file.relPath}: not fixed: git ignores it (name the file to fix it)\n`);
      }
      for (const f of result.failures) io.stderr(`rollout-lint: ${file.relPath}: internal error in ${f.ruleId}: ${f.error.split('\n')[0]}\n`);
      results.push(result);
    }
    const printed = FORMATTERS[options.format]({ results, includeHints: !!options.includeHints, quiet: !!options.quiet, color: options.color ?? false, root, locale });
    // JSON and SARIF escape control characters themselves; the text formatter sanitises before colouring.
    io.stdout(options.format === 'github' ? sanitizeForTerminal(printed) : printed);
    if (problems.length || results.some((r) => r.failures.length)) return 2;
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
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(`rollout-lint: invalid configuration\n${error.message}\n`);
    return 2;
  }
}
