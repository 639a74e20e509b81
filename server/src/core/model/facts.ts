import type { ClientPin } from '../workspace/client-pins';

/**
 * Facts about the workspace that are not in the document text. Core never touches the file system
 * or git; the CLI and the language server inject an implementation (`server/src/node/facts.ts`).
 */
export interface WorkspaceFacts {
  /**
   * Git's view of a document path:
   * - `tracked`: `git ls-files` lists it
   * - `ignored`: a `.gitignore` (from the workspace root down) or git's excludes ignore it
   * - `exposed`: inside a git work tree or a workspace with a `.gitignore`, and not ignored
   * - `unknown`: no git and no `.gitignore` anywhere: nothing says it will be committed
   */
  gitState(path: string): 'tracked' | 'ignored' | 'exposed' | 'unknown';
  /**
   * Env values defined by dotenv files in the document's folder (`.env`, `.env.local`, …), for hover
   * on `os.getenv("K")`. Keys are variable names; values list each file's decoded value.
   */
  siblingEnv(path: string): Record<string, { file: string; value: string }[]>;
  /**
   * The variables of a dotenv file a document refers to (compose `env_file: .env.trainer`), with
   * `file` relative to the document's folder; `'outsideWorkTree'` when the file (or its symlink
   * target) lies outside the document's work tree, so it is not read; `undefined` when it cannot be
   * read (missing, too large, not a regular file).
   */
  envFile(path: string, file: string): Record<string, string> | 'outsideWorkTree' | undefined;
  /**
   * The client packages (openai, anthropic, langchain-openai; openai-node, …) the project around a document
   * declares or locks: per package, from the nearest folder upwards (to the work tree's top) whose
   * manifests (`requirements*.txt`, `pyproject.toml`, `uv.lock`, `poetry.lock`, `Pipfile(.lock)`,
   * `package.json`, `package-lock.json`) name it, a lock's version over a constraint. Absent = none known.
   */
  clientPins?(path: string): ClientPin[];
}

/** Facts for a document with no workspace around it (stdin, an untitled buffer, unit tests). */
export const NO_FACTS: WorkspaceFacts = {
  gitState: () => 'unknown',
  siblingEnv: () => ({}),
  envFile: () => undefined,
};
