import type {
  CancellationToken,
  Connection,
  Diagnostic,
  DocumentDiagnosticParams,
  DocumentDiagnosticReport,
  ResultProgressReporter,
  TextDocuments,
  WorkDoneProgressReporter,
  WorkspaceDiagnosticParams,
  WorkspaceDiagnosticReport,
  WorkspaceDiagnosticReportPartialResult,
  WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver';
import { CancellationTokenSource, DocumentDiagnosticReportKind, LSPErrorCodes, ResponseError } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { toDiagnostic } from './convert';
import { hasUnprovenFixes } from '../core/lint';
import type { DocumentLint, LintService } from './lint-service';
import { GONE, lintFromDisk, scanWorkspace, type ScanDeps, type ScanReport } from './workspace-scan';
import { QUIET_MS, QuietTime, SYSTEM_CLOCK, type Clock } from './quiet';

/** Delay before a workspace rescan after file-watch events (they come in bursts). */
const RESCAN_DELAY_MS = 200;

/** `textDocument/diagnostic` result id: document version and configuration generation. */
export function documentResultId(lint: DocumentLint): string {
  return `${lint.version}:${lint.generation}`;
}

export function lintDiagnostics(lint: DocumentLint): Diagnostic[] {
  return lint.findings.map((f) => toDiagnostic(f, lint.doc, lint.version, true, lint.location.root, lint.outcome ? hasUnprovenFixes(lint.outcome, f) : false));
}

function cancelled(): ResponseError<{ retriggerRequest: boolean }> {
  return new ResponseError(LSPErrorCodes.ServerCancelled, 'superseded by a newer edit', { retriggerRequest: true });
}

/**
 * Diagnostics for open documents and for the rest of the workspace, in the client's mode: pull
 * (`textDocument/diagnostic`, `workspace/diagnostic`) when the client declares
 * `textDocument.diagnostic`, push (`textDocument/publishDiagnostics`) otherwise — never both.
 * Open documents are linted after a quiet time that adapts to the document (`QuietTime`: none for
 * the text it opens with, its lint time after a lone edit, longer in a burst of edits); a run for a
 * version that is no longer current is dropped, so the last result a client receives is for the last version.
 */
export class Diagnostics {
  private readonly quiet: QuietTime;
  private readonly timers = new Map<string, unknown>();
  /** Push mode, per document: the number of the latest `publish` call, and of the latest one that sent. */
  private readonly publishSeq = new Map<string, { started: number; sent: number; lint?: DocumentLint }>();
  private readonly published = new Map<string, string>();
  private changeSeq = 0;
  private readonly waiters = new Set<() => void>();
  private rescanTimer: NodeJS.Timeout | undefined;
  private pushScan: CancellationTokenSource | undefined;
  private readonly nonEmpty = new Set<string>();
  private firstScan = true;
  private answeredWorkspace = false;

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly lints: LintService,
    private readonly scan: ScanDeps,
    readonly pull: boolean,
    private readonly options: { refreshSupport: boolean; workDoneProgress: boolean },
    private readonly clock: Clock = SYSTEM_CLOCK,
  ) {
    this.quiet = new QuietTime(clock);
  }

  /** A document was opened: the text it opens with is linted without a quiet time. */
  opened(uri: string): void {
    this.quiet.opened(uri);
  }

  /** A document was opened or edited: it is linted once its quiet time passes with no further edit. */
  touched(uri: string): void {
    const quiet = this.quiet.edited(uri);
    if (this.pull) return;
    this.clock.clearTimeout(this.timers.get(uri));
    this.timers.set(uri, this.clock.setTimeout(() => void this.publish(uri), quiet));
  }

  /** The engine linted an open document in `ms`: its next quiet times follow (see `QuietTime`). */
  linted(uri: string, ms: number): void {
    this.quiet.linted(uri, ms);
  }

  /** Push mode: what `uri` depends on changed: it is linted again soon (a pending lint already will be). */
  private relint(uri: string): void {
    if (this.timers.has(uri)) return;
    this.timers.set(uri, this.clock.setTimeout(() => void this.publish(uri), QUIET_MS.min));
  }

  /** A document was closed: its diagnostics come from disk again (workspace scan). */
  closed(uri: string): void {
    this.clock.clearTimeout(this.timers.get(uri));
    this.timers.delete(uri);
    this.quiet.forget(uri);
    this.publishSeq.delete(uri);
    this.lints.forget(uri);
    if (!this.pull) {
      void this.connection.sendDiagnostics({ uri, diagnostics: [] });
      this.published.delete(uri);
      this.nonEmpty.delete(uri);
    }
    this.workspaceChanged();
  }

  /** Settings, `.rolloutlintrc.json` or git facts changed: every open document and the workspace are linted again. */
  configurationChanged(): void {
    this.openDocumentsChanged();
    this.workspaceChanged();
  }

  /** What open documents depend on changed (the env index was built): they are linted again. */
  openDocumentsChanged(): void {
    this.dependentsChanged(this.documents.all().map((doc) => doc.uri));
  }

  /** Facts that the open documents `uris` read changed (a sibling dotenv file was edited): they are linted again. */
  dependentsChanged(uris: readonly string[]): void {
    if (this.pull) {
      if (this.options.refreshSupport) void this.connection.languages.diagnostics.refresh().catch(() => undefined);
    } else {
      for (const uri of uris) this.relint(uri);
    }
  }

  /** Files changed on disk: unopened files are rescanned (pull: the open workspace request wakes up). */
  workspaceChanged(): void {
    this.changeSeq++;
    for (const wake of [...this.waiters]) wake();
    if (!this.pull) {
      clearTimeout(this.rescanTimer);
      this.rescanTimer = setTimeout(() => void this.pushWorkspace(), RESCAN_DELAY_MS);
    }
  }

  /**
   * Push mode: lints the document's current version and publishes it, unless a newer version arrived
   * meanwhile, a later run has already published, or this very result was the last one published.
   */
  private async publish(uri: string): Promise<void> {
    this.timers.delete(uri);
    const document = this.documents.get(uri);
    if (!document) return;
    let seq = this.publishSeq.get(uri);
    if (!seq) this.publishSeq.set(uri, (seq = { started: 0, sent: 0 }));
    const mine = ++seq.started;
    const lint = await this.lints.lint(document);
    const current = this.documents.get(uri);
    if (!current || current.version !== lint.version || this.publishSeq.get(uri) !== seq) return;
    this.quiet.settled(uri);
    if (seq.sent > mine || seq.lint === lint) return;
    seq.sent = mine;
    seq.lint = lint;
    await this.connection.sendDiagnostics({ uri, version: lint.version, diagnostics: lintDiagnostics(lint) });
  }

  /** Resolves once the document's quiet time has passed without edits, or rejects when `token` is cancelled. */
  private async settle(uri: string, token: CancellationToken): Promise<void> {
    for (;;) {
      if (token.isCancellationRequested) throw cancelled();
      const wait = this.quiet.remaining(uri);
      if (wait <= 0) return;
      await new Promise<void>((resolve) => {
        const finish = () => {
          this.clock.clearTimeout(timer);
          listener.dispose();
          resolve();
        };
        const timer = this.clock.setTimeout(finish, wait);
        const listener = token.onCancellationRequested(finish);
      });
    }
  }

  /** `textDocument/diagnostic`: open documents from the editor's text, others from disk. */
  async onDocumentPull(params: DocumentDiagnosticParams, token: CancellationToken): Promise<DocumentDiagnosticReport> {
    const uri = params.textDocument.uri;
    // A notebook shown in a tab is pulled by its file URI too (VS Code's client pulls for notebook tabs):
    // while its cells are open they carry its findings, so the file itself reports none.
    if (this.scan.cellsOpen?.(uri)) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    if (!this.documents.get(uri)) return { kind: DocumentDiagnosticReportKind.Full, items: (await this.diskDiagnostics(uri)) ?? [] };
    await this.settle(uri, token);
    const document = this.documents.get(uri);
    if (!document) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    const lint = await this.lints.lint(document);
    if (token.isCancellationRequested) throw cancelled();
    if (this.documents.get(uri)?.version === lint.version) this.quiet.settled(uri);
    const resultId = documentResultId(lint);
    if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    return { kind: DocumentDiagnosticReportKind.Full, resultId, items: lintDiagnostics(lint) };
  }

  private async diskDiagnostics(uri: string): Promise<Diagnostic[] | undefined> {
    const location = this.scan.workspace.locate(uri);
    if (!location.absPath || !location.root) return undefined;
    const folder = this.scan.workspace.roots().find((r) => r.path === location.root);
    return lintFromDisk(this.scan, location.absPath, folder?.uri ?? uri, location.root).catch(() => undefined);
  }

  private waitForChange(since: number, token: CancellationToken): Promise<void> {
    if (this.changeSeq !== since || token.isCancellationRequested) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.waiters.delete(done);
        listener.dispose();
        resolve();
      };
      const listener = token.onCancellationRequested(done);
      this.waiters.add(done);
    });
  }

  /**
   * `workspace/diagnostic`. With a partial result token the reports stream as `$/progress` and the
   * request stays open, sending what changes, until the client cancels it. Without one, the request
   * answers as soon as a scan finds something new (unchanged-only scans wait for the next change).
   */
  async onWorkspacePull(
    params: WorkspaceDiagnosticParams,
    token: CancellationToken,
    workDone: WorkDoneProgressReporter,
    partial: ResultProgressReporter<WorkspaceDiagnosticReportPartialResult> | undefined,
  ): Promise<WorkspaceDiagnosticReport> {
    let previous = new Map(params.previousResultIds.map((p) => [p.uri, p.value]));
    let collected: WorkspaceDocumentDiagnosticReport[] = [];
    let first = true;
    for (;;) {
      const since = this.changeSeq;
      let fresh = 0;
      collected = [];
      const seen = await scanWorkspace(
        this.scan,
        previous,
        token,
        (reports) => {
          const items = reports.filter((r) => first || r.diagnostics).map(workspaceItem);
          fresh += reports.filter((r) => r.diagnostics).length;
          if (partial) {
            if (items.length) partial.report({ items });
          } else collected.push(...items);
        },
        first ? workDone : undefined,
      );
      if (token.isCancellationRequested) return { items: [] };
      const open = await this.openDocumentReports(previous, first);
      fresh += open.fresh;
      for (const [uri, resultId] of open.seen) seen.set(uri, resultId);
      if (open.items.length) {
        if (partial) partial.report({ items: open.items });
        else collected.push(...open.items);
      }
      if (!partial && (fresh > 0 || !this.answeredWorkspace)) {
        this.answeredWorkspace = true;
        return { items: collected };
      }
      previous = new Map([...previous, ...seen]);
      first = !partial;
      await this.waitForChange(since, token);
      if (token.isCancellationRequested) return { items: partial ? [] : collected };
    }
  }

  /**
   * Workspace reports for open documents, linted from the editor's text and tagged with its version.
   * A client pulls document diagnostics only for documents shown in a tab; a document whose tab was
   * closed but which is still open (no `didClose` yet) would otherwise keep stale diagnostics after a
   * configuration change. Clients prefer their own document pulls over these reports.
   */
  private async openDocumentReports(previous: ReadonlyMap<string, string>, first: boolean): Promise<{ items: WorkspaceDocumentDiagnosticReport[]; seen: Map<string, string>; fresh: number }> {
    const items: WorkspaceDocumentDiagnosticReport[] = [];
    const seen = new Map<string, string>();
    let fresh = 0;
    for (const document of this.documents.all()) {
      const lint = await this.lints.lint(document);
      if (this.documents.get(document.uri)?.version !== lint.version) continue;
      const resultId = `open:${documentResultId(lint)}`;
      seen.set(document.uri, resultId);
      if (previous.get(document.uri) !== resultId) {
        fresh++;
        items.push({ kind: DocumentDiagnosticReportKind.Full, uri: document.uri, version: lint.version, resultId, items: lintDiagnostics(lint) });
      } else if (first) {
        items.push({ kind: DocumentDiagnosticReportKind.Unchanged, uri: document.uri, version: lint.version, resultId });
      }
    }
    return { items, seen, fresh };
  }

  /** Push mode: rescans the workspace and publishes what changed since the last publication. */
  private async pushWorkspace(): Promise<void> {
    this.pushScan?.cancel();
    const source = new CancellationTokenSource();
    this.pushScan = source;
    let progress: WorkDoneProgressReporter | undefined;
    if (this.firstScan && this.options.workDoneProgress) {
      this.firstScan = false;
      progress = await this.connection.window.createWorkDoneProgress().catch(() => undefined);
    }
    await scanWorkspace(
      this.scan,
      this.published,
      source.token,
      (reports) => {
        for (const r of reports) {
          if (!r.diagnostics || this.documents.get(r.uri)) continue;
          if (r.resultId.endsWith(GONE)) this.published.delete(r.uri);
          else this.published.set(r.uri, r.resultId);
          if (r.diagnostics.length === 0 && !this.nonEmpty.has(r.uri)) continue;
          if (r.diagnostics.length) this.nonEmpty.add(r.uri);
          else this.nonEmpty.delete(r.uri);
          void this.connection.sendDiagnostics({ uri: r.uri, diagnostics: r.diagnostics });
        }
      },
      progress,
    );
    if (this.pushScan === source) this.pushScan = undefined;
  }

  /** Push mode: the first workspace scan, once the session is initialised. */
  start(): void {
    if (!this.pull) void this.pushWorkspace();
  }

  dispose(): void {
    for (const t of this.timers.values()) this.clock.clearTimeout(t);
    clearTimeout(this.rescanTimer);
    this.pushScan?.cancel();
    for (const wake of [...this.waiters]) wake();
  }
}

function workspaceItem(r: ScanReport): WorkspaceDocumentDiagnosticReport {
  return r.diagnostics
    ? { kind: DocumentDiagnosticReportKind.Full, uri: r.uri, version: null, resultId: r.resultId, items: r.diagnostics }
    : { kind: DocumentDiagnosticReportKind.Unchanged, uri: r.uri, version: null, resultId: r.resultId };
}
