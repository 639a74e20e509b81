import { resolve } from 'node:path';
import { DEFAULT_CONFIG } from '../core/config/config';
import { normalizeLocale, type Locale } from '../core/messages/locale';
import { RULES } from '../core/rules/index';
import { loadGrammars } from '../node/grammars';
import { NodeWorkspaceFacts } from '../node/facts';
import { lintFile, type FileResult } from '../node/lint-file';
import { walk } from '../node/walk';
import { FORMATTERS, type FormatName } from './format/index';
import type { CliIo } from './io';

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
}

/**
 * Lints `paths` (default `.`) and prints the chosen format on stdout; walk problems and rule
 * failures go to stderr. Exit code per DESIGN (ESLint's): 0 clean or warnings within
 * `--max-warnings`; 1 errors or too many warnings; 2 usage, config or internal error.
 */
export async function runLint(paths: string[], options: LintCommandOptions, io: CliIo): Promise<number> {
  const locale: Locale = normalizeLocale(options.lang ?? io.env.LC_ALL ?? io.env.LC_MESSAGES ?? io.env.LANG);
  const unknown = (options.rule ?? []).filter((id) => !RULES.some((r) => r.meta.id === id));
  if (unknown.length) {
    io.stderr(`rollout-lint: unknown rule id ${unknown.join(', ')} (see "rollout-lint rules")\n`);
    return 2;
  }
  const root = io.cwd;
  const facts = new NodeWorkspaceFacts(root);
  const config = DEFAULT_CONFIG;
  const grammars = await loadGrammars();
  const { files, problems } = walk(paths.length ? paths : ['.'], root, facts, { noIgnore: !options.ignore, config });
  for (const p of problems) io.stderr(`rollout-lint: ${p.path}: ${p.message}\n`);
  const explicit = new Set(paths.map((p) => resolve(root, p)));
  const results: FileResult[] = [];
  for (const file of files) {
    const result = lintFile(file.absPath, file.relPath, {
      grammars,
      config,
      facts,
      locale,
      onlyRules: options.rule?.length ? options.rule : undefined,
      fix: options.fixUnsafe ? 'unsafe' : options.fix ? 'safe' : undefined,
      force: explicit.has(file.absPath),
      maxFileBytes: config.maxFileBytes,
    });
    for (const f of result.failures) io.stderr(`rollout-lint: ${file.relPath}: internal error in ${f.ruleId}: ${f.error.split('\n')[0]}\n`);
    results.push(result);
  }
  io.stdout(FORMATTERS[options.format]({ results, includeHints: !!options.includeHints, quiet: !!options.quiet, color: options.color ?? false, root }));
  if (problems.length || results.some((r) => r.failures.length)) return 2;
  if (options.exitZero) return 0;
  const all = results.flatMap((r) => r.findings);
  const errors = all.filter((f) => f.severity === 'error').length;
  const warnings = all.filter((f) => f.severity === 'warning').length;
  if (errors > 0) return 1;
  if (options.maxWarnings !== undefined && options.maxWarnings >= 0 && warnings > options.maxWarnings) return 1;
  return 0;
}
