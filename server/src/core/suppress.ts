import type { Comment, Finding, Format, Range, Severity, TextEdit } from './model/types';
import type { LintDocument, Rule } from './rules/rule';
import type { LintConfig } from './config/config';
import type { Locale } from './messages/locale';
import { formatMessage } from './messages/locale';
import { LineIndex } from './positions';
import { RULES } from './rules/index';
import disableDirective from './rules/disable-directive';

/** The three directive forms (DESIGN "Suppression"). */
export type DirectiveKind = 'next-line' | 'line' | 'file';

/** `rollout-lint-disable-file` counts only within the first this-many lines (1-based line ≤ 5). */
export const FILE_DIRECTIVE_LINES = 5;

/** Formats where `rollout-lint-disable-line` may trail code (a `#` after a value, or `//` in JavaScript/TypeScript, is a comment there for every reader). */
export const LINE_DIRECTIVE_FORMATS: readonly Format[] = ['yaml', 'python', 'toml', 'javascript'];

/** One rule id as written in a directive, with its range in the document. */
export interface DirectiveId {
  id: string;
  range: Range;
}

/** A parsed `rollout-lint-disable-*` comment. */
export interface Directive {
  kind: DirectiveKind;
  /** The directive word as written (`rollout-lint-disable-next-line`). */
  keyword: string;
  keywordRange: Range;
  /** Ids as written; empty = every rule. */
  ids: DirectiveId[];
  comment: Comment;
  /** 0-based line of the comment. */
  line: number;
  /** Nothing but whitespace before and after the comment on its line. */
  ownLine: boolean;
}

/** What `applySuppressions` needs besides findings and comments. */
export interface SuppressionOptions {
  locale: Locale;
  config: LintConfig;
  /** The run's `onlyRules`: directives naming other rules are never reported as unused. */
  onlyRules?: readonly string[];
  /** Report directives that suppressed nothing (`--report-unused-disable-directives`). */
  reportUnused?: boolean;
}

const KINDS: Record<string, DirectiveKind> = {
  'rollout-lint-disable-next-line': 'next-line',
  'rollout-lint-disable-line': 'line',
  'rollout-lint-disable-file': 'file',
};

const isSpace = (s: string) => /^[ \t]*$/.test(s);

/**
 * Reads the directive in one comment, or `undefined` when the comment is not one. The comment's
 * source is `text.slice(comment.range)`: markers (`#`, `//`, `/* … *\/`) are removed, the body must
 * start with `rollout-lint-disable` or `rollout-lint-enable`, ids follow (comma/space separated) and
 * an optional ` -- reason` ends it. Unknown directive words come back with `kind: undefined`.
 */
export function parseDirective(text: string, comment: Comment, index: LineIndex): (Omit<Directive, 'kind'> & { kind: DirectiveKind | undefined }) | undefined {
  const source = text.slice(comment.range.start, comment.range.end);
  const marker = /^(#+|\/\/+|\/\*+)?[ \t]*/.exec(source)!;
  let body = source.slice(marker[0].length);
  if (marker[1]?.startsWith('/*')) body = body.replace(/\*+\/\s*$/, '');
  const word = /^rollout-lint-(?:disable|enable)[A-Za-z-]*/.exec(body);
  if (!word || !/^(\s|$)/.test(body.slice(word[0].length))) return undefined;
  const bodyStart = comment.range.start + marker[0].length;
  const rest = body.slice(word[0].length);
  const reason = /\s--(\s|$)/.exec(rest);
  const idText = reason ? rest.slice(0, reason.index) : rest;
  const ids: DirectiveId[] = [];
  for (const m of idText.matchAll(/[^\s,]+/g)) {
    const start = bodyStart + word[0].length + m.index;
    ids.push({ id: m[0], range: { start, end: start + m[0].length } });
  }
  const { line } = index.positionAt(comment.range.start);
  const lineStart = index.offsetAt({ line, character: 0 });
  const lineText = index.lineText(line);
  const before = text.slice(lineStart, comment.range.start);
  const after = lineText.slice(Math.min(lineText.length, comment.range.end - lineStart));
  return {
    kind: KINDS[word[0]],
    keyword: word[0],
    keywordRange: { start: bodyStart, end: bodyStart + word[0].length },
    ids,
    comment,
    line,
    ownLine: isSpace(before) && isSpace(after),
  };
}

/** Last 0-based line of the shell command starting on `line`: follows `\` line continuations. */
function continuedUntil(index: LineIndex, line: number): number {
  let last = line;
  while (last + 1 < index.lineCount && /(^|[^\\])(\\\\)*\\$/.test(index.lineText(last))) last++;
  return last;
}

interface Placed {
  directive: Directive;
  /** Inclusive 0-based line span the directive covers; `undefined` = whole file. */
  lines?: [number, number];
  used: Set<string>;
  usedAll: boolean;
}

type Problem = { messageId: string; data: Record<string, string | number>; range: Range; fixes?: Finding['fixes'] };

/** The line span covered by a well-placed directive, or the problem that makes it ineffective. */
function place(d: Directive, format: Format, index: LineIndex): { lines?: [number, number] } | Problem {
  const data = { directive: d.keyword, format, limit: FILE_DIRECTIVE_LINES, line: d.line + 1 };
  switch (d.kind) {
    case 'next-line':
      if (!d.ownLine) return { messageId: 'notOwnLine', data, range: d.keywordRange };
      return { lines: [d.line + 1, format === 'shell' ? continuedUntil(index, d.line + 1) : d.line + 1] };
    case 'line':
      if (!LINE_DIRECTIVE_FORMATS.includes(format)) return { messageId: 'lineFormat', data, range: d.keywordRange };
      if (d.ownLine) return { messageId: 'lineAlone', data, range: d.keywordRange };
      return { lines: [d.line, d.line] };
    case 'file':
      if (d.line >= FILE_DIRECTIVE_LINES) return { messageId: 'fileTooLate', data, range: d.keywordRange };
      return {};
  }
}

function covers(p: Placed, line: number): boolean {
  return !p.lines || (line >= p.lines[0] && line <= p.lines[1]);
}

/** Marks `finding` as suppressed by the first directive that covers it and names its rule (or all rules). */
function suppressedBy(placed: Placed[], finding: Finding, line: number, allowAll: boolean): boolean {
  for (const p of placed) {
    if (!covers(p, line)) continue;
    const named = p.directive.ids.some((i) => i.id === finding.ruleId);
    if (named) p.used.add(finding.ruleId);
    else if (allowAll && p.directive.ids.length === 0) p.usedAll = true;
    else continue;
    return true;
  }
  return false;
}

/** Edits that delete a whole directive: its line when it stands alone, else the comment and the blanks before it. */
function removeDirective(text: string, d: Directive, index: LineIndex): TextEdit {
  if (d.ownLine) {
    const start = index.offsetAt({ line: d.line, character: 0 });
    const end = d.line + 1 < index.lineCount ? index.offsetAt({ line: d.line + 1, character: 0 }) : text.length;
    return { range: { start, end }, text: '' };
  }
  let start = d.comment.range.start;
  while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
  return { range: { start, end: d.comment.range.end }, text: '' };
}

/** Deletes one id from a directive's list together with the separator next to it. */
function removeId(d: Directive, at: number): TextEdit {
  const id = d.ids[at];
  if (at > 0) return { range: { start: d.ids[at - 1].range.end, end: id.range.end }, text: '' };
  return { range: { start: id.range.start, end: d.ids[1].range.start }, text: '' };
}

function levelOf(rule: Rule, config: LintConfig): Severity | 'off' {
  return config.rules[rule.meta.id] ?? rule.meta.defaultSeverity;
}

/**
 * Applies `rollout-lint-disable-*` directives found in `comments` (DESIGN "Suppression"):
 * `-next-line` on a line of its own covers the next line (in shell, the whole `\`-continued
 * command); `-line` trails code on the same line (YAML, Python); `-file` in the first five lines
 * covers the file. Ids are comma/space separated; none means every rule. A finding is covered when
 * its range starts on a covered line. Returns the kept findings plus `disable-directive` findings
 * for unknown ids, misplaced directives and (with `reportUnused`) directives that suppressed nothing.
 * `disable-directive` findings are suppressed only by directives that name that id.
 */
export function applySuppressions(findings: Finding[], comments: readonly Comment[], document: LintDocument, options: SuppressionOptions): Finding[] {
  if (!comments.some((c) => c.text.includes('rollout-lint-'))) return findings;
  const index = new LineIndex(document.text);
  const known = new Set(RULES.map((r) => r.meta.id));
  const problems: Problem[] = [];
  const placed: Placed[] = [];
  for (const comment of comments) {
    const parsed = parseDirective(document.text, comment, index);
    if (!parsed) continue;
    if (!parsed.kind) {
      problems.push({ messageId: 'unknownDirective', data: { directive: parsed.keyword }, range: parsed.keywordRange });
      continue;
    }
    const directive = parsed as Directive;
    for (const id of directive.ids) {
      if (!known.has(id.id)) problems.push({ messageId: 'unknownRule', data: { id: id.id, directive: directive.keyword }, range: id.range });
    }
    const where = place(directive, document.format, index);
    if ('messageId' in where) problems.push(where);
    else placed.push({ directive, lines: where.lines, used: new Set(), usedAll: false });
  }
  if (placed.length === 0 && problems.length === 0) return findings;

  const lineOf = (f: Pick<Finding, 'range'>) => index.positionAt(f.range.start).line;
  const kept = findings.filter((f) => f.ruleId === disableDirective.meta.id || !suppressedBy(placed, f, lineOf(f), true));

  const level = levelOf(disableDirective, options.config);
  const selfReported = level !== 'off' && (!options.onlyRules || options.onlyRules.includes(disableDirective.meta.id));
  if (!selfReported) return kept;

  if (options.reportUnused) {
    const enabled = (id: string) => {
      const rule = RULES.find((r) => r.meta.id === id);
      return !!rule && id !== disableDirective.meta.id && levelOf(rule, options.config) !== 'off' && (!options.onlyRules || options.onlyRules.includes(id));
    };
    for (const p of placed) {
      const d = p.directive;
      const data = { directive: d.keyword };
      if (d.ids.length === 0) {
        if (!p.usedAll) problems.push({ messageId: 'unusedAll', data, range: d.keywordRange, fixes: [removal(document.text, d, index, options.locale)] });
        continue;
      }
      const unused = d.ids.map((id, at) => ({ id, at })).filter(({ id }) => enabled(id.id) && !p.used.has(id.id));
      const ignoredIds = d.ids.filter((id) => !enabled(id.id) && id.id !== disableDirective.meta.id);
      if (unused.length === d.ids.length && ignoredIds.length === 0) {
        problems.push({ messageId: 'unused', data: { ...data, ids: d.ids.map((i) => i.id).join(', ') }, range: d.keywordRange, fixes: [removal(document.text, d, index, options.locale)] });
      } else {
        for (const { id, at } of unused) {
          problems.push({ messageId: 'unused', data: { ...data, ids: id.id }, range: id.range, fixes: [{ title: fixTitle(options.locale), safety: 'safe', edits: [removeId(d, at)] }] });
        }
      }
    }
  }

  const severity = level as Severity;
  const own: Finding[] = problems.map((p) => ({
    ruleId: disableDirective.meta.id,
    severity,
    messageId: p.messageId,
    data: p.data,
    message: formatMessage(disableDirective.messages[options.locale][p.messageId] ?? disableDirective.messages.en[p.messageId], p.data),
    range: p.range,
    fixes: p.fixes ?? [],
  }));
  const selfSuppressing = placed.filter((p) => p.directive.ids.some((i) => i.id === disableDirective.meta.id));
  return [...kept, ...own.filter((f) => !suppressedBy(selfSuppressing, f, lineOf(f), false))];
}

function fixTitle(locale: Locale): string {
  return disableDirective.messages[locale]['fix.remove'] ?? disableDirective.messages.en['fix.remove'];
}

function removal(text: string, d: Directive, index: LineIndex, locale: Locale): Finding['fixes'][number] {
  return { title: fixTitle(locale), safety: 'safe', edits: [removeDirective(text, d, index)] };
}
