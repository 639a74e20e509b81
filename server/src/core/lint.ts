import type { Extraction, Finding, Fix, Format, ParseProblem, Range, Severity, TextEdit } from './model/types';
import { emptyExtraction } from './model/types';
import type { WorkspaceFacts } from './model/facts';
import type { ModelList, VerifiedEndpoint } from './model/verified';
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
import type { LintDocument, Rule, RuleContext } from './rules/rule';
import { RULES } from './rules/index';
import { applyPrecedence } from './rules/precedence';
import { applySuppressions } from './suppress';
import { matchLineBreaks, minimizeEdit } from './fix';
import { fixesKeepMeaning } from './fix-check';
import { secretRanges } from './secrets';
import { notebookSource, toNotebookExtraction, toNotebookFinding, toNotebookRange, type NotebookSource } from './formats/notebook';
import { lowerSeverity, renderEvidence, severityCap, type Evidence } from './evidence/evidence';
import { fileEvidence, fileSeverityCap } from './evidence/file';
import { blankTemplateActions, certainPartOfTemplate } from './evidence/template';
import { derivedEvidence } from './evidence/derive';
import { documentSecrets, redact } from './redact';
import { secretsIn } from './secret-index';
import { BudgetExceeded, DEFAULT_BUDGET, spend, withBudget, type BudgetSpent, type LintBudget } from './budget';
import { NO_ENV, withDocument, type EnvView } from './workspace/env-index';
import { envFactsOf } from './workspace/env-facts';
import { CONSUMER_RULES, finishCrossFile, importCrossFile } from './workspace/cross-file';

/** Rules whose findings are about the linter itself, not about values: still reported in test code. */
const KEPT_IN_TESTS = new Set(['disable-directive', 'skipped-file']);

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
  /** `/models` lists `rollout-lint ping` kept (CLI cache folder), for `model-not-served`. */
  modelLists?: readonly ModelList[];
  /** The workspace env index as this document sees it (definitions and reads in other files); none when absent. */
  env?: EnvView;
  /** An extraction of exactly this text made while indexing (BOM removed), reused instead of parsing again. */
  reuse?: { text: string; extraction: Extraction };
  /**
   * Notebooks only (set by `lintNotebook`): the range of the code cell holding an offset of the joined
   * source. Each cell is parsed on its own by Jupyter, so a syntax error hides nothing past its cell.
   */
  cellAt?: (offset: number) => Range;
  /** What earlier phases of this file (its index pass) spent of its budget: the lint gets the rest (issue 29 item 7). */
  spent?: BudgetSpent;
  /**
   * `false`: value fixes (edits carrying `intendedValue`) are not proven now but held in
   * `LintOutcome.unproven`, out of `Finding.fixes`, until `proveFixes` is called (issue 27 item 4: the
   * editor's diagnostics do not pay for a proof nobody asked for). Default `true`: proven during the lint.
   * Notebooks are always proven during the lint (their ranges are mapped onto the notebook afterwards).
   */
  proveFixes?: boolean;
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
  /** Value fixes held back for `proveFixes` (only with `LintOptions.proveFixes: false`); absent once proven or when there are none. */
  unproven?: UnprovenFixes;
}

/**
 * Value fixes a lint held back unproven (`LintOptions.proveFixes: false`). Keyed by the `Finding.fixes`
 * array they were taken out of (later phases copy a finding with `{...finding}`, which keeps the array):
 * `all` is that finding's complete fix list in the order the rule offered it, `pending` the held-back
 * fixes with the edits the proof checks. Everything else the proof needs is kept beside it.
 */
export interface UnprovenFixes {
  readonly lists: Map<Fix[], { all: Fix[]; pending: Map<Fix, TextEdit[]> }>;
  readonly format: Format;
  readonly path: string;
  readonly text: string;
  /** The extraction the fixes are proven against (the lint's own, before any later mapping). */
  readonly before: Extraction;
  budget: LintBudget;
  /** What the lint spent of the file's budget: the proof gets the rest, as when it ran inside the lint. */
  spent: BudgetSpent;
  readonly config?: LintConfig;
  readonly locale?: Locale;
}

/** Whether `finding` (of `outcome`) has fixes held back for `proveFixes`: it may have more fixes once proven. */
export function hasUnprovenFixes(outcome: LintOutcome, finding: Finding): boolean {
  return outcome.unproven?.lists.has(finding.fixes) ?? false;
}

/**
 * Proves the value fixes `outcome` holds back (`LintOptions.proveFixes: false`) with `fixesKeepMeaning`,
 * and puts the sound ones back into their findings' `fixes`, in the order the rules offered them: the
 * findings then equal those of a lint with `proveFixes: true`. Only fixes of findings still in
 * `outcome.findings` are proven. Changes `outcome` in place and returns it; does nothing the second
 * time. Over the file's budget (shared with the lint) it returns the `skipped-file` outcome the lint
 * would have returned.
 */
export function proveFixes(outcome: LintOutcome, grammars: Grammars): LintOutcome {
  const held = outcome.unproven;
  if (!held) return outcome;
  outcome.unproven = undefined;
  const live = [...new Set(outcome.findings.map((f) => f.fixes))].flatMap((fixes) => {
    const entry = held.lists.get(fixes);
    return entry ? [{ fixes, ...entry }] : [];
  });
  const checked = live.flatMap((l) => [...l.pending]);
  let sound: boolean[];
  try {
    const prove = () => {
      spend(0, true); // as in the lint, where the clock is read just before the proof
      return fixesKeepMeaning(held.format, held.path, held.text, held.before, checked.map(([, edits]) => edits), grammars);
    };
    sound = checked.length === 0 ? [] : withBudget(held.budget, prove, held.spent);
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    const budget = held.budget;
    return skippedOutcome({ path: outcome.document.path, text: held.text, format: outcome.document.format }, held, error.reason === 'time' ? `${budget.timeMs} ms` : `${budget.maxNodes} syntax nodes`, error.reason);
  }
  const unsound = new Set(checked.filter((_, i) => !sound[i]).map(([fix]) => fix));
  for (const l of live) l.fixes.splice(0, l.fixes.length, ...l.all.filter((fix) => !unsound.has(fix)));
  return outcome;
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
 * Throws only when `path` has no known format and `format` is absent. Severity follows evidence: a
 * finding is never above `severityCap` of its evidence's strength, whatever the configured level.
 * In test, fixture and mock code (`config.testGlobs`) values are fake on purpose: only
 * `disable-directive` and `skipped-file` are reported there.
 */
export function lintDocument(input: { path: string; text: string; format?: Format }, options: LintOptions): LintOutcome {
  const budget = options.budget ?? DEFAULT_BUDGET;
  const earlier = options.spent?.exceeded ?? (options.spent && options.spent.timeMs >= budget.timeMs ? 'time' : undefined);
  const over = (reason: 'time' | 'nodes', limit?: string) => limit ?? (reason === 'time' ? `${budget.timeMs} ms` : `${budget.maxNodes} syntax nodes`);
  if (earlier) return skippedOutcome(input, options, over(earlier, options.spent?.limit), earlier);
  try {
    const record: BudgetSpent = { timeMs: 0, nodes: 0 };
    const outcome = withBudget(budget, () => lintWithinBudget(input, options), options.spent, record);
    if (outcome.unproven) Object.assign(outcome.unproven, { budget, spent: record });
    return outcome;
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    return skippedOutcome(input, options, over(error.reason, error.limit), error.reason);
  }
}

/**
 * The outcome of a document that was not linted because it needed more than a budget: one
 * `skipped-file` finding (message id `budget`) naming `budget` (as shown: `5000 ms`, `2000000 syntax
 * nodes`, `1024 MB of memory`) and `reason` (`time`, `nodes`, `memory`), at offset 0.
 */
export function skippedOutcome(input: { path: string; text: string; format?: Format }, options: Pick<LintOptions, 'locale' | 'config'>, budget: string, reason: string): LintOutcome {
  const { text } = stripBom(input.text);
  const document: LintDocument = { path: input.path.replace(/\\/g, '/'), text, format: input.format ?? formatOf(input.path)! };
  const rule = RULES.find((r) => r.meta.id === 'skipped-file')!;
  const locale = options.locale ?? 'en';
  const data = { budget, reason };
  const finding: Finding = { ruleId: 'skipped-file', severity: 'warning', messageId: 'budget', data, message: render(rule, locale, 'budget', data), range: { start: 0, end: 0 }, fixes: [] };
  return { document, findings: [finding], extraction: emptyExtraction(), resolution: resolve(emptyExtraction(), options.config ?? DEFAULT_CONFIG), failures: [], secrets: secretRanges(emptyExtraction(), text) };
}

function lintWithinBudget(input: { path: string; text: string; format?: Format }, options: LintOptions): LintOutcome {
  const config = options.config ?? DEFAULT_CONFIG;
  const locale = options.locale ?? 'en';
  const facts = options.facts ?? NO_FACTS;
  const format = input.format ?? formatOf(input.path);
  if (!format) throw new Error(`no format known for ${input.path}`);
  const { text } = stripBom(input.text);
  const document: LintDocument = { path: input.path.replace(/\\/g, '/'), text, format };
  const notebook = format === 'notebook' ? notebookSource(text) : undefined;
  if (notebook && 'source' in notebook) return lintNotebook(document, notebook, options);

  const file = fileEvidence(document.path, config, text, format);
  let extraction: Extraction;
  const reused = options.reuse?.text === text ? options.reuse.extraction : undefined;
  try {
    extraction = reused && !notebook && !file.templated
      ? { ...reused, settings: [...reused.settings], consumerEvidence: [...reused.consumerEvidence], envReads: [...reused.envReads], parseProblems: [...reused.parseProblems] }
      : notebook
        ? notebookExtraction(notebook)
        : extract(format, file.templated ? blankTemplateActions(text, file.templated.actions) : text, document.path, options.grammars);
  } catch (error) {
    if (error instanceof BudgetExceeded) throw error;
    extraction = emptyExtraction();
    extraction.parseProblems.push({ message: `could not parse: ${(error as Error).message}`, range: { start: 0, end: Math.min(text.length, 1) } });
  }
  // A templated file (Helm, Jinja, cookiecutter) is not what its loader reads: lint what is certain, never its syntax.
  if (file.templated && !notebook) extraction = certainPartOfTemplate(extraction, file.templated.actions);
  if (options.cellAt) extraction.parseProblems = extraction.parseProblems.map((p) => withinCell(p, options.cellAt!));
  const env = options.env ?? NO_ENV;
  const crossFile = importCrossFile(extraction, document.path, env);
  const resolution = resolve(extraction, config, facts.clientPins?.(document.path) ?? []);
  const documentEnv = withDocument(env, envFactsOf(document.path, text, extraction, resolution.baseUrls));

  const findings: Finding[] = [];
  const failures: RuleFailure[] = [];
  /** Fixes that rewrite a value: offered only when `fixesKeepMeaning` proves them, checked together after the rules ran. */
  const valueFixes: { finding: Finding; fix: Finding['fixes'][number]; edits: TextEdit[] }[] = [];
  /** A syntax error in a structured file may shift what the parser saw: offer no edits into it (as ESLint does on a fatal parse error). */
  const fixesAllowed = format === 'dotenv' || extraction.parseProblems.every((p) => p.kind === 'duplicateKey');
  let ruleIndex = 0;
  const fileCap = (ruleId: string) => fileSeverityCap(file, ruleId);
  for (const rule of RULES) {
    if (options.onlyRules && !options.onlyRules.includes(rule.meta.id)) continue;
    const level = ruleLevel(rule, config);
    if (level === 'off' || !(rule.meta.formats.includes(format) || (format === 'javascript' && CONSUMER_RULES.has(rule.meta.id)))) continue;
    const context: RuleContext = {
      document,
      extraction,
      resolution,
      config,
      facts,
      locale,
      verified: options.verified ?? [],
      modelLists: options.modelLists ?? [],
      file,
      env: documentEnv,
      t: (id, data) => render(rule, locale, id, data, options.surface),
      report(r) {
        if (file.kind === 'test' && !KEPT_IN_TESTS.has(rule.meta.id)) return;
        const evidence: Evidence = r.evidence ?? derivedEvidence(r.subject, r.range, format, extraction, resolution, locale);
        findings.push({
          ruleId: rule.meta.id,
          severity: lowerSeverity(lowerSeverity(r.severity && level === rule.meta.defaultSeverity ? r.severity : level, severityCap(evidence.strength)), fileCap(rule.meta.id) ?? 'error'),
          messageId: r.messageId,
          data: r.data ?? {},
          message: render(rule, locale, r.messageId, r.data, options.surface),
          evidence: renderEvidence(evidence, locale),
          range: r.range,
          subject: r.subject,
          fixes: [],
          ...(r.related ? { related: r.related } : {}),
        });
        const finding = findings[findings.length - 1];
        for (const fix of fixesAllowed ? r.fixes ?? [] : []) {
          if (!fix.edits.every((e) => e !== undefined)) continue;
          const edits = matchLineBreaks(fix.edits as TextEdit[], text).flatMap((e) => minimizeEdit(e, text));
          if (edits.length === 0) continue;
          const offered = { title: render(rule, locale, fix.titleId, fix.data), safety: fix.safety, edits };
          finding.fixes.push(offered);
          if (fix.edits.some((e) => e?.intendedValue !== undefined)) valueFixes.push({ finding, fix: offered, edits: fix.edits as TextEdit[] });
        }
      },
    };
    try {
      // The clock (a getrusage call) is read before every 8th rule and once after the last: rules are
      // cheap next to the 5 s budget, and a read per rule was ~20k system calls on OpenClaw-RL.
      spend(0, (ruleIndex++ & 7) === 0);
      rule.check(context);
    } catch (error) {
      if (error instanceof BudgetExceeded) throw error;
      failures.push({ ruleId: rule.meta.id, error: (error as Error).stack ?? String(error) });
    }
  }
  spend(0, true);
  let unproven: UnprovenFixes | undefined;
  if (valueFixes.length > 0 && options.proveFixes === false) {
    // Held back for `proveFixes`: out of `Finding.fixes`, so nothing unproven is ever offered.
    const lists: UnprovenFixes['lists'] = new Map();
    for (const v of valueFixes) {
      let entry = lists.get(v.finding.fixes);
      if (!entry) lists.set(v.finding.fixes, (entry = { all: [...v.finding.fixes], pending: new Map() }));
      entry.pending.set(v.fix, v.edits);
    }
    for (const [fixes, entry] of lists) fixes.splice(0, fixes.length, ...fixes.filter((fix) => !entry.pending.has(fix)));
    unproven = { lists, format, path: document.path, text, before: extraction, budget: DEFAULT_BUDGET, spent: { timeMs: 0, nodes: 0 }, config: options.config, locale: options.locale };
  } else if (valueFixes.length > 0) {
    const sound = fixesKeepMeaning(format, document.path, text, extraction, valueFixes.map((v) => v.edits), options.grammars);
    valueFixes.forEach((v, i) => {
      if (!sound[i]) v.finding.fixes.splice(v.finding.fixes.indexOf(v.fix), 1);
    });
  }
  const kept = applySuppressions(applyPrecedence(finishCrossFile(findings, crossFile, resolution, locale)), extraction.comments, document, { locale, config, onlyRules: options.onlyRules, reportUnused: options.reportUnusedDisableDirectives });
  kept.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end || a.ruleId.localeCompare(b.ruleId));
  dropRepeatsOnLine(kept, text);
  const known = documentSecrets(extraction);
  const among = secretsIn(known);
  // One answer per distinct text (evidence lines and data values repeat across findings): `redact` depends only on the text and `known`.
  const hidden = new Map<string, string>();
  const hide = (text: string) => {
    let out = hidden.get(text);
    if (out === undefined) hidden.set(text, (out = redact(text, among(text))));
    return out;
  };
  for (const f of kept) {
    spend(0);
    f.message = hide(f.message);
    if (f.evidence) f.evidence = hide(f.evidence);
    for (const [k, v] of Object.entries(f.data)) if (typeof v === 'string') f.data[k] = hide(v);
    for (const fix of unproven?.lists.get(f.fixes)?.all ?? f.fixes) fix.title = hide(fix.title);
    for (const r of f.related ?? []) r.message = hide(r.message);
  }
  return { document, findings: kept, extraction, resolution, failures: failures.map((x) => ({ ...x, error: redact(x.error, known) })), secrets: secretRanges(extraction, text), ...(unproven ? { unproven } : {}) };
}

/**
 * Lints a notebook whose JSON holds cells: its code cells joined (`notebookSource`) are linted as
 * IPython under the notebook's path, then every finding, fix and extracted range is mapped back onto
 * the notebook file. `undefined` when the JSON is malformed (the caller reports `parse-error`) or
 * the kernel is not Python (nothing to lint).
 */
function lintNotebook(document: LintDocument, read: { source: NotebookSource }, options: LintOptions): LintOutcome {
  // Proven now: the extraction and findings are mapped onto the notebook below, the proof needs the joined cells.
  const inner = lintWithinBudget({ path: document.path, text: read.source.text, format: 'python' }, { ...options, proveFixes: true, cellAt: (offset) => cellRange(read.source, offset) });
  toNotebookExtraction(read.source, inner.extraction);
  return {
    ...inner,
    document,
    findings: inner.findings.map((f) => toNotebookFinding(read.source, f)),
    secrets: inner.secrets.map((r) => toNotebookRange(read.source, r)),
  };
}

/** What a notebook that is not linted cell by cell yields: its JSON problems, or nothing (not Python). */
function notebookExtraction(read: ReturnType<typeof notebookSource>): Extraction {
  const extraction = emptyExtraction();
  if ('problems' in read) extraction.parseProblems.push(...read.problems);
  return extraction;
}

/**
 * Removes, in place, every finding that repeats an earlier one on the same line (same rule, severity
 * and message): one root cause, one finding (issue 23). `findings` must be sorted by offset.
 */
export function dropRepeatsOnLine(findings: Finding[], text: string): void {
  const seen = new Set<string>();
  let line = 0;
  let at = 0;
  let kept = 0;
  for (const f of findings) {
    for (let i = text.indexOf('\n', at); i !== -1 && i < f.range.start; i = text.indexOf('\n', i + 1)) {
      line++;
      at = i + 1;
    }
    const key = `${line}\u0000${f.ruleId}\u0000${f.severity}\u0000${f.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    findings[kept++] = f;
  }
  findings.length = kept;
}

/** The range of the joined notebook source that belongs to the cell holding `offset` (added line breaks excluded). */
function cellRange(source: NotebookSource, offset: number): Range {
  const at = Math.min(Math.max(offset, 0), source.cells.length - 1);
  const cell = source.cells[at];
  if (cell < 0) return { start: at, end: at + 1 };
  let start = at;
  let end = at;
  while (start > 0 && source.cells[start - 1] === cell) start--;
  while (end < source.cells.length && source.cells[end] === cell) end++;
  return { start, end };
}

/** A parse problem whose hidden region is cut to the notebook cell it starts in. */
function withinCell(problem: ParseProblem, cellAt: (offset: number) => Range): ParseProblem {
  if (!problem.hidden) return problem;
  const cell = cellAt(problem.range.start);
  const start = Math.max(problem.hidden.start, cell.start);
  const end = Math.min(problem.hidden.end, cell.end);
  return { ...problem, hidden: end > start ? { start, end } : { ...problem.range } };
}
