import { join } from 'node:path';
import { RequestType0 } from 'vscode-languageserver';
import type { Grammars } from '../core/formats/treesitter';
import { lintDocument } from '../core/lint';
import type { Locale } from '../core/messages/locale';
import { endpointRows, type EndpointRow } from '../core/workspace/endpoints';
import { DocText } from './convert';
import type { WorkspaceEnv } from './env-index';
import { unopenedCandidates } from './endpoints';
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
 * from at most 2000 unopened files (`unopenedCandidates`).
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
  for await (const file of unopenedCandidates(deps, open, () => out.length >= MAX_ROWS)) {
    const env = deps.env.viewFor({ root: file.root, relPath: file.relPath });
    const outcome = lintDocument({ path: file.relPath, text: file.text, format: file.format }, { grammars, config: file.config, facts: deps.workspace.factsFor(file.root), locale: deps.locale, env, proveFixes: false }); // rows show no fixes
    out.push(...viewRows(file.uri, file.root, new DocText(file.clientText), endpointRows(outcome, env, deps.locale), { outcome }));
  }
  return out.slice(0, MAX_ROWS);
}
