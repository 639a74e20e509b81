import { redactUrlCredentials } from '../core/redact';
import { join } from 'node:path';
import { RequestType0 } from 'vscode-languageserver';
import type { ResolvedBaseUrl } from '../core/resolve/resolve';
import { DocText } from './convert';
import { literalBaseUrls } from './endpoint';
import type { DocumentLint } from './lint-service';
import type { ConfigProvider } from './settings';
import type { WorkspaceEnv } from './env-index';
import { isNotebookCellUri, pathToUri, type Workspace } from './workspace';

/** One literal base URL setting somewhere in the workspace (no key: ask `rolloutLint/endpointAt` for that). */
export interface EndpointSummary {
  uri: string;
  /** UTF-16 offset of the value in the editor's text (BOM removed): the `offset` of `rolloutLint/endpointAt`. */
  offset: number;
  /** 0-based line of the setting. */
  line: number;
  /** Path relative to its workspace folder, `/`-separated (for display). */
  path: string;
  /** The key as written (`OPENAI_BASE_URL`, `base_url`). */
  key: string;
  /** The base URL for display: credentials in it are redacted (`user:****@`); `endpointAt` gives the value. */
  baseUrl: string;
  /** Consumer ids, most likely first. */
  consumers: string[];
  /** Provider profile ids, best first. */
  providers: string[];
}

/** `rolloutLint/endpoints`: every literal base URL in open documents and the workspace's candidate files. */
export const EndpointsRequest = new RequestType0<EndpointSummary[], void>('rolloutLint/endpoints');

/** At most this many endpoints are listed. */
export const MAX_ENDPOINTS = 200;

export interface EndpointsDeps {
  /** Lints of the open documents (the editor's text wins over the disk). */
  openLints(): Promise<DocumentLint[]>;
  workspace: Workspace;
  configs: ConfigProvider;
  /** The workspace env index: the endpoints of files that are not open. */
  env: WorkspaceEnv;
}

function summaries(uri: string, path: string, doc: DocText, baseUrls: readonly ResolvedBaseUrl[]): EndpointSummary[] {
  return baseUrls.map(({ setting, consumers, providers }) => ({
    uri,
    offset: doc.clientOffset(setting.valueRange.start),
    line: doc.position(setting.valueRange.start).line,
    path,
    key: setting.key,
    baseUrl: redactUrlCredentials(setting.value!.trim()),
    consumers: consumers.map((c) => c.id),
    providers: providers.map((p) => p.id),
  }));
}

/**
 * Lists the literal base URLs of the open documents (from the editor's text), then those the
 * workspace env index holds for the files that are not open, in path order: nothing is read or
 * parsed again (the index is built once at start and kept up to date from file events). Waits for
 * the index's first build when it is still running.
 */
export async function listEndpoints(deps: EndpointsDeps): Promise<EndpointSummary[]> {
  const out: EndpointSummary[] = [];
  const open = new Set<string>();
  for (const lint of await deps.openLints()) {
    open.add(lint.uri);
    // a notebook's open cells stand for the notebook file: it is not listed again from disk
    if (isNotebookCellUri(lint.uri) && lint.location.absPath) open.add(pathToUri(lint.location.absPath));
    out.push(...summaries(lint.uri, lint.location.relPath, lint.doc, literalBaseUrls(lint)));
  }
  await deps.env.ensure();
  for (const folder of deps.workspace.roots()) {
    const index = deps.env.indexFor(folder.path);
    for (const path of (index?.paths() ?? []).sort()) {
      const uri = pathToUri(join(folder.path, path));
      if (open.has(uri)) continue;
      for (const e of index!.fileEnv(path)?.endpoints ?? []) {
        if (out.length >= MAX_ENDPOINTS) return out;
        out.push({ uri, offset: e.valueAt.range.start, line: e.valueAt.start.line, path, key: e.key, baseUrl: e.baseUrl, consumers: e.consumers, providers: e.providers });
      }
    }
  }
  return out.slice(0, MAX_ENDPOINTS);
}
