import type { Disposable, Host, StatusItem } from './types';

/** The language client's state as the status item shows it. */
export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

const TEXTS = {
  en: {
    problems: (n: number) => (n === 1 ? '1 problem' : `${n} problems`),
    starting: 'starting…',
    stopped: 'stopped',
    failed: 'the server failed; see the log',
    slow: (file: string, ms: number) => `slow run: ${file} took ${ms} ms`,
    showLog: 'Show log',
  },
  zh: {
    problems: (n: number) => `${n} 个问题`,
    starting: '正在启动…',
    stopped: '已停止',
    failed: '服务器出错；请查看日志',
    slow: (file: string, ms: number) => `检查较慢：${file} 用时 ${ms} 毫秒`,
    showLog: '显示日志',
  },
};

function texts(language: string) {
  return /^zh\b/i.test(language) ? TEXTS.zh : TEXTS.en;
}

/** What the item shows for a state, a problem count and the last slow run (if any), in the UI language. */
export function statusView(language: string, state: ServerState, problems: number, slowRun?: { file: string; ms: number }): Pick<StatusItem, 'text' | 'detail' | 'severity' | 'busy'> {
  const t = texts(language);
  switch (state) {
    case 'starting':
      return { text: 'Rollout Lint', detail: t.starting, severity: 'information', busy: true };
    case 'stopped':
      return { text: 'Rollout Lint', detail: t.stopped, severity: 'warning', busy: false };
    case 'failed':
      return { text: 'Rollout Lint', detail: t.failed, severity: 'error', busy: false };
    case 'running':
      return {
        text: `Rollout Lint: ${t.problems(problems)}`,
        detail: slowRun ? t.slow(slowRun.file, slowRun.ms) : undefined,
        severity: slowRun ? 'warning' : 'information',
        busy: false,
      };
  }
}

/** The language status item: server state and problem count; a click shows the log. */
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
    this.item.command = { title: texts(host.language).showLog, command: showLogCommand };
    this.subscription = host.onDidChangeDiagnostics(() => this.render());
    this.render();
  }

  setState(state: ServerState): void {
    this.state = state;
    this.render();
  }

  reportSlowRun(uri: string, ms: number): void {
    this.slowRun = { file: uri.split('/').pop() ?? uri, ms };
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
