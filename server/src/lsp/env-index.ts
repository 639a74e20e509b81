import { relative, sep } from 'node:path';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Grammars } from '../core/formats/treesitter';
import { formatOf } from '../core/files';
import { EnvIndex, type EnvView } from '../core/workspace/env-index';
import { INDEX_ON_MAIN_THREAD, indexDocument, isIndexCandidate } from '../core/workspace/index-document';
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

/**
 * The language server's workspace env index: one `EnvIndex` per workspace folder, built in the
 * background from the walker's files, updated from file events (`filesChanged`) and from the text of
 * open documents (`documentChanged`, so an unsaved `.env` edit counts). `signature` says per file
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

  /** Indexes an open document from the editor's text. Returns true when the index changed. */
  async documentChanged(document: TextDocument, location: DocumentLocation): Promise<boolean> {
    await this.ensure();
    const index = this.indexFor(location.root);
    if (!index || !location.absPath || !formatOf(location.relPath, document.languageId)) return false;
    const { config, enabled } = await this.configs.forDocument(document.uri, location.absPath, location.root);
    const text = document.getText();
    const format = formatOf(location.relPath, document.languageId);
    const changed = enabled && text.length <= config.maxFileBytes && isIndexCandidate(location.relPath, text, config, 'navigation')
      ? index.set(indexDocument({ path: location.relPath, text, format }, await this.grammars(), config, INDEX_ON_MAIN_THREAD))
      : index.delete(location.relPath);
    if (changed) this.onChange('changed');
    return changed;
  }
}
