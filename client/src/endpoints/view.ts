import type { EndpointViewRow } from '../../../server/src/lsp/endpoint-rows';
import { findVerified, worksAsConfigured } from '../../../server/src/core/model/verified';
import { say } from '../connection/texts';
import { loadVerified } from '../connection/verified';
import type { CommandContext, CommandModule, Disposable, TreeNode } from '../types';
import { consumerText, severityText, viewText, type ViewTextId } from './texts';

/** The explorer view contributed in `package.json` (`contributes.views.explorer`). */
export const ENDPOINTS_VIEW = 'rolloutLint.endpoints';
/** `viewItem` of an endpoint row (inline Test connection / Go to definition in `menus`). */
export const ENDPOINT_ITEM = 'rolloutLint.endpoint';
const REFRESH_DELAY_MS = 500;

/** How the client was recognised, without the SDK the row already names (`OPENAI_BASE_URL (openai SDK)` → `OPENAI_BASE_URL`). */
function shortVia(via: string | undefined): string | undefined {
  return via?.replace(/\s*\((?:openai|Anthropic) SDK\)$/, '') || undefined;
}

function hhmm(at: number): string {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/**
 * The row's log-prob detail. A request that does not ask for log probs while no rule flags it (no
 * rollout in sight: a chatbot or an eval, issue 25 item 4) is told apart from a flagged one: an
 * info icon, and a tooltip saying what a rollout would need.
 */
function logprobsNode(row: EndpointViewRow, i: number, t: (id: ViewTextId) => string): TreeNode {
  const flagged = row.findings.some((f) => /^(top-)?logprobs-/.test(f.ruleId));
  if (row.logprobs === 'missing' && !flagged) return { id: `${i}.logprobs`, label: t('detail.logprobs.notAsked'), icon: 'info', tooltip: t('tooltip.logprobs.notAsked') };
  return { id: `${i}.logprobs`, label: t(`detail.logprobs.${row.logprobs}`), icon: row.logprobs === 'missing' ? 'warning' : 'graph' };
}

/** The rows of the view for the server's endpoint rows: one per endpoint, details as children. Pure (unit-tested). */
export function endpointNodes(rows: readonly EndpointViewRow[], language: string, verified: ReturnType<typeof loadVerified>): TreeNode[] {
  const t = (id: ViewTextId, data?: Record<string, string | number>) => viewText(language, id, data);
  const goTo = t('command.goToDefinition');
  return rows.map((row, i) => {
    const worst = row.findings.some((f) => f.severity === 'error') ? 'error' : row.findings.some((f) => f.severity === 'warning') ? 'warning' : row.findings.length ? 'info' : 'pass';
    const proof = findVerified(verified, row.baseUrl, row.consumer as never);
    const children: TreeNode[] = [
      { id: `${i}.base`, label: t('detail.baseUrl', { key: row.key, url: row.baseUrl }), icon: 'link' },
      ...(row.definedAt ? [{ id: `${i}.from`, label: t('row.from', { file: row.definedAt.file, line: row.definedAt.line }), icon: 'go-to-file', command: row.definition ? { command: GO_TO_DEFINITION, title: goTo, arguments: [row] } : undefined }] : []),
      { id: `${i}.consumer`, label: row.consumer === 'unknown' ? t('detail.consumerUnknown') : shortVia(row.via) ? t('detail.consumer', { consumer: consumerText(language, row.consumer), via: shortVia(row.via)! }) : t('detail.consumerOnly', { consumer: consumerText(language, row.consumer) }), icon: 'plug' },
      ...(row.clients?.length ? [{ id: `${i}.readers`, label: t('detail.readers', { clients: row.clients.join(', ') }), icon: 'person' }] : []),
      ...(row.noRequest ? [{ id: `${i}.noRequest`, label: t('detail.noRequest', { reason: row.noRequest }), icon: 'error' }] : row.call ? [{ id: `${i}.call`, label: t('detail.call', { call: row.call }), icon: 'symbol-method' }] : row.assumed ? [{ id: `${i}.assumed`, label: t('detail.assumed'), icon: 'question' }] : []),
      { id: `${i}.key`, label: row.keySource ? t('detail.key', { source: row.keySource }) : t('detail.noKey'), icon: 'key' },
      { id: `${i}.model`, label: row.model ? t('detail.model', { model: row.model }) : t('detail.noModel'), icon: 'symbol-class' },
      logprobsNode(row, i, t),
      ...row.findings.map((f, j) => ({ id: `${i}.finding.${j}`, label: f.message, description: f.ruleId, icon: f.severity === 'hint' ? 'info' : f.severity })),
      {
        id: `${i}.verified`,
        label: proof ? (worksAsConfigured(proof) ? t('detail.verified', { time: hhmm(proof.at), url: proof.url }) : t('detail.verifiedFix', { time: hhmm(proof.at), working: proof.workingBaseUrl })) : t('detail.notTested'),
        icon: proof ? (worksAsConfigured(proof) ? 'pass' : 'warning') : 'circle-outline',
      },
    ];
    // A sidebar of usual width cuts the longer details: each shows its whole text on hover.
    for (const child of children) child.tooltip ??= child.description ? `${child.label} (\`${child.description}\`)` : child.label;
    return {
      id: `${row.uri}#${row.offset}#${row.consumer}#${row.method ?? ''}#${row.effectiveUrl ?? ''}#${row.clients?.join(',') ?? ''}`,
      // The place first: in a sidebar of usual width a URL label hides everything after it, and the
      // URLs of one workspace share their start (https://taotoken.net/api/v1/…), so they would not tell rows apart.
      label: `${row.file}:${row.line}`,
      description: row.effectiveUrl ? `${row.method ?? 'POST'} ${row.effectiveUrl}` : row.noRequest ? t('detail.noRequest', { reason: row.noRequest }) : row.baseUrl,
      tooltip: [`**${row.key}** · \`${row.file}:${row.line}\``, `${row.effectiveUrl ? `${row.method ?? 'POST'} ${row.effectiveUrl}` : row.baseUrl} · ${consumerText(language, row.consumer)}`, ...row.findings.map((f) => `- ${t('tooltip.finding', { severity: severityText(language, f.severity), message: f.message })} (\`${f.ruleId}\`)`)].join('\n\n'),
      icon: worst,
      contextValue: ENDPOINT_ITEM,
      command: { command: GO_TO_DEFINITION, title: goTo, arguments: [row, 'row'] },
      children,
    };
  });
}

/** Command ids of the view (each also in `package.json` `contributes.commands`). */
export const REFRESH = 'rolloutLint.endpoints.refresh';
export const TEST_ENDPOINT = 'rolloutLint.endpoints.testConnection';
export const GO_TO_DEFINITION = 'rolloutLint.endpoints.goToDefinition';

/** The row a view command was run on: VS Code passes the tree node; a node's own command passes the row. */
function rowOf(arg: unknown): EndpointViewRow | undefined {
  const node = arg as (TreeNode & { row?: EndpointViewRow }) | EndpointViewRow | undefined;
  if (!node) return undefined;
  if ('uri' in node && typeof node.uri === 'string') return node as EndpointViewRow;
  const args = (node as TreeNode).command?.arguments;
  return args?.[0] as EndpointViewRow | undefined;
}

let refreshView: (() => void) | undefined;

/** Creates the view at activation: it asks the server for `rolloutLint/endpointRows` and refreshes (debounced) when diagnostics change. */
export const endpointsView: CommandModule = {
  id: REFRESH,
  activate(context: CommandContext): Disposable {
    const { host } = context;
    const view = host.createTreeView(ENDPOINTS_VIEW, {
      async roots() {
        const server = context.server();
        if (!server) return [{ id: 'none', label: viewText(host.language, 'empty.noServer'), icon: 'info' }];
        const rows = (await server.sendRequest<EndpointViewRow[] | null>('rolloutLint/endpointRows', undefined).catch((error: Error) => {
          context.log.warn(say(host.language, 'log.requestFailed', { request: 'rolloutLint/endpointRows', error: error.message }));
          return null;
        })) ?? [];
        if (rows.length === 0) return [{ id: 'none', label: viewText(host.language, 'empty.none'), icon: 'info' }];
        return endpointNodes(rows, host.language, loadVerified(host.workspaceState));
      },
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stale = false;
    refreshView = () => view.refresh();
    const later = () => {
      if (!view.visible) return void (stale = true);
      clearTimeout(timer);
      timer = setTimeout(() => view.refresh(), REFRESH_DELAY_MS);
    };
    const listeners = [host.onDidChangeDiagnostics(later), view.onDidChangeVisibility(() => stale && view.visible && ((stale = false), view.refresh()))];
    return {
      dispose() {
        clearTimeout(timer);
        refreshView = undefined;
        for (const l of listeners) l.dispose();
        view.dispose();
      },
    };
  },
  run() {
    refreshView?.();
  },
};

/** Inline "Test connection": the connection test of the row's base URL (the server resolves its key and consumer). */
export const testEndpoint: CommandModule = {
  id: TEST_ENDPOINT,
  async run(context, arg) {
    const row = rowOf(arg);
    if (row) await context.host.executeCommand('rolloutLint.testConnection', { uri: row.uri, offset: row.clientOffset });
    refreshView?.();
  },
};

/** Inline "Go to definition": the definition in another file when the value comes from one, else the row itself (also a click on the row: `where` = `row`). */
export const goToEndpointDefinition: CommandModule = {
  id: GO_TO_DEFINITION,
  async run(context, arg, where) {
    const row = rowOf(arg);
    if (!row) return;
    if (row.definition && where !== 'row') await context.host.showDocument(row.definition.uri, row.definition.offset);
    else await context.host.showDocument(row.uri, row.clientOffset);
  },
};
