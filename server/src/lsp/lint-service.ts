import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Finding } from '../core/model/types';
import { DEFAULT_CONFIG } from '../core/config/config';
import type { Grammars } from '../core/formats/treesitter';
import type { Locale } from '../core/messages/locale';
import { formatOf, isCandidate } from '../core/files';
import { lintDocument, type LintOutcome } from '../core/lint';
import { skippedFileFinding } from '../node/lint-file';
import { DocText } from './convert';
import type { ConfigProvider, DocumentConfig } from './settings';
import type { DocumentLocation, Workspace } from './workspace';

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
 * Lints open documents with the engine and caches the latest result per document, keyed by
 * version and configuration generation. Never rejects: engine failures are logged and give no findings.
 */
export class LintService {
  private readonly latest = new Map<string, Promise<DocumentLint>>();
  private readonly keys = new Map<string, string>();

  constructor(
    private readonly grammars: () => Promise<Grammars>,
    private readonly configs: ConfigProvider,
    private readonly workspace: Workspace,
    private readonly locale: Locale,
    private readonly log: (message: string) => void,
    /** Told how long each engine run took, in milliseconds. */
    private readonly timed: (uri: string, ms: number) => void = () => undefined,
  ) {}

  /** The lint of `document` as it is now (cached while version and configuration are unchanged). */
  lint(document: TextDocument): Promise<DocumentLint> {
    const key = `${document.version}:${this.configs.generation}`;
    const cached = this.latest.get(document.uri);
    if (cached && this.keys.get(document.uri) === key) return cached;
    const run = this.run(document);
    this.latest.set(document.uri, run);
    this.keys.set(document.uri, key);
    return run;
  }

  forget(uri: string): void {
    this.latest.delete(uri);
    this.keys.delete(uri);
  }

  private async run(document: TextDocument): Promise<DocumentLint> {
    const generation = this.configs.generation;
    const text = document.getText();
    const doc = new DocText(text);
    const location = this.workspace.locate(document.uri);
    const base = { uri: document.uri, version: document.version, generation, doc, location };
    let config: DocumentConfig | undefined;
    try {
      config = await this.configs.forDocument(document.uri, location.absPath, location.root);
      if (!config.enabled) return { ...base, config, findings: [] };
      const format = formatOf(location.relPath, document.languageId);
      if (!format) return { ...base, config, findings: [] };
      const size = Buffer.byteLength(text, 'utf8');
      if (size > config.config.maxFileBytes) {
        return { ...base, config, findings: [skippedFileFinding('tooLarge', { size, limit: config.config.maxFileBytes }, this.locale)] };
      }
      if (text.slice(0, BINARY_PROBE).includes('\0')) return { ...base, config, findings: [skippedFileFinding('binary', {}, this.locale)] };
      if (!isCandidate(location.relPath, doc.coreText, config.config)) return { ...base, config, findings: [] };
      const grammars = await this.grammars();
      const started = performance.now();
      const outcome = lintDocument({ path: location.relPath, text, format }, { grammars, config: config.config, facts: location.facts, locale: this.locale, surface: this.workspace.surface, verified: this.workspace.verified });
      this.timed(document.uri, Math.round(performance.now() - started));
      for (const failure of outcome.failures) this.log(`rule ${failure.ruleId} failed on ${document.uri}: ${failure.error}`);
      return { ...base, config, findings: outcome.findings, outcome };
    } catch (error) {
      this.log(`lint failed for ${document.uri}: ${(error as Error).stack ?? String(error)}`);
      return { ...base, config: config ?? { enabled: false, config: DEFAULT_CONFIG }, findings: [] };
    }
  }
}
