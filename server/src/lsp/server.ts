import { basename, dirname } from 'node:path';
import { redact } from '../core/redact';
import { readForLint } from '../node/read';
import type { ClientCapabilities, Connection, InitializeParams, InitializeResult, ServerCapabilities } from 'vscode-languageserver';
import {
  CodeActionKind,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  MessageType,
  NotificationType,
  ShowMessageNotification,
  TextDocuments,
  TextDocumentSyncKind,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { docsUrl } from '../core/docs';
import { normalizeLocale, type Locale } from '../core/messages/locale';
import { RULES } from '../core/rules/index';
import { loadGrammars } from '../node/grammars';
import { codeActions, FIX_ALL_KIND, SERVER_COMMANDS, type CodeActionDeps } from './code-actions';
import { Diagnostics } from './diagnostics';
import { codeLenses, endpointAt, EndpointAtRequest, TEST_CONNECTION_COMMAND } from './endpoint';
import { EndpointsRequest, listEndpoints } from './endpoints';
import { EndpointRowCache, EndpointRowsRequest, listEndpointRows } from './endpoint-rows';
import { safeFixAll } from './fix-all';
import { hoverAt } from './hover';
import { LOGPROBS_ACTION_KIND, logprobsAdviceHover } from './logprobs-advice';
import { WorkspaceEnv } from './env-index';
import { envDefinitions, envReferences } from './navigation';
import { LintService } from './lint-service';
import { say } from './messages';
import { ConfigProvider, rcLoader } from './settings';
import { parseVerifiedEndpoints, VerifiedEndpointsNotification } from './verified';
import { isNotebookCellUri, notebookOfCell, pathToUri, uriToPath, Workspace } from './workspace';
import { OffloadedLinter } from '../node/lint-offload';

/**
 * `initializationOptions` the server understands (all optional):
 * - `locale`: BCP 47 tag for messages (`zh-cn` → Simplified Chinese); falls back to `InitializeParams.locale`, then `LC_ALL`/`LANG`
 * - `testConnectionCommand`: `true` or a command id; when set, a "Test connection" code lens runs it
 *   (`rolloutLint.testConnection` for `true`) with `[{uri, offset}]`. No lens without it.
 * - `workspaceTrusted`: `false` in an untrusted workspace: `.rolloutlintrc.json` may not add providers
 * - `rolloutLint`: the settings section, for clients that answer no `workspace/configuration`
 * - `verifiedEndpoints`: probe results kept by the client (see `rolloutLint/verifiedEndpoints`)
 */
export interface InitializationOptions {
  locale?: string;
  testConnectionCommand?: boolean | string;
  workspaceTrusted?: boolean;
  rolloutLint?: unknown;
  verifiedEndpoints?: unknown;
}

/** The server's version (server/package.json, inlined by the bundler). */
const SERVER_VERSION: string = (require('../../package.json') as { version: string }).version;

/** `rolloutLint/slowRun`: a document took longer than `SLOW_RUN_MS` to lint (for the client's status item). */
export const SlowRunNotification = new NotificationType<{ uri: string; ms: number }>('rolloutLint/slowRun');
const SLOW_RUN_MS = 1000;

/** File patterns whose changes matter: candidates (notebooks and TOML too: the index and the Endpoints view list them), `.gitignore` and `.rolloutlintrc.json`. */
export const WATCHED_GLOBS = ['**/.env*', '**/*.env', '**/*.{yaml,yml}', '**/*.{json,jsonc,json5}', '**/*.{py,pyi,ipy,sh,bash,ipynb,toml}', '**/.gitignore', '**/.rolloutlintrc.json'];

/** `.env` and `.env.<anything>` (templates, `.env.local`): the files whose keys other documents of the folder read. */
const DOTENV_NAME = /^\.env(\..+)?$/;
const CONFIG_CHANGE = /(^|\/)(\.rolloutlintrc\.json|\.gitignore)$/;

function clientFeatures(caps: ClientCapabilities) {
  return {
    pull: !!caps.textDocument?.diagnostic,
    refreshSupport: !!caps.workspace?.diagnostics?.refreshSupport,
    pullsConfiguration: !!caps.workspace?.configuration,
    configurationRegistration: !!caps.workspace?.didChangeConfiguration?.dynamicRegistration,
    watcherRegistration: !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration,
    documentChanges: !!caps.workspace?.workspaceEdit?.documentChanges,
    createFiles: !!caps.workspace?.workspaceEdit?.resourceOperations?.includes('create'),
    disabledActions: !!caps.textDocument?.codeAction?.disabledSupport,
    showDocument: !!caps.window?.showDocument?.support,
    workDoneProgress: !!caps.window?.workDoneProgress,
    workspaceFolders: !!caps.workspace?.workspaceFolders,
  };
}

let sessionLocale: Locale = 'en';

/** The language of the session's messages once `initialize` has set it (English before), for process-level log lines. */
export function serverLocale(): Locale {
  return sessionLocale;
}

/** Wires the Rollout Lint language service onto `connection` and starts listening. */
export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const log = (message: string) => connection.console.log(redact(message));
  documents.listen(connection);

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const options = (params.initializationOptions ?? {}) as InitializationOptions;
    const features = clientFeatures(params.capabilities);
    const locale: Locale = normalizeLocale(options.locale ?? params.locale ?? process.env.LC_ALL ?? process.env.LANG);
    sessionLocale = locale;
    const lensCommand = options.testConnectionCommand === true ? TEST_CONNECTION_COMMAND : typeof options.testConnectionCommand === 'string' ? options.testConnectionCommand : undefined;

    const workspace = new Workspace();
    // cross-file dotenv facts (a template's keys, sibling values in hover) follow unsaved edits
    workspace.openText = (absPath) => documents.get(pathToUri(absPath))?.getText();
    workspace.setFolders(params.workspaceFolders ?? (params.rootUri ? [{ uri: params.rootUri, name: 'root' }] : []));
    workspace.verified = parseVerifiedEndpoints(options.verifiedEndpoints);
    workspace.surface = lensCommand ? 'vscode' : 'cli';
    const rc = rcLoader();
    const configs = new ConfigProvider({ connection, pullsConfiguration: features.pullsConfiguration, trusted: options.workspaceTrusted !== false, loadRc: rc.load, log, locale });
    if (options.rolloutLint !== undefined) configs.setPushedSettings(options.rolloutLint);
    const grammars = () => loadGrammars();
    const offload = OffloadedLinter.available() ? new OffloadedLinter({ log }) : undefined;
    const lints = new LintService(grammars, configs, workspace, locale, log, (uri, ms) => {
      diagnostics.linted(uri, ms);
      if (ms > SLOW_RUN_MS) void connection.sendNotification(SlowRunNotification, { uri, ms });
    }, offload);
    const env = new WorkspaceEnv(workspace, configs, grammars, log, (kind) => (kind === 'built' ? diagnostics.openDocumentsChanged() : diagnostics.configurationChanged()), locale);
    lints.env = env;
    const cellsOpen = (uri: string) => {
      if (!uri.endsWith('.ipynb')) return false;
      const path = uriToPath(uri);
      return documents.all().some((d) => isNotebookCellUri(d.uri) && uriToPath(notebookOfCell(d.uri)) === path);
    };
    const diagnostics = new Diagnostics(
      connection,
      documents,
      lints,
      { workspace, configs, grammars, locale, isOpen: (uri) => documents.get(uri) !== undefined, cellsOpen, log, env, offload },
      features.pull,
      features,
    );

    /** A dotenv file was opened, edited or closed: open documents of its folder see its keys as the editor has them. */
    const dotenvChanged = (uri: string) => {
      const path = uriToPath(uri);
      if (!path || !DOTENV_NAME.test(basename(path))) return;
      workspace.locate(uri).facts?.changed(path);
      const dir = dirname(path);
      const inFolder = (other: string) => {
        const otherPath = uriToPath(other);
        return other !== uri && otherPath !== undefined && dirname(otherPath) === dir;
      };
      const siblings = documents.all().filter((d) => inFolder(d.uri));
      if (siblings.length > 0) diagnostics.dependentsChanged(siblings.map((d) => d.uri));
    };
    documents.onDidOpen((e) => {
      diagnostics.opened(e.document.uri);
      // the notebook's own report (notebook-JSON positions) gives way to its cells' reports
      if (isNotebookCellUri(e.document.uri)) diagnostics.workspaceChanged();
      dotenvChanged(e.document.uri);
    });
    documents.onDidChangeContent((e) => {
      diagnostics.touched(e.document.uri);
      env.documentEdited(e.document, workspace.locate(e.document.uri), () => documents.get(e.document.uri));
      dotenvChanged(e.document.uri);
    });
    documents.onDidClose((e) => {
      dotenvChanged(e.document.uri);
      void env.filesChanged([e.document.uri], () => false);
      configs.forget(e.document.uri);
      diagnostics.closed(e.document.uri);
    });
    if (features.pull) {
      connection.languages.diagnostics.on((p, token) => diagnostics.onDocumentPull(p, token));
      connection.languages.diagnostics.onWorkspace((p, token, workDone, partial) => diagnostics.onWorkspacePull(p, token, workDone, partial));
    }
    const configurationChanged = () => {
      rc.invalidate();
      configs.invalidate();
      env.reset();
      diagnostics.configurationChanged();
    };
    connection.onDidChangeConfiguration(async (p) => {
      if (!features.pullsConfiguration) configs.setPushedSettings((p.settings as { rolloutLint?: unknown } | undefined)?.rolloutLint);
      rc.invalidate();
      configs.invalidate();
      // the index is rebuilt only when the settings it was built with changed (see settingsChanged)
      await env.settingsChanged();
      diagnostics.configurationChanged();
    });
    connection.onDidChangeWatchedFiles((p) => {
      workspace.invalidateFacts();
      if (p.changes.some((c) => CONFIG_CHANGE.test(c.uri))) configurationChanged();
      else {
        diagnostics.workspaceChanged();
        void env.filesChanged(p.changes.map((c) => c.uri), (uri) => documents.get(uri) !== undefined);
      }
    });

    const readFile = (path: string) => {
      const open = documents.get(pathToUri(path));
      if (open) return { text: open.getText(), version: open.version };
      try {
        const read = readForLint(path, 1024 * 1024);
        return read.kind === 'text' ? { text: read.text, version: null } : undefined;
      } catch {
        return undefined;
      }
    };
    const lintOpen = (uri: string) => {
      const doc = documents.get(uri);
      return doc ? lints.lint(doc) : undefined;
    };

    connection.onCodeAction(async (p) => {
      const lint = await lintOpen(p.textDocument.uri);
      if (!lint) return [];
      const deps: CodeActionDeps = { grammars: await grammars(), locale, documentChanges: features.documentChanges, createFiles: features.createFiles, disabledActions: features.disabledActions, readFile };
      return codeActions(p, lint, deps);
    });
    connection.onHover(async (p) => {
      const lint = await lintOpen(p.textDocument.uri);
      if (!lint) return null;
      const index = env.indexFor(lint.location.root);
      const chainOf = index ? (name: string) => index.chainFor(name, lint.location.relPath) : undefined;
      const offset = lint.doc.coreOffset(p.position);
      return hoverAt(lint, offset, locale, workspace.verified, workspace.surface, chainOf) ?? logprobsAdviceHover(lint, offset, locale) ?? null;
    });
    const navigate = async (uri: string, position: { line: number; character: number }) => {
      const lint = await lintOpen(uri);
      const root = lint?.location.root;
      const index = env.indexFor(root);
      return lint && root && index ? { index, root, relPath: lint.location.relPath, offset: lint.doc.coreOffset(position) } : undefined;
    };
    connection.onDefinition(async (p) => {
      const at = await navigate(p.textDocument.uri, p.position);
      return at ? envDefinitions(at.index, at.root, at.relPath, at.offset) : [];
    });
    connection.onReferences(async (p) => {
      const at = await navigate(p.textDocument.uri, p.position);
      return at ? envReferences(at.index, at.root, at.relPath, at.offset, p.context.includeDeclaration) : [];
    });
    if (lensCommand) {
      connection.onCodeLens(async (p) => {
        const lint = await lintOpen(p.textDocument.uri);
        return lint ? codeLenses(lint, locale, lensCommand) : [];
      });
    }
    connection.onRequest(EndpointAtRequest, async (p) => {
      const lint = await lintOpen(p.uri);
      return lint ? endpointAt(lint, p.offset) : null;
    });
    connection.onRequest(EndpointsRequest, () =>
      listEndpoints({ openLints: () => Promise.all(documents.all().map((d) => lints.lint(d))), workspace, configs, env }),
    );
    const rowCache = new EndpointRowCache();
    connection.onRequest(EndpointRowsRequest, () =>
      listEndpointRows({ openLints: () => Promise.all(documents.all().map((d) => lints.lint(d))), workspace, configs, grammars, env, locale, cache: rowCache }),
    );
    connection.onNotification(VerifiedEndpointsNotification, (p) => {
      workspace.verified = parseVerifiedEndpoints(p?.endpoints);
      configurationChanged();
    });
    connection.onExecuteCommand(async (p) => {
      const arg = p.arguments?.[0];
      if (p.command === SERVER_COMMANDS.showDocumentation && typeof arg === 'string' && RULES.some((r) => r.meta.id === arg)) {
        // Never awaited: a client that is slow to open a browser (or says it could not) must not hold
        // up the command; without showDocument the URL goes out as a plain notification, never as a
        // showMessageRequest that would wait for an answer (it blocks Neovim's prompt).
        // (connection.window.showInformationMessage is such a request in vscode-languageserver.)
        const url = docsUrl(arg);
        const tell = () => void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Info, message: url });
        if (features.showDocument) connection.window.showDocument({ uri: url, external: true }).then((r) => (r.success ? undefined : tell()), tell);
        else tell();
      } else if (p.command === SERVER_COMMANDS.fixAll && arg && typeof (arg as { uri?: unknown }).uri === 'string') {
        const lint = await lintOpen((arg as { uri: string }).uri);
        if (!lint) return { fixed: 0, remaining: 0 };
        const { edits, fixed, remaining, refused } = safeFixAll(lint, await grammars(), locale);
        if (refused) {
          void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: say(locale, 'fix.symlinkOutside', { file: lint.location.relPath }) });
          return { fixed: 0, remaining, notFixed: refused };
        }
        if (edits) {
          const edit = features.documentChanges ? { documentChanges: [{ textDocument: { uri: lint.uri, version: lint.version }, edits }] } : { changes: { [lint.uri]: edits } };
          const applied = await connection.workspace.applyEdit({ label: say(locale, 'action.fixAllSafe'), edit });
          if (!applied.applied) return { fixed: 0, remaining: lint.outcome?.findings.length ?? 0 };
        }
        return { fixed, remaining };
      }
      return null;
    });

    connection.onInitialized(() => {
      log(say(locale, 'log.started', { version: SERVER_VERSION, node: process.version, locale, folders: workspace.roots().length, mode: say(locale, features.pull ? 'log.pulled' : 'log.pushed'), trust: say(locale, options.workspaceTrusted === false ? 'log.untrusted' : 'log.trusted') }));
      grammars().catch((error: Error) => log(say(locale, 'log.grammarsFailed', { error: error.message })));
      if (features.configurationRegistration) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'rolloutLint' });
      if (features.watcherRegistration) {
        void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: WATCHED_GLOBS.map((globPattern) => ({ globPattern })) });
      }
      if (features.workspaceFolders) {
        connection.workspace.onDidChangeWorkspaceFolders((e) => {
          const current = workspace.roots().filter((r) => !e.removed.some((x) => x.uri === r.uri));
          workspace.setFolders([...current.map((r) => ({ uri: r.uri, name: r.path })), ...e.added]);
          configurationChanged();
        });
      }
      diagnostics.start();
      void env.ensure();
    });
    connection.onShutdown(() => {
      diagnostics.dispose();
      env.dispose();
      offload?.dispose();
    });

    const capabilities: ServerCapabilities = {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND, LOGPROBS_ACTION_KIND], resolveProvider: false },
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      executeCommandProvider: { commands: Object.values(SERVER_COMMANDS) },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    };
    if (features.pull) capabilities.diagnosticProvider = { identifier: 'rollout-lint', interFileDependencies: false, workspaceDiagnostics: true };
    if (lensCommand) capabilities.codeLensProvider = { resolveProvider: false };
    return { capabilities, serverInfo: { name: 'rollout-lint-server', version: SERVER_VERSION } };
  });

  connection.listen();
}
