import type { ProbeConsumer } from '../../../server/src/core/probe/index';
import { normalizeLocale } from '../../../server/src/core/messages/locale';
import { BUILTIN_PROVIDERS, providerName as profileName } from '../../../server/src/core/providers/profiles';
import type { EndpointInfo, TestConnectionArgs } from '../../../server/src/lsp/endpoint';
import type { EndpointSummary } from '../../../server/src/lsp/endpoints';
import type { CommandContext, Host, PickItem, ServerConnection, TextRange } from '../types';
import type { BlockKey } from './keys';
import { say } from './texts';

/** The base URL setting a probe came from: Apply Fix edits `contentRange` of `uri`. */
export interface SettingRef {
  uri: string;
  /** File name for messages. */
  file: string;
  key: string;
  /** 1-based line. */
  line: number;
  contentRange: TextRange;
}

/** What one run of Test Connection probes, and where it came from. */
export interface ProbePlan {
  baseUrl: string;
  consumer: ProbeConsumer;
  model?: string;
  /** The provider profile's name in the UI language, or the URL's host. */
  providerName: string;
  setting?: SettingRef;
  blockKey?: BlockKey;
  /** Arguments that probe the same setting again (a lens click's `{uri, offset}`). */
  args?: TestConnectionArgs;
}

const TAOTOKEN = BUILTIN_PROVIDERS.find((p) => p.id === 'taotoken')!;
const CONSUMERS: readonly string[] = ['openai-sdk', 'openai-responses', 'anthropic', 'v1-appending', 'raw', 'sglang-native'];

/** True for the `{uri, offset}` argument of the code lens. */
export function isTestConnectionArgs(value: unknown): value is TestConnectionArgs {
  const v = value as TestConnectionArgs | undefined;
  return !!v && typeof v === 'object' && typeof v.uri === 'string' && typeof v.offset === 'number' && Number.isFinite(v.offset);
}

/** The name of the first known provider id in the UI `language` (`vscode.env.language`), else the URL's `host[:port]`. */
export function providerName(ids: readonly string[], baseUrl: string, language = 'en'): string {
  const profile = ids.map((id) => BUILTIN_PROVIDERS.find((p) => p.id === id)).find((p) => p !== undefined);
  if (profile) return profileName(profile, normalizeLocale(language));
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

function fileName(uri: string): string {
  const segment = uri.split('/').pop() ?? uri;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function consumerOf(ids: readonly string[]): ProbeConsumer {
  return (ids.find((id) => CONSUMERS.includes(id)) as ProbeConsumer | undefined) ?? 'openai-sdk';
}

/**
 * The plan for the setting `endpointAt` described. `file` names the document in the report and the
 * key source (`configs/.env`: the workspace-relative path; the file name when not given). `apiKey`
 * is the paired key's value as this editor's document holds it at `info.apiKey.range`
 * (`readPairedKey`), never from the server. `language` (the UI language) names the provider.
 */
export function planFromEndpoint(info: EndpointInfo, args: TestConnectionArgs, file = fileName(args.uri), apiKey?: string, language = 'en'): ProbePlan {
  return {
    baseUrl: info.baseUrl,
    consumer: consumerOf(info.consumers.map((c) => c.id)),
    model: info.model || undefined,
    providerName: providerName(info.providers, info.baseUrl, language),
    setting: { uri: args.uri, file, key: info.key, line: info.range.start.line + 1, contentRange: info.contentRange ?? info.range },
    blockKey: info.apiKey && apiKey ? { name: info.apiKey.key, value: apiKey, baseUrl: info.baseUrl, file } : undefined,
    args,
  };
}

/** The default target: TaoToken with the base the openai SDK needs (DESIGN "Test TaoToken Connection"). */
export function defaultPlan(): ProbePlan {
  return { baseUrl: TAOTOKEN.openaiBases[0], consumer: 'openai-sdk', providerName: TAOTOKEN.name };
}

async function requestEndpoint(server: ServerConnection | undefined, args: TestConnectionArgs): Promise<EndpointInfo | undefined> {
  if (!server) return undefined;
  try {
    return (await server.sendRequest<EndpointInfo | null>('rolloutLint/endpointAt', args)) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The paired key's value read from the editor's own document at the location the server gave, if that version is still open. */
export async function readPairedKey(host: Host, uri: string, info: EndpointInfo): Promise<string | undefined> {
  if (!info.apiKey) return undefined;
  const text = await host.readText(uri, info.apiKey.range, info.apiKey.version);
  return text || undefined;
}

/**
 * `rolloutLint/endpointAt` at `args` and the paired key read from the document. When the document
 * changed after the server's lint (the key's location is of another version), asks once more; then,
 * still unreadable, the plan has no block key (and the key decision goes on from stored/environment keys).
 */
async function endpointAt(host: Host, server: ServerConnection | undefined, args: TestConnectionArgs): Promise<ProbePlan | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    let info = await requestEndpoint(server, args);
    if (!info) return undefined;
    // URL credentials come masked over the connection; the real value is in this editor's own document.
    if (info.baseUrl.includes('****')) {
      const real = (await host.readText(args.uri, info.contentRange, info.version))?.trim();
      if (real) info = { ...info, baseUrl: real };
    }
    const apiKey = await readPairedKey(host, args.uri, info);
    if (apiKey || !info.apiKey || attempt === 1) return planFromEndpoint(info, args, host.relativePath(args.uri), apiKey, host.language);
  }
  return undefined;
}

/**
 * Chooses what to probe: the lens argument `{uri, offset}`; else the base URL setting under the
 * cursor (`rolloutLint/endpointAt`); else a quick pick, shown at once and filled when the server
 * answers `rolloutLint/endpoints` (from its index), of every base URL in the workspace plus the
 * TaoToken default. No row is preselected and nothing is probed without a row chosen: with no
 * endpoint in the workspace the pick holds the TaoToken row alone. `undefined` when the user
 * dismisses the pick.
 */
export async function chooseTarget(ctx: CommandContext, arg: unknown): Promise<ProbePlan | undefined> {
  const { host } = ctx;
  const server = ctx.server();
  const lens = isTestConnectionArgs(arg) ? { uri: arg.uri, offset: arg.offset } : undefined;
  const active = host.activeDocument();
  // a document the server does not see has no setting under the cursor: the pick comes at once
  const atCursor = lens ?? (active?.offset !== undefined && active.linted !== false ? { uri: active.uri, offset: active.offset } : undefined);
  const found = atCursor && (await endpointAt(host, server, atCursor));
  if (found) return found;
  const fallback = defaultPlan();
  const items = (async (): Promise<PickItem<EndpointSummary | undefined>[]> => {
    let list: EndpointSummary[] = [];
    try {
      list = server ? ((await server.sendRequest<EndpointSummary[] | null>('rolloutLint/endpoints', {})) ?? []) : [];
    } catch (error) {
      ctx.log.warn(say(host.language, 'log.requestFailed', { request: 'rolloutLint/endpoints', error: (error as Error).message }));
    }
    return [
      ...list.map((e) => ({
        label: e.baseUrl,
        description: providerName(e.providers, e.baseUrl, host.language),
        detail: say(host.language, 'pick.detail', { path: e.path, line: e.line + 1, key: e.key }),
        value: e,
      })),
      {
        label: say(host.language, 'pick.default'),
        description: fallback.baseUrl,
        detail: list.length ? say(host.language, 'pick.defaultDetail') : `${say(host.language, 'pick.none')} · ${say(host.language, 'pick.defaultDetail')}`,
        value: undefined,
      },
    ];
  })();
  const picked = await host.showQuickPick(items, { title: say(host.language, 'title'), placeHolder: say(host.language, 'pick.placeHolder'), loading: say(host.language, 'pick.loading') });
  if (!picked) return undefined;
  if (!picked.value) return fallback;
  const summary = picked.value;
  const args = { uri: summary.uri, offset: summary.offset };
  await host.showDocument(summary.uri, summary.offset);
  const plan = await endpointAt(host, server, args);
  if (plan) return plan;
  return { baseUrl: summary.baseUrl, consumer: consumerOf(summary.consumers), providerName: providerName(summary.providers, summary.baseUrl, host.language), args };
}
