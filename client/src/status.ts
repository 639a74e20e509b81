import type { Disposable, Host, StatusItem } from './types';
import { say } from './connection/texts';

/** The language client's state as the status item shows it. */
export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

/** Errors and warnings counted by the item (hints are left out, as in the status bar's counts). */
export interface ProblemCounts {
  errors: number;
  warnings: number;
}

/**
 * What the item shows for a state, the workspace's error and warning counts and the last slow run (if
 * any), in the UI language. The text uses the status bar's icons (`$(error) 4 $(warning) 2`), so it is
 * as narrow in every language and reads the same numbers as the status bar.
 */
export function statusView(language: string, state: ServerState, problems: ProblemCounts, slowRun?: { file: string; ms: number }): Pick<StatusItem, 'text' | 'detail' | 'severity' | 'busy'> {
  switch (state) {
    case 'starting':
      return { text: 'Rollout Lint', detail: say(language, 'lang.starting'), severity: 'information', busy: true };
    case 'stopped':
      return { text: 'Rollout Lint', detail: say(language, 'lang.stopped'), severity: 'warning', busy: false };
    case 'failed':
      return { text: 'Rollout Lint', detail: say(language, 'lang.failed'), severity: 'error', busy: false };
    case 'running':
      return {
        text: `$(error) ${problems.errors} $(warning) ${problems.warnings}`,
        detail: slowRun ? say(language, 'lang.slow', slowRun) : say(language, 'lang.detail'),
        severity: slowRun ? 'warning' : 'information',
        busy: false,
      };
  }
}

/** The language status item: server state and problem counts; a click shows the log. */
export class LanguageStatus implements Disposable {
  private readonly item: StatusItem;
  private readonly subscription: Disposable;
  private state: ServerState = 'starting';
  private slowRun: { file: string; ms: number } | undefined;

  constructor(
    private readonly host: Host,
    private readonly source: string,
    showLogCommand: string,
  ) {
    this.item = host.createStatusItem('rolloutLint.status', 'Rollout Lint');
    this.item.command = { title: say(host.language, 'lang.showLog'), command: showLogCommand };
    this.subscription = host.onDidChangeDiagnostics(() => this.render());
    this.render();
  }

  setState(state: ServerState): void {
    this.state = state;
    this.render();
  }

  /** Shows a slow run of `uri` (its workspace-relative path) until the next one. */
  reportSlowRun(uri: string, ms: number): void {
    this.slowRun = { file: this.host.relativePath(uri), ms };
    this.render();
  }

  private render(): void {
    Object.assign(this.item, statusView(this.host.language, this.state, this.host.countDiagnostics(this.source), this.slowRun));
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
