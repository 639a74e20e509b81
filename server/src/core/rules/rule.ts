import type { Extraction, FileLocation, Finding, Format, Range, Severity, TextEdit, FixSafety } from '../model/types';
import type { Resolution } from '../resolve/resolve';
import type { LintConfig } from '../config/config';
import type { WorkspaceFacts } from '../model/facts';
import type { Locale } from '../messages/locale';
import type { ModelList, VerifiedEndpoint } from '../model/verified';
import type { Evidence } from '../evidence/evidence';
import type { FileEvidence } from '../evidence/file';
import type { EnvView } from '../workspace/env-index';

/** Which fixes a rule can offer: `safe` ones are applied by fix-all/on-save, `unsafe` only on request. */
export type Fixable = 'safe' | 'unsafe' | false;

/** Rule metadata; the registry array in `rules/index.ts` is the only list of these. */
export interface RuleMeta {
  /** Permanent kebab-case id, subject first (`base-url-duplicate-v1`). */
  id: string;
  /** One line, English: what the rule catches. */
  title: string;
  /** Default severity per DESIGN's severity table. */
  defaultSeverity: Severity;
  /** Formats the rule can fire in; each needs bad/good fixtures (a meta-test checks). */
  formats: readonly Format[];
  fixable: Fixable;
}

/**
 * Message templates by message id, per locale. `{name}` placeholders are filled from finding data.
 * Fix titles live here too, under ids starting with `fix.`.
 */
export type MessageBundle = Record<string, string>;

export interface RuleMessages {
  en: MessageBundle;
  'zh-CN': MessageBundle;
}

/** A fix as a rule reports it: the title is a message id, rendered by the engine. */
export interface FixReport {
  titleId: string;
  data?: Record<string, string | number>;
  safety: FixSafety;
  /** `undefined` entries (a value `valueEdit` cannot write in its quoting) drop the whole fix. */
  edits: (TextEdit | undefined)[];
}

export interface Report {
  messageId: string;
  data?: Record<string, string | number>;
  range: Range;
  fixes?: FixReport[];
  /** See `Finding.subject`; use `subjectOf(setting)` / `siteSubject(site)`. */
  subject?: string;
  /** Overrides the rule's default severity for this finding (e.g. a hint upgraded by a verified ping). */
  severity?: Severity;
  /**
   * Why the finding is believed (DESIGN "Evidence"). Its strength caps the severity (`severityCap`);
   * without it the engine derives a line from the subject and does not cap.
   */
  evidence?: Evidence;
  /** Other places that explain the finding (the launch line of the server a request goes to). */
  related?: { location: FileLocation; message: string }[];
}

/** The document a rule sees. `text` has any BOM removed; `path` is absolute or workspace-relative, `/`-separated. */
export interface LintDocument {
  path: string;
  text: string;
  format: Format;
}

/** What `check` receives. Everything is read-only; rules report through `report`. */
export interface RuleContext {
  document: LintDocument;
  extraction: Extraction;
  resolution: Resolution;
  config: LintConfig;
  facts: WorkspaceFacts;
  locale: Locale;
  /** Base URLs a connection probe proved (or disproved) for a consumer; `[]` outside the editor. */
  verified: readonly VerifiedEndpoint[];
  /** `/models` lists a CLI `ping` kept per base URL (`[]` in the editor, which uses `verified[].models`). */
  modelLists: readonly ModelList[];
  /** Whether the document is test/fixture or template code (`evidence/file`). */
  file: FileEvidence;
  /** The workspace env index as this document sees it (`NO_ENV` for a lone document). */
  env: EnvView;
  report(report: Report): void;
  /** Renders one of this rule's own messages in the run's locale (for localised data such as "leading"). */
  t(messageId: string, data?: Record<string, string | number>): string;
}

export interface Rule {
  meta: RuleMeta;
  messages: RuleMessages;
  /** Pure: reads the context and reports; never throws on odd input (the engine still guards). */
  check(context: RuleContext): void;
}

/** Identity helper that gives rule literals their type. */
export function defineRule(rule: Rule): Rule {
  return rule;
}

/** Shape of an unrendered finding, used between rules and the precedence filter. */
export type RawFinding = Omit<Finding, 'message' | 'fixes'> & { fixes: FixReport[] };
