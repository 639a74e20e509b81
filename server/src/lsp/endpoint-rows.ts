import { join } from 'node:path';
import { RequestType0 } from 'vscode-languageserver';
import type { Grammars } from '../core/formats/treesitter';
import { lintDocument } from '../core/lint';
import type { Locale } from '../core/messages/locale';
import { endpointRows, type EndpointRow } from '../core/workspace/endpoints';
import { DocText } from './convert';
import type { WorkspaceEnv } from './env-index';
import { formatOf, isCandidate } from '../core/files';
import { stripBom } from '../core/lint';
import type { FileEnv } from '../core/workspace/env-facts';
import { readForLint } from '../node/read';
import type { DocumentLint } from './lint-service';
import type { ConfigProvider } from './settings';
import { isNotebookCellUri, pathToUri, type Workspace } from './workspace';

/** One row of the Rollout Endpoints view: `rollout-lint endpoints --json`'s row plus where to go. */
export interface EndpointViewRow extends EndpointRow {
  uri: string;
  /** Offset of the value in the client's text (a BOM counted): the `offset` of Test connection. */
  clientOffset: number;
  /** The definition of a value that comes from another file: its document and the offset of its value. */
  definition?: { uri: string; offset: number };
}

/** `rolloutLint/endpointRows`: every endpoint of the workspace, open documents from the editor's text. */
export const EndpointRowsRequest = new RequestType0<EndpointViewRow[], void>('rolloutLint/endpointRows');

const MAX_ROWS = 500;
/** At most this many unopened files are read for one answer. */
const MAX_FILES = 2000;

export interface EndpointRowsDeps {
  openLints(): Promise<DocumentLint[]>;
  workspace: Workspace;
  configs: ConfigProvider;
  grammars: () => Promise<Grammars>;
  env: WorkspaceEnv;
  locale: Locale;
  /** Rows of unopened files kept between answers (one per server); absent = nothing kept. */
  cache?: EndpointRowCache;
}

function viewRows(uri: string, root: string | undefined, doc: DocText, rows: EndpointRow[], lint: { outcome?: DocumentLint['outcome'] }): EndpointViewRow[] {
  return rows.map((row) => {
    const origin = lint.outcome?.resolution.baseUrls.find((b) => b.setting.valueRange.start === row.offset)?.setting.origin;
    return {
      ...row,
      uri,
      clientOffset: doc.clientOffset(row.offset),
      ...(origin && root !== undefined ? { definition: { uri: pathToUri(join(root, origin.path)), offset: origin.range.start } } : {}),
    };
  });
}

/** The rows of one unopened file and what they were computed under (`EndpointRowCache`). */
interface CachedRows {
  /** `ConfigProvider.generation` and the verified list (by identity) the rows were computed under. */
  config: number;
  verified: unknown;
  /** `WorkspaceEnv.diskVersion` of the file. */
  disk: number;
  /** The index's `generation` when last checked, and the file's dependency signature then. */
  indexGeneration: number;
  signature: string;
  rows: EndpointViewRow[];
}

/** What rows depend on besides the file itself; `signature` is computed only when the index changed. */
export interface RowInputs {
  config: number;
  verified: unknown;
  disk: number;
  indexGeneration: number;
  signature: () => string;
}

/**
 * The rows of the files that are not open, kept per entry of the env index (`FileEnv`, replaced when a
 * rebuild re-indexes the file) and per disk version (`WorkspaceEnv.diskVersion`: a file event or a
 * close read the file again), per configuration generation and verified list, and per
 * dependency signature (what other files give it; recomputed only when the index changed since the
 * last look): a refresh of the view reads and lints only the files whose entry or inputs changed.
 */
export class EndpointRowCache {
  private readonly byEntry = new WeakMap<FileEnv, CachedRows>();

  get(entry: FileEnv, inputs: RowInputs): EndpointViewRow[] | undefined {
    const cached = this.byEntry.get(entry);
    if (!cached || cached.config !== inputs.config || cached.verified !== inputs.verified || cached.disk !== inputs.disk) return undefined;
    if (cached.indexGeneration === inputs.indexGeneration) return cached.rows;
    if (cached.signature !== inputs.signature()) return undefined;
    cached.indexGeneration = inputs.indexGeneration;
    return cached.rows;
  }

  set(entry: FileEnv, inputs: RowInputs, rows: EndpointViewRow[]): void {
    this.byEntry.set(entry, { config: inputs.config, verified: inputs.verified, disk: inputs.disk, indexGeneration: inputs.indexGeneration, signature: inputs.signature(), rows });
  }
}

/**
 * The endpoint rows of the open documents (from the editor's text), then of the files the workspace
 * env index holds that are not open, in path order: nothing is walked, and a file is read and linted
 * (with the env index, so values from other files count) only when its index entry, its dependencies,
 * the configuration or the verified list changed since the last answer (`EndpointRowCache`). At most
 * 500 rows; at most 2000 files read per answer. Offsets of unopened files are into the text without
 * its BOM, as an editor holds it once opened.
 */
export async function listEndpointRows(deps: EndpointRowsDeps): Promise<EndpointViewRow[]> {
  await deps.env.ensure();
  const out: EndpointViewRow[] = [];
  const open = new Set<string>();
  for (const lint of await deps.openLints()) {
    open.add(lint.uri);
    // a notebook's open cells stand for the notebook file: it is not listed again from disk
    if (isNotebookCellUri(lint.uri) && lint.location.absPath) open.add(pathToUri(lint.location.absPath));
    if (lint.outcome) out.push(...viewRows(lint.uri, lint.location.root, lint.doc, endpointRows(lint.outcome, deps.env.viewFor(lint.location), deps.locale), lint));
  }
  const grammars = await deps.grammars();
  const cache = deps.cache ?? new EndpointRowCache();
  let read = 0;
  for (const folder of deps.workspace.roots()) {
    const index = deps.env.indexFor(folder.path);
    if (!index) continue;
    for (const relPath of index.paths().sort()) {
      if (out.length >= MAX_ROWS) return out.slice(0, MAX_ROWS);
      const absPath = join(folder.path, relPath);
      const uri = pathToUri(absPath);
      const entry = index.fileEnv(relPath);
      if (open.has(uri) || !entry) continue;
      const inputs: RowInputs = { config: deps.configs.generation, verified: deps.workspace.verified, disk: deps.env.diskVersion({ root: folder.path, relPath }), indexGeneration: index.generation, signature: () => index.dependencySignature(relPath) };
      let rows = cache.get(entry, inputs);
      if (!rows) {
        if (read >= MAX_FILES) continue;
        read++;
        rows = await unopenedRows(deps, grammars, folder, relPath, absPath, uri);
        cache.set(entry, inputs, rows);
      }
      out.push(...rows);
    }
  }
  return out.slice(0, MAX_ROWS);
}

/** The rows of one file on disk that is not open: none when it is unreadable, too big, disabled or not a lint candidate. */
async function unopenedRows(deps: EndpointRowsDeps, grammars: Grammars, folder: { uri: string; path: string }, relPath: string, absPath: string, uri: string): Promise<EndpointViewRow[]> {
  const format = formatOf(relPath);
  const { config, enabled } = await deps.configs.forFile(folder.uri, absPath, folder.path);
  if (!format || !enabled) return [];
  const content = readForLint(absPath, config.maxFileBytes);
  if (content.kind !== 'text') return [];
  const { text } = stripBom(content.text);
  if (!isCandidate(relPath, text, config)) return [];
  const env = deps.env.viewFor({ root: folder.path, relPath });
  const outcome = lintDocument({ path: relPath, text, format }, { grammars, config, facts: deps.workspace.factsFor(folder.path), locale: deps.locale, surface: deps.workspace.surface, env, verified: deps.workspace.verified, proveFixes: false }); // rows show no fixes
  return viewRows(uri, folder.path, new DocText(text), endpointRows(outcome, env, deps.locale), { outcome });
}
