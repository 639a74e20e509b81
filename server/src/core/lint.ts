import type { Extraction, Finding, Format, Range, Severity, TextEdit } from './model/types';
import { emptyExtraction } from './model/types';
import type { WorkspaceFacts } from './model/facts';
import type { VerifiedEndpoint } from './model/verified';
import { NO_FACTS } from './model/facts';
import type { LintConfig } from './config/config';
import { DEFAULT_CONFIG } from './config/config';
import type { Grammars } from './formats/treesitter';
import { extract } from './formats/index';
import { resolve, type Resolution } from './resolve/resolve';
import { formatOf } from './files';
import type { Locale } from './messages/locale';
import { formatMessage } from './messages/locale';
import { surfacePhrases, type Surface } from './messages/surface';
import type { FixReport, LintDocument, Rule, RuleContext } from './rules/rule';
import { RULES } from './rules/index';
import { applyPrecedence } from './rules/precedence';
import { applySuppressions } from './suppress';
import { matchLineBreaks, minimizeEdit } from './fix';
import { fixKeepsMeaning } from './fix-check';
import { secretRanges } from './secrets';
import { documentSecrets, redact } from './redact';
import { BudgetExceeded, DEFAULT_BUDGET, spend, withBudget, type LintBudget } from './budget';

/** Everything a lint run needs besides the document. */
export interface LintOptions {
  grammars: Grammars;
  config?: LintConfig;
  facts?: WorkspaceFacts;
  locale?: Locale;
  /** Which commands messages may name (`{testConnection}`); `cli` when absent. */
  surface?: Surface;
  /** Restricts the run to these rule ids (CLI `--rule`); all registered rules when absent. */
  onlyRules?: readonly string[];
  /** Also report `rollout-lint-disable-*` directives that suppressed nothing (`--report-unused-disable-directives`). */
  reportUnusedDisableDirectives?: boolean;
  /** Per-file time and node budget (default `DEFAULT_BUDGET`); over it the outcome is one `skipped-file` finding. */
  budget?: LintBudget;
  /** Probe results the editor kept for this workspace (Test TaoToken Connection); rules may upgrade or drop findings they prove. */
  verified?: readonly VerifiedEndpoint[];
}

/** A rule that threw: the run goes on without its findings; the CLI exits 2, the server logs it. */
export interface RuleFailure {
  ruleId: string;
  error: string;
}

export interface LintOutcome {
  document: LintDocument;
  findings: Finding[];
  extraction: Extraction;
  resolution: Resolution;
  failures: RuleFailure[];
  /** Spans holding keys or URL credentials, for hosts that echo source text (see `secretRanges`). */
  secrets: Range[];
}

/** Removes a leading U+FEFF; core offsets are into the text after it. */
export function stripBom(text: string): { text: string; hadBom: boolean } {
  return text.charCodeAt(0) === 0xfeff ? { text: text.slice(1), hadBom: true } : { text, hadBom: false };
}

/** The effective severity of a rule under `config`, or `off`. */
export function ruleLevel(rule: Rule, config: LintConfig): Severity | 'off' {
  return config.rules[rule.meta.id] ?? rule.meta.defaultSeverity;
}

function render(rule: Rule, locale: Locale, id: string, data: Record<string, string | number> = {}, surface?: Surface): string {
  const template = rule.messages[locale][id] ?? rule.messages.en[id];
  return template === undefined ? `${rule.meta.id}: ${id}` : formatMessage(template, { ...surfacePhrases(locale, surface), ...data }, locale);
}

/**
 * Lints one document. `path` decides the format unless `format` is given; `text` may start with a
 * BOM (removed; all offsets in the outcome are into the BOM-less text). Never throws for any input; over the per-file budget (`options.budget`) the outcome is one `skipped-file` finding:
 * extractor failures become `parse-error` findings and rule failures are listed in `failures`.
 * Throws only when `path` has no known format and `format` is absent.
 */
export function lintDocument(input: { path: string; text: string; format?: Format }, options: LintOptions): LintOutcome {
  const budget = options.budget ?? DEFAULT_BUDGET;
  try {
    return withBudget(budget, () => lintWithinBudget(input, options));
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    const { text } = stripBom(input.text);
    const document: LintDocument = { path: input.path.replace(/\\/g, '/'), text, format: input.format ?? formatOf(input.path)! };
    const rule = RULES.find((r) => r.meta.id === 'skipped-file')!;
    const locale = options.locale ?? 'en';
    const data = { budget: error.reason === 'time' ? `${budget.timeMs} ms` : `${budget.maxNodes} syntax nodes`, reason: error.reason };
    const finding: Finding = { ruleId: 'skipped-file', severity: 'warning', messageId: 'budget', data, message: render(rule, locale, 'budget', data), range: { start: 0, end: 0 }, fixes: [] };
    return { document, findings: [finding], extraction: emptyExtraction(), resolution: resolve(emptyExtraction(), options.config ?? DEFAULT_CONFIG), failures: [], secrets: secretRanges(emptyExtraction(), text) };
  }
}

function lintWithinBudget(input: { path: string; text: string; format?: Format }, options: LintOptions): LintOutcome {
  const config = options.config ?? DEFAULT_CONFIG;
  const locale = options.locale ?? 'en';
  const facts = options.facts ?? NO_FACTS;
  const format = input.format ?? formatOf(input.path);
  if (!format) throw new Error(`no format known for ${input.path}`);
  const { text } = stripBom(input.text);
  const document: LintDocument = { path: input.path.replace(/\\/g, '/'), text, format };

  let extraction: Extraction;
  try {
    extraction = extract(format, text, document.path, options.grammars);
  } catch (error) {
    if (error instanceof BudgetExceeded) throw error;
    extraction = emptyExtraction();
    extraction.parseProblems.push({ message: `could not parse: ${(error as Error).message}`, range: { start: 0, end: Math.min(text.length, 1) } });
  }
  const resolution = resolve(extraction, config);

  const findings: Finding[] = [];
  const failures: RuleFailure[] = [];
  /** A syntax error in a structured file may shift what the parser saw: offer no edits into it (as ESLint does on a fatal parse error). */
  const fixesAllowed = format === 'dotenv' || extraction.parseProblems.length === 0;
  for (const rule of RULES) {
    if (options.onlyRules && !options.onlyRules.includes(rule.meta.id)) continue;
    const level = ruleLevel(rule, config);
    if (level === 'off' || !rule.meta.formats.includes(format)) continue;
    const context: RuleContext = {
      document,
      extraction,
      resolution,
      config,
      facts,
      locale,
      verified: options.verified ?? [],
      t: (id, data) => render(rule, locale, id, data, options.surface),
      report(r) {
        findings.push({
          ruleId: rule.meta.id,
          severity: r.severity && level === rule.meta.defaultSeverity ? r.severity : level,
          messageId: r.messageId,
          data: r.data ?? {},
          message: render(rule, locale, r.messageId, r.data, options.surface),
          range: r.range,
          subject: r.subject,
          fixes: (fixesAllowed ? r.fixes ?? [] : [])
            .filter((fix: FixReport) => fix.edits.every((e) => e !== undefined))
            .filter((fix: FixReport) => !fix.edits.some((e) => e?.intendedValue !== undefined) || fixKeepsMeaning(format, document.path, text, extraction, fix.edits as TextEdit[], options.grammars))
            .map((fix: FixReport) => ({
              title: render(rule, locale, fix.titleId, fix.data),
              safety: fix.safety,
              edits: matchLineBreaks(fix.edits as TextEdit[], text).flatMap((e) => minimizeEdit(e, text)),
            }))
            .filter((fix) => fix.edits.length > 0),
        });
      },
    };
    try {
      spend(0, true);
      rule.check(context);
    } catch (error) {
      if (error instanceof BudgetExceeded) throw error;
      failures.push({ ruleId: rule.meta.id, error: (error as Error).stack ?? String(error) });
    }
  }
  const kept = applySuppressions(applyPrecedence(findings), extraction.comments, document, { locale, config, onlyRules: options.onlyRules, reportUnused: options.reportUnusedDisableDirectives });
  kept.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end || a.ruleId.localeCompare(b.ruleId));
  const known = documentSecrets(extraction);
  for (const f of kept) {
    f.message = redact(f.message, known);
    for (const [k, v] of Object.entries(f.data)) if (typeof v === 'string') f.data[k] = redact(v, known);
    for (const fix of f.fixes) fix.title = redact(fix.title, known);
  }
  return { document, findings: kept, extraction, resolution, failures: failures.map((x) => ({ ...x, error: redact(x.error, known) })), secrets: secretRanges(extraction, text) };
}
