import { dirname, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { WorkspaceFolder } from 'vscode-languageserver';
import type { VerifiedEndpoint } from '../core/model/verified';
import type { Surface } from '../core/messages/surface';
import { NodeWorkspaceFacts } from '../node/facts';

/** Where a document lives: its workspace folder (or its own directory) and the paths core needs. */
export interface DocumentLocation {
  uri: string;
  /** Absolute file-system path; `undefined` for non-`file:` documents (untitled buffers). */
  absPath: string | undefined;
  /** The workspace folder holding the file, or the file's directory when it is in none. */
  root: string | undefined;
  /** `/`-separated path relative to `root`, or the URI's last segment for non-file documents. */
  relPath: string;
  facts: NodeWorkspaceFacts | undefined;
}

/** True for the URI of a notebook cell document (`vscode-notebook-cell:/…/x.ipynb#W0sZmlsZQ==`). */
export function isNotebookCellUri(uri: string): boolean {
  return uri.startsWith('vscode-notebook-cell:');
}

/** The `file:` URI of the notebook a cell URI belongs to (`vscode-notebook-cell:/a/x.ipynb#…` → `file:///a/x.ipynb`). */
export function notebookOfCell(uri: string): string {
  // `vscode-notebook-cell:/a/x.ipynb#…`, or with an authority (`vscode-notebook-cell://host/a/x.ipynb#…`)
  const rest = uri.slice('vscode-notebook-cell:'.length).split(/[?#]/)[0].replace(/^\/\/[^/]*/, '');
  return `file://${rest}`;
}

/**
 * Converts a `file:` URI to a path, or `undefined` for other schemes and malformed URIs. A notebook
 * cell's URI gives the path of its notebook (the fragment names the cell).
 */
export function uriToPath(uri: string): string | undefined {
  const fileUri = isNotebookCellUri(uri) ? notebookOfCell(uri) : uri;
  if (!fileUri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(fileUri);
  } catch {
    return undefined;
  }
}

/** The `file:` URI of an absolute path. */
export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}

/**
 * The workspace folders of the session and a `NodeWorkspaceFacts` per root (git state, sibling
 * `.env` files), created on first use and invalidated on file-watch events.
 */
export class Workspace {
  private folders: { uri: string; path: string }[] = [];
  private readonly facts = new Map<string, NodeWorkspaceFacts>();
  /** Probe results the client kept for this workspace (`rolloutLint/verifiedEndpoints`), passed to every lint. */
  verified: readonly VerifiedEndpoint[] = [];
  /** Which commands messages name: `vscode` when the client runs Test Connection, else `cli`. */
  surface: Surface = 'cli';

  setFolders(folders: readonly WorkspaceFolder[]): void {
    this.folders = folders
      .map((f) => ({ uri: f.uri, path: uriToPath(f.uri) }))
      .filter((f): f is { uri: string; path: string } => f.path !== undefined)
      .sort((a, b) => b.path.length - a.path.length);
  }

  /** Folder roots, longest first (so the innermost folder wins for nested folders). */
  roots(): { uri: string; path: string }[] {
    return [...this.folders];
  }

  /** The editor's text of open documents by absolute path; facts read it before the disk. */
  openText: (absPath: string) => string | undefined = () => undefined;

  factsFor(root: string): NodeWorkspaceFacts {
    let facts = this.facts.get(root);
    if (!facts) {
      facts = new NodeWorkspaceFacts(root);
      facts.setOverlay((absPath) => this.openText(absPath));
      this.facts.set(root, facts);
    }
    return facts;
  }

  /** Drops cached git and dotenv facts (after `.gitignore`/`.env` changes). */
  invalidateFacts(): void {
    for (const f of this.facts.values()) f.invalidate();
  }

  /** The folder root holding `absPath`, or `undefined`. */
  folderOf(absPath: string): string | undefined {
    return this.folders.find((f) => absPath === f.path || absPath.startsWith(f.path.endsWith(sep) ? f.path : f.path + sep))?.path;
  }

  locate(uri: string): DocumentLocation {
    const absPath = uriToPath(uri);
    if (!absPath) return { uri, absPath, root: undefined, relPath: lastSegment(uri), facts: undefined };
    const root = this.folderOf(absPath) ?? dirname(absPath);
    return { uri, absPath, root, relPath: relative(root, absPath).split(sep).join('/'), facts: this.factsFor(root) };
  }
}

function lastSegment(uri: string): string {
  const segment = uri.split(/[/:]/).pop() ?? uri;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
