import { join, relative, sep } from 'node:path';
import { RequestType0 } from 'vscode-languageserver';
import type { Grammars } from '../core/formats/treesitter';
import { formatOf, isCandidate } from '../core/files';
import { lintDocument, stripBom } from '../core/lint';
import type { Locale } from '../core/messages/locale';
import { endpointRows, type EndpointRow } from '../core/workspace/endpoints';
import { readForLint } from '../node/read';
import { walk } from '../node/walk';
import { DocText } from './convert';
import type { WorkspaceEnv } from './env-index';
import type { DocumentLint } from './lint-service';
import type { ConfigProvider } from './settings';
import { pathToUri, type Workspace } from './workspace';

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

const MAX_FILES = 2000;
const MAX_ROWS = 500;

export interface EndpointRowsDeps {
  openLints(): Promise<DocumentLint[]>;
  workspace: Workspace;
  configs: ConfigProvider;
  grammars: () => Promise<Grammars>;
  env: WorkspaceEnv;
  locale: Locale;
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

/**
 * The endpoint rows of the open documents, then of the candidate files on disk that are not open
 * (linted with the env index, so values from other files count), in path order; at most 500 rows
 * from at most 2000 unopened files.
 */
export async function listEndpointRows(deps: EndpointRowsDeps): Promise<EndpointViewRow[]> {
  await deps.env.ensure();
  const out: EndpointViewRow[] = [];
  const open = new Set<string>();
  for (const lint of await deps.openLints()) {
    open.add(lint.uri);
    if (lint.outcome) out.push(...viewRows(lint.uri, lint.location.root, lint.doc, endpointRows(lint.outcome, deps.env.viewFor(lint.location)), lint));
  }
  const grammars = await deps.grammars();
  let read = 0;
  for (const folder of deps.workspace.roots()) {
    const { config, enabled } = await deps.configs.forFile(folder.uri, undefined, undefined);
    if (!enabled) continue;
    const { files } = walk([folder.path], folder.path, deps.workspace.factsFor(folder.path), { noIgnore: false, config });
    for (const file of files) {
      const uri = pathToUri(file.absPath);
      if (open.has(uri) || out.length >= MAX_ROWS || read >= MAX_FILES) continue;
      const relPath = relative(folder.path, file.absPath).split(sep).join('/');
      const format = formatOf(relPath);
      const fileConfig = await deps.configs.forFile(folder.uri, file.absPath, folder.path);
      const content = readForLint(file.absPath, fileConfig.config.maxFileBytes);
      read++;
      if (!format || !fileConfig.enabled || content.kind !== 'text') continue;
      const { text } = stripBom(content.text);
      if (!isCandidate(relPath, text, fileConfig.config)) continue;
      const env = deps.env.viewFor({ root: folder.path, relPath });
      const outcome = lintDocument({ path: relPath, text, format }, { grammars, config: fileConfig.config, facts: deps.workspace.factsFor(folder.path), locale: deps.locale, env });
      out.push(...viewRows(uri, folder.path, new DocText(content.text), endpointRows(outcome, env), { outcome }));
    }
  }
  return out.slice(0, MAX_ROWS);
}
