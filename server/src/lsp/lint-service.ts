import { dirname } from 'node:path';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Finding } from '../core/model/types';
import { DEFAULT_CONFIG } from '../core/config/config';
import type { Grammars } from '../core/formats/treesitter';
import type { Locale } from '../core/messages/locale';
import { formatOf, isCandidate } from '../core/files';
import { lintDocument, proveFixes, type LintOptions, type LintOutcome } from '../core/lint';
import { OFFLOAD_CHARS, type OffloadedLinter } from '../node/lint-offload';
import { skippedFileFinding } from '../node/lint-file';
import { DocText } from './convert';
import { say } from './messages';
import type { ConfigProvider, DocumentConfig } from './settings';
import type { DocumentLocation, Workspace } from './workspace';
import { isNotebookCellUri } from './workspace';
import type { IndexedText, WorkspaceEnv } from './env-index';

/** Characters checked for NUL when deciding that an open document is binary (as the file reader does). */
const BINARY_PROBE = 8192;

/** One lint of one version of an open document. */
export interface DocumentLint {
  uri: string;
  version: number;
  /** `ConfigProvider.generation` the result was computed under. */
  generation: number;
  doc: DocText;
  location: DocumentLocation;
  config: DocumentConfig;
  findings: Finding[];
  /** Present when the engine ran (not for skipped, disabled or non-candidate documents). */
  outcome?: LintOutcome;
}

/**
 * `lint` with every fix proven (`proveFixes`): what code actions and fix-all offer. Proves at most once
 * per lint (the result is kept in `lint`); a proof over the file's budget turns the findings into the
 * `skipped-file` one, as a lint that proved at once would have.
 */
export function provenLint(lint: DocumentLint, grammars: Grammars): DocumentLint {
  if (!lint.outcome?.unproven) return lint;
  const outcome = proveFixes(lint.outcome, grammars);
  lint.outcome = outcome;
  lint.findings = outcome.findings;
  return lint;
}

/**
 * Lints open documents with the engine and caches the latest result per document, keyed by
 * version and configuration generation. Never rejects: engine failures are logged and give no findings.
 */
export class LintService {
  private readonly latest = new Map<string, Promise<DocumentLint>>();
  private readonly keys = new Map<string, string>();
  /** The workspace env index; cross-file findings need it (set by the server after construction). */
  env: WorkspaceEnv | undefined;

  constructor(
    private readonly grammars: () => Promise<Grammars>,
    private readonly configs: ConfigProvider,
    private readonly workspace: Workspace,
    private readonly locale: Locale,
    private readonly log: (message: string) => void,
    /** Told how long each engine run took (with the index pass whose extraction it reused), in milliseconds. */
    private readonly timed: (uri: string, ms: number) => void = () => undefined,
    /** Lints big documents off this thread; absent = everything is linted here. */
    private readonly offload: OffloadedLinter | undefined = undefined,
  ) {}

  /** The lint of `document` as it is now (cached while version and configuration are unchanged). */
  lint(document: TextDocument): Promise<DocumentLint> {
    const location = this.workspace.locate(document.uri);
    const key = this.keyOf(document, location);
    const cached = this.latest.get(document.uri);
    if (cached && this.keys.get(document.uri) === key) return cached;
    const holder: { run?: Promise<DocumentLint> } = {};
    // the run indexes the document's text first (`WorkspaceEnv.indexOpen`), which can change its key: it is the key after that
    const rekey = () => {
      if (this.latest.get(document.uri) === holder.run) this.keys.set(document.uri, this.keyOf(document, location));
    };
    const run = (holder.run = this.run(document, rekey));
    this.latest.set(document.uri, run);
    this.keys.set(document.uri, key);
    return run;
  }

  /** What a lint of `document` depends on: version, configuration, index facts it reads, folder facts. */
  private keyOf(document: TextDocument, location: DocumentLocation): string {
    const facts = location.absPath ? location.facts?.generationOf(dirname(location.absPath)) : undefined;
    return `${document.version}:${this.configs.generation}:${this.env?.signature(location) ?? 0}:${facts ?? 0}`;
  }

  /**
   * A document of at least `OFFLOAD_CHARS` is linted in the worker thread, so the server answers
   * other requests meanwhile; `undefined` (lint here) for smaller ones or when the worker cannot run.
   */
  private async lintBig(uri: string, input: Parameters<typeof lintDocument>[0], options: LintOptions): Promise<LintOutcome | undefined> {
    if (!this.offload || input.text.length < OFFLOAD_CHARS) return undefined;
    try {
      return await this.offload.lint(input, options);
    } catch (error) {
      this.log(say(this.locale, 'log.workerFailed', { file: uri, error: (error as Error).message }));
      return undefined;
    }
  }

  forget(uri: string): void {
    this.latest.delete(uri);
    this.keys.delete(uri);
  }

  private async run(document: TextDocument, rekey: () => void = () => undefined): Promise<DocumentLint> {
    const generation = this.configs.generation;
    const text = document.getText();
    const doc = new DocText(text);
    const location = this.workspace.locate(document.uri);
    const base = { uri: document.uri, version: document.version, generation, doc, location };
    let config: DocumentConfig | undefined;
    try {
      config = await this.configs.forDocument(document.uri, location.absPath, location.root);
      // The index takes this version's text now (not per keystroke), and the lint reuses the extraction it made.
      let indexMs = 0;
      let indexed: IndexedText | undefined;
      if (this.env?.hasPending(document.uri)) {
        const grammars = await this.grammars();
        const started = performance.now();
        indexed = this.env.indexOpen(document, location, config.config, config.enabled, grammars);
        indexMs = performance.now() - started;
      }
      rekey();
      if (!config.enabled) return { ...base, config, findings: [] };
      // A notebook cell is Python (IPython) text under the notebook's path, never the notebook JSON.
      const format = isNotebookCellUri(document.uri) ? (document.languageId === 'python' ? 'python' : undefined) : formatOf(location.relPath, document.languageId);
      if (!format) return { ...base, config, findings: [] };
      const size = Buffer.byteLength(text, 'utf8');
      if (size > config.config.maxFileBytes) {
        return { ...base, config, findings: [skippedFileFinding('tooLarge', { size, limit: config.config.maxFileBytes }, this.locale)] };
      }
      if (text.slice(0, BINARY_PROBE).includes('\0')) return { ...base, config, findings: [skippedFileFinding('binary', {}, this.locale)] };
      if (!isCandidate(location.relPath, doc.coreText, config.config)) return { ...base, config, findings: [] };
      const grammars = await this.grammars();
      const started = performance.now() - indexMs;
      const input = { path: location.relPath, text, format };
      const options = { grammars, config: config.config, facts: location.facts, locale: this.locale, surface: this.workspace.surface, verified: this.workspace.verified, env: this.env?.viewFor(location) };
      // Diagnostics do not wait for the fix proof: `provenLint` runs it when a code action asks (issue 27 item 4).
      const reuse = indexed ? { reuse: { text: indexed.text, extraction: indexed.extraction }, spent: indexed.spent } : {};
      const outcome = await this.lintBig(document.uri, input, options) ?? lintDocument(input, { ...options, ...reuse, proveFixes: false });
      this.timed(document.uri, Math.round(performance.now() - started));
      for (const failure of outcome.failures) this.log(say(this.locale, 'log.ruleFailed', { ruleId: failure.ruleId, file: document.uri, error: failure.error }));
      return { ...base, config, findings: outcome.findings, outcome };
    } catch (error) {
      this.log(say(this.locale, 'log.lintFailed', { file: document.uri, error: (error as Error).stack ?? String(error) }));
      return { ...base, config: config ?? { enabled: false, config: DEFAULT_CONFIG }, findings: [] };
    }
  }
}
