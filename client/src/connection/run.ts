import { redactSecrets } from '../../../server/src/core/model/secret';
import { originOf, probe, ProbeCancelledError, type ProbeReport, type ProbeTarget } from '../../../server/src/core/probe/index';
import type { CommandContext } from '../types';
import { promptForApiKey } from './api-key';
import { Approvals, decideKey, type ConsentAnswer, type ConsentRequest, type KeyDecision } from './keys';
import { reportText, statusDetail, statusText, verdictLine } from './report';
import { sessionOf, type ConnectionSession } from './session';
import { chooseTarget, type ProbePlan } from './target';
import { say, type ConnectionTextId } from './texts';
import { createHostTransport, hostProxySettings } from './transport';
import { rememberVerified, sendVerified, verifiedFromReport } from './verified';

/** The command id of Test TaoToken Connection (also what the code lens runs). */
export const TEST_CONNECTION_COMMAND = 'rolloutLint.testConnection';

/** Options that unit tests set on a session's transport (never reachable from outside the process). */
export interface TransportTestOptions {
  allowAddress?: (address: string) => boolean;
}

const transportTestOptions = new WeakMap<ConnectionSession, TransportTestOptions>();

/** Unit tests: restrict the sockets and requests of this session's probes (e.g. to loopback). */
export function setTransportTestOptions(session: ConnectionSession, options: TransportTestOptions): void {
  transportTestOptions.set(session, options);
}

/**
 * Test TaoToken Connection: refuses in an untrusted workspace (no network call), chooses the target
 * (`chooseTarget`), decides the key (`decideKey`, asking for consent when DESIGN requires), probes
 * under a cancellable progress notification, and reports. Resolves to the report, or `undefined`
 * when nothing was probed (untrusted, dismissed, consent cancelled, probe cancelled, bad URL).
 */
export async function runTestConnection(ctx: CommandContext, arg: unknown): Promise<ProbeReport | undefined> {
  if (!ctx.host.isTrusted()) {
    const text = say(ctx.host.language, 'untrusted');
    ctx.log.warn(text);
    void ctx.host.showMessage('warning', text, {});
    return undefined;
  }
  const plan = await chooseTarget(ctx, arg);
  return plan ? probePlan(ctx, plan) : undefined;
}

/** Probes one plan and reports (see `runTestConnection`). */
export async function probePlan(ctx: CommandContext, plan: ProbePlan): Promise<ProbeReport | undefined> {
  const { host, log } = ctx;
  const t = (id: ConnectionTextId, data?: Record<string, string | number>) => say(host.language, id, data);
  const session = sessionOf(ctx);
  const origin = originOf(plan.baseUrl);
  if (!origin) {
    void host.showMessage('error', t('badUrl', { url: plan.baseUrl }), {});
    return undefined;
  }
  session.lastOrigin = origin;
  const env = host.environment();
  const key = await decideKey({
    baseUrl: plan.baseUrl,
    consumer: plan.consumer,
    blockKey: plan.blockKey,
    env,
    secrets: host.secrets,
    approvals: new Approvals(host.globalState),
    language: host.language,
    ask: (request) => askConsent(ctx, session, request),
  });
  if (!key) {
    log.info(t('consent.cancelled', { origin }));
    return undefined;
  }
  const secrets = key.apiKey ? [key.apiKey] : [];
  const target: ProbeTarget = { baseUrl: plan.baseUrl, consumer: plan.consumer, apiKey: key.apiKey, model: plan.model, keyNote: key.note };
  const transport = createHostTransport({
    fetch: host.fetch,
    hostOverrides: session.hostOverrides,
    proxy: hostProxySettings(host.proxyConfig(), env),
    ...transportTestOptions.get(session),
  });
  let report: ProbeReport;
  try {
    report = await host.withProgress(t('progress', { url: redactSecrets(plan.baseUrl, secrets) }), (signal) => probe(target, transport, { signal }));
  } catch (error) {
    if (error instanceof ProbeCancelledError) {
      log.info(t('cancelled'));
      return undefined;
    }
    const text = t('failed', { message: redactSecrets((error as Error).message ?? String(error), secrets) });
    log.error(text);
    void host.showMessage('error', text, {});
    return undefined;
  }
  const at = new Date();
  const text = redactSecrets(reportText(report, plan, key.line, host.language, at), secrets);
  log.info(`\n${text}`);
  session.lastReport = { name: reportName(plan, host.language), text };
  showStatus(ctx, session, report, plan);
  await keepVerified(ctx, report, at.getTime());
  session.followUp = notify(ctx, plan, report, key, text).catch((error: Error) => log.error(say(host.language, 'log.followUpFailed', { error: redactSecrets(error.message, secrets) })));
  return report;
}

async function askConsent(ctx: CommandContext, session: ConnectionSession, request: ConsentRequest): Promise<ConsentAnswer> {
  if (session.consentHandler) return session.consentHandler(request);
  const once = say(ctx.host.language, 'consent.once');
  const always = say(ctx.host.language, 'consent.always');
  const choice = await ctx.host.showMessage('warning', request.message, { modal: true, detail: request.detail }, once, always);
  return choice === once ? 'once' : choice === always ? 'always' : 'cancel';
}

function severityOf(report: ProbeReport): 'information' | 'warning' | 'error' {
  if (report.verdict === 'ok') return 'information';
  return report.verdict === 'paused' || report.verdict === 'rate-limited' ? 'warning' : 'error';
}

function showStatus(ctx: CommandContext, session: ConnectionSession, report: ProbeReport, plan: ProbePlan): void {
  if (!session.statusItem) {
    session.statusItem = ctx.host.createStatusItem('rolloutLint.connection', say(ctx.host.language, 'status.name'));
    session.statusItem.command = { title: say(ctx.host.language, 'status.again'), command: TEST_CONNECTION_COMMAND };
  }
  Object.assign(session.statusItem, { text: statusText(report, plan.providerName), detail: statusDetail(new Date(), ctx.host.language), severity: severityOf(report), busy: false });
}

/** Keeps what the report proves for this workspace and hands the list to the server (feedback into lint). */
async function keepVerified(ctx: CommandContext, report: ProbeReport, at: number): Promise<void> {
  const entry = verifiedFromReport(report, at);
  if (!entry) return;
  const list = await rememberVerified(ctx.host.workspaceState, entry);
  await sendVerified(ctx.server(), list).catch((error: Error) => ctx.log.warn(say(ctx.host.language, 'log.requestFailed', { request: 'rolloutLint/verifiedEndpoints', error: error.message })));
}

/** The one-line result notification and what its buttons do. */
async function notify(ctx: CommandContext, plan: ProbePlan, report: ProbeReport, key: KeyDecision, text: string): Promise<void> {
  const { host, log } = ctx;
  const t = (id: ConnectionTextId, data?: Record<string, string | number>) => say(host.language, id, data);
  const buttons: string[] = [];
  const fix = report.fix;
  const setting = plan.setting;
  if (fix && !fix.consumer && setting && fix.baseUrl !== plan.baseUrl) buttons.push(t('button.applyFix'));
  if ((report.verdict === 'unauthorized' || report.verdict === 'forbidden') && key.source !== 'file') buttons.push(t('button.setApiKey'));
  buttons.push(t('button.showOutput'), t('button.showReport'));
  const severity = severityOf(report);
  const kind = severity === 'information' ? 'info' : severity;
  const choice = await host.showMessage(kind, verdictLine(report, plan, host.language), {}, ...buttons);
  if (choice === t('button.applyFix') && fix && setting) {
    const applied = await host.replaceText(setting.uri, setting.contentRange, plan.baseUrl, fix.baseUrl);
    const message = applied ? t('fix.applied', { url: fix.baseUrl }) : t('fix.stale');
    log.info(message);
    void host.showMessage(applied ? 'info' : 'warning', message, {});
  } else if (choice === t('button.setApiKey')) {
    if (await promptForApiKey(ctx, originOf(plan.baseUrl))) await probePlan(ctx, plan);
  } else if (choice === t('button.showOutput')) {
    log.show(true);
  } else if (choice === t('button.showReport')) {
    await showReport(ctx);
  }
}

/** The read-only report document's name (its tab title): `Rollout Lint connection report (TaoToken)`. */
function reportName(plan: ProbePlan, language: string): string {
  return say(language, 'report.documentName', { provider: plan.providerName.replace(/[\\/]/g, ' ') });
}

/** Shows the last connection report as a read-only document; says so when there is none yet. */
export async function showReport(ctx: CommandContext, session = sessionOf(ctx)): Promise<boolean> {
  const last = session.lastReport;
  if (!last) {
    void ctx.host.showMessage('info', say(ctx.host.language, 'report.noReport'), {});
    return false;
  }
  await ctx.host.showReadOnly(last.name, last.text, 'rollout-lint-report');
  return true;
}
