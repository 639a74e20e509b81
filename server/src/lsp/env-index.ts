import { relative, sep } from 'node:path';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Grammars } from '../core/formats/treesitter';
import { formatOf } from '../core/files';
import { EnvIndex, type EnvView } from '../core/workspace/env-index';
import { INDEX_ON_MAIN_THREAD, indexAndExtract, isIndexCandidate } from '../core/workspace/index-document';
import type { LintConfig } from '../core/config/config';
import type { Extraction, Format } from '../core/model/types';
import type { BudgetSpent } from '../core/budget';
import { indexFile } from '../node/env-index';
import { walk } from '../node/walk';
import type { Locale } from '../core/messages/locale';
import { say } from './messages';
import { timeSlicer } from './slices';
import type { ConfigProvider } from './settings';
import { pathToUri, uriToPath, type DocumentLocation, type Workspace } from './workspace';

/** Files indexed between two yields to the event loop while building. */
const BATCH = 32;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An edited open document no lint has indexed is indexed this long after its last edit, ms. */
const IDLE_INDEX_MS = 1000;

/** What indexing an open document's text gave its lint: the extraction of exactly `text` (BOM removed) and the budget spent on it. */
export interface IndexedText {
  text: string;
  extraction: Extraction;
  spent: BudgetSpent;
}

/**
 * The language server's workspace env index: one `EnvIndex` per workspace folder, built in the
 * background from the walker's files, updated from file events (`filesChanged`) and from the text of
 * open documents (`documentEdited` then `indexOpen` from its lint, so an unsaved `.env` edit counts). `signature` says per file
 * whether what the index tells its lint changed (lint cache keys, result ids); `onChange` is told
 * after a build and after changes that altered an index.
 */
export class WorkspaceEnv {
  private readonly indexes = new Map<string, EnvIndex>();
  private building: Promise<void> | undefined;
  /** Milliseconds the last full build took, per folder root (for the log and the benchmark note). */
  readonly buildMs = new Map<string, number>();
  /** The folder configurations (JSON by folder root) the current build uses, read first thing when it starts. */
  private builtWith: Promise<Map<string, string>> | undefined;
  /** Full builds started since the server started (the log and a test read it). */
  builds = 0;
  /** Per file (`root` NUL `relPath`): how many file events (or closes) re-read it from disk; see `diskVersion`. */
  private readonly diskVersions = new Map<string, number>();
  /** Open documents edited since the index took their text: uri → the timer of `IDLE_INDEX_MS`. */
  private readonly pending = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly workspace: Workspace,
    private readonly configs: ConfigProvider,
    private readonly grammars: () => Promise<Grammars>,
    private readonly log: (message: string) => void,
    /** `built`: a (re)build finished (open documents need a new lint); `changed`: files changed (the workspace too). */
    private readonly onChange: (kind: 'built' | 'changed') => void = () => undefined,
    /** The language of the log lines. */
    private readonly locale: Locale = 'en',
  ) {}

  /** Starts (or returns) the background build of every folder's index. Never rejects. */
  ensure(): Promise<void> {
    this.builtWith ??= this.folderConfigs().catch(() => new Map<string, string>());
    this.building ??= this.build().catch((error: Error) => this.log(say(this.locale, 'log.envIndexFailed', { error: error.stack ?? error.message })));
    return this.building;
  }

  /** Folders or configuration changed: indexes are rebuilt from scratch. */
  reset(): void {
    this.indexes.clear();
    this.building = undefined;
    this.builtWith = undefined;
    void this.ensure();
  }

  /**
   * Settings changed (`workspace/didChangeConfiguration`): the indexes are rebuilt only when a folder's
   * configuration differs from the one its index was built with. VS Code's language client sends one
   * such notification as soon as the server registers for it, with nothing changed; a rebuild then
   * would index the workspace twice at start.
   */
  async settingsChanged(): Promise<boolean> {
    const before = await this.builtWith;
    const now = await this.folderConfigs();
    if (before && before.size === now.size && [...now].every(([root, config]) => before.get(root) === config)) return false;
    this.reset();
    return true;
  }

  private async folderConfigs(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const folder of this.workspace.roots()) out.set(folder.path, JSON.stringify(await this.configs.forFile(folder.uri, undefined, undefined)));
    return out;
  }

  private async build(): Promise<void> {
    const grammars = await this.grammars();
    this.builds++;
    for (const folder of this.workspace.roots()) {
      const started = performance.now();
      const index = new EnvIndex();
      const { config, enabled } = await this.configs.forFile(folder.uri, undefined, undefined);
      if (!enabled) continue;
      const { files } = walk([folder.path], folder.path, this.workspace.factsFor(folder.path), { noIgnore: false, config });
      const slice = timeSlicer();
      for (let i = 0; i < files.length; i++) {
        if (i % BATCH === 0) await nextTurn();
        else await slice();
        const fileConfig = await this.configs.forFile(folder.uri, files[i].absPath, folder.path);
        if (fileConfig.enabled) indexFile(index, files[i], grammars, fileConfig.config, undefined, 'navigation', INDEX_ON_MAIN_THREAD);
      }
      this.indexes.set(folder.path, index);
      const ms = Math.round(performance.now() - started);
      this.buildMs.set(folder.path, ms);
      this.log(say(this.locale, 'log.envIndex', { size: index.size, files: files.length, folder: folder.path, ms }));
    }
    this.onChange('built');
  }

  /**
   * A number that changes each time a file event (or the close of its editor) makes the index read the
   * file from disk again, even when its env facts came out the same: what was computed from the file's
   * text (its endpoint rows) is stale then.
   */
  diskVersion(location: Pick<DocumentLocation, 'root' | 'relPath'>): number {
    return this.diskVersions.get(`${location.root}\u0000${location.relPath}`) ?? 0;
  }

  /** The index of the folder holding `root`, once built. */
  indexFor(root: string | undefined): EnvIndex | undefined {
    return root === undefined ? undefined : this.indexes.get(root);
  }

  /** `EnvIndex.dependencySignature` of a file of a folder (`-` while the folder's index is being built). */
  signature(location: Pick<DocumentLocation, 'root' | 'relPath'>): string {
    return this.indexFor(location.root)?.dependencySignature(location.relPath) ?? '-';
  }

  /** What a document sees of its folder's index; `undefined` while it is being built or outside any folder. */
  viewFor(location: Pick<DocumentLocation, 'root' | 'relPath'>): EnvView | undefined {
    return this.indexFor(location.root)?.viewFor(location.relPath);
  }

  /** Re-indexes changed, created or deleted files from disk (`workspace/didChangeWatchedFiles`), skipping open ones. */
  async filesChanged(uris: readonly string[], isOpen: (uri: string) => boolean): Promise<void> {
    await this.ensure();
    const grammars = await this.grammars();
    let changed = false;
    for (const uri of uris) {
      if (isOpen(uri)) continue;
      clearTimeout(this.pending.get(uri));
      this.pending.delete(uri);
      const absPath = uriToPath(uri);
      const root = absPath ? this.workspace.folderOf(absPath) : undefined;
      const index = this.indexFor(root);
      if (!absPath || !root || !index) continue;
      const relPath = relative(root, absPath).split(sep).join('/');
      const key = `${root}\u0000${relPath}`;
      this.diskVersions.set(key, (this.diskVersions.get(key) ?? 0) + 1);
      if (!formatOf(relPath)) continue;
      const before = index.generation;
      const { config, enabled } = await this.configs.forFile(pathToUri(root), absPath, root);
      if (enabled) indexFile(index, { absPath, relPath }, grammars, config, undefined, 'navigation', INDEX_ON_MAIN_THREAD);
      else index.delete(relPath);
      changed ||= index.generation !== before;
    }
    if (changed) this.onChange('changed');
  }

  /**
   * An open document was opened or edited: the index takes its text when the document is next linted
   * (`indexOpen`, which hands the lint the extraction it made: one parse per version, and none per
   * keystroke), or `IDLE_INDEX_MS` after its last edit when nothing lints it (a document no tab shows).
   */
  documentEdited(document: TextDocument, location: DocumentLocation, current: () => TextDocument | undefined): void {
    clearTimeout(this.pending.get(document.uri));
    this.pending.set(document.uri, setTimeout(() => {
      const now = current();
      if (now) void this.documentChanged(now, location);
    }, IDLE_INDEX_MS));
  }

  /** Whether the index has yet to take the text of open document `uri` (see `indexOpen`). */
  hasPending(uri: string): boolean {
    return this.pending.has(uri);
  }

  /**
   * Indexes an open document edited since the index last took its text (`documentEdited`), from the
   * editor's text, now; `config`/`enabled` are the document's (`ConfigProvider.forDocument`). Returns
   * the extraction it made, for a lint of the same text (`LintOptions.reuse`), or `undefined` (nothing
   * pending, the folder's index not built yet, not an index candidate, or over the index budget).
   */
  indexOpen(document: TextDocument, location: DocumentLocation, config: LintConfig, enabled: boolean, grammars: Grammars): IndexedText | undefined {
    if (!this.pending.has(document.uri)) return undefined;
    const index = this.indexFor(location.root);
    const format = formatOf(location.relPath, document.languageId);
    if (!index || !location.absPath || !format) return undefined;
    this.settle(document.uri);
    const { changed, indexed } = this.take(index, document.getText(), location.relPath, format, config, enabled, grammars);
    if (changed) this.onChange('changed');
    return indexed;
  }

  /** Indexes an open document from the editor's text once the folder's index is built. Returns true when the index changed. */
  async documentChanged(document: TextDocument, location: DocumentLocation): Promise<boolean> {
    await this.ensure();
    const index = this.indexFor(location.root);
    const format = formatOf(location.relPath, document.languageId);
    if (!index || !location.absPath || !format) return false;
    this.settle(document.uri);
    const { config, enabled } = await this.configs.forDocument(document.uri, location.absPath, location.root);
    const { changed } = this.take(index, document.getText(), location.relPath, format, config, enabled, await this.grammars());
    if (changed) this.onChange('changed');
    return changed;
  }

  /** The index has taken (or is taking) the current text of open document `uri`: no pending edit. */
  private settle(uri: string): void {
    clearTimeout(this.pending.get(uri));
    this.pending.delete(uri);
  }

  /**
   * Sets (or drops) one open document's facts in `index` from `text`. Returns whether the index changed
   * and, when the extraction stayed within the index's budget, the extraction for a lint of that text.
   */
  private take(index: EnvIndex, text: string, relPath: string, format: Format, config: LintConfig, enabled: boolean, grammars: Grammars): { changed: boolean; indexed?: IndexedText } {
    if (!enabled || text.length > config.maxFileBytes || !isIndexCandidate(relPath, text, config, 'navigation')) return { changed: index.delete(relPath) };
    const out = indexAndExtract({ path: relPath, text, format }, grammars, config, INDEX_ON_MAIN_THREAD);
    const changed = index.set(out.env);
    // over the index's budget the lint parses on its own, under its own budget (as before the two shared a parse)
    if (!out.extraction || out.text === undefined || !out.spent || out.spent.exceeded) return { changed };
    return { changed, indexed: { text: out.text, extraction: out.extraction, spent: out.spent } };
  }

  /** Stops the timers of `documentEdited` (the server shuts down). */
  dispose(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}
