import type { VerifiedEndpoint } from '../../server/src/core/model/verified';
import type { CommandModule, Host } from './types';
import { TEST_CONNECTION_COMMAND } from './commands/index';
import { loadVerified } from './connection/verified';

/** Language client id: settings are read from `rolloutLint.*`, tracing from `rolloutLint.trace.server`. */
export const CLIENT_ID = 'rolloutLint';
export const CLIENT_NAME = 'Rollout Lint';

/**
 * Language ids whose documents go to the server (it decides per file name and content what to lint).
 * VS Code has no built-in `json5` language (microsoft/vscode#124748: left to extensions); this extension
 * contributes it for `*.json5`, under the id the JSON5 extensions use (mrmlnc.vscode-json5).
 */
export const LANGUAGES = ['dotenv', 'yaml', 'docker-compose', 'json', 'jsonc', 'json5', 'python', 'shellscript', 'toml'] as const;

/**
 * JavaScript/TypeScript documents: the server reads them only for `process.env` reads, whose
 * cross-file findings it reports. They do not activate the extension (a workspace with a `.env` does).
 */
export const ENV_READER_LANGUAGES = ['javascript', 'javascriptreact', 'typescript', 'typescriptreact'] as const;

/**
 * The documents the server sees: on-disk files of those languages, plus `.env*`, `*.env`, `*.toml`,
 * `*.json5` and IPython `*.ipy` files whatever language VS Code gave them (older VS Code versions have no
 * `dotenv` language; TOML needs an extension; a `files.associations` entry may map `*.json5` to
 * `javascript` or `jsonc`), JavaScript/TypeScript (`ENV_READER_LANGUAGES`), and the Python cells of open notebooks
 * (`vscode-notebook-cell:` documents; the server reads each cell as IPython).
 */
export const DOCUMENT_SELECTOR = [
  ...LANGUAGES.map((language) => ({ scheme: 'file', language })),
  ...ENV_READER_LANGUAGES.map((language) => ({ scheme: 'file', language })),
  { scheme: 'file', pattern: '**/.env*' },
  { scheme: 'file', pattern: '**/*.env' },
  { scheme: 'file', pattern: '**/*.toml' },
  { scheme: 'file', pattern: '**/*.json5' },
  { scheme: 'file', pattern: '**/*.ipy' },
  { scheme: 'vscode-notebook-cell', language: 'python' },
];

/** How the language server is started (`rolloutLint.server.path`) and when open files are linted (`rolloutLint.run`). */
export interface ClientSettings {
  /** `onType`: the editor asks for diagnostics after each edit; `onSave`: only when the file is saved (and when it opens). */
  run: 'onType' | 'onSave';
  /** The server to run instead of the bundled one; `undefined` for the bundled one. */
  server?: { kind: 'module' | 'executable'; path: string };
}

/**
 * Reads `rolloutLint.run` and `rolloutLint.server.path`. The path is taken from user settings only
 * (the setting is machine-scoped as well): a workspace must not choose what the editor runs.
 */
export function clientSettings(host: Pick<Host, 'getSetting' | 'getUserSetting'>): ClientSettings {
  const run = host.getSetting<string>('rolloutLint.run') === 'onSave' ? 'onSave' : 'onType';
  const path = host.getUserSetting<string>('rolloutLint.server.path')?.trim();
  return path ? { run, server: { kind: /\.(c|m)?js$/i.test(path) ? 'module' : 'executable', path } } : { run };
}

/** `LanguageClientOptions.diagnosticPullOptions` for `run`: pull on every change, or on save only. */
export function diagnosticPullOptions(run: ClientSettings['run']): { onChange: boolean; onSave: boolean } {
  return run === 'onSave' ? { onChange: false, onSave: true } : { onChange: true, onSave: false };
}

/** The server's `initializationOptions` contract (see server/src/lsp/server.ts `InitializationOptions`). */
export interface InitializationOptions {
  locale: string;
  workspaceTrusted: boolean;
  testConnectionCommand?: string;
  verifiedEndpoints?: VerifiedEndpoint[];
}

/**
 * Builds the options: the UI language, the trust state, the lens command when a module provides it,
 * and the probe results kept for this workspace (when there are any).
 */
export function initializationOptions(host: Host, commands: readonly CommandModule[]): InitializationOptions {
  const options: InitializationOptions = { locale: host.language, workspaceTrusted: host.isTrusted() };
  if (commands.some((c) => c.id === TEST_CONNECTION_COMMAND)) options.testConnectionCommand = TEST_CONNECTION_COMMAND;
  const verified = loadVerified(host.workspaceState);
  if (verified.length > 0) options.verifiedEndpoints = verified;
  return options;
}
