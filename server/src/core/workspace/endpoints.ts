import type { Finding, Range, RequestSite, Setting } from '../model/types';
import type { LintOutcome } from '../lint';
import { maskSecret, redactUrlSecrets } from '../model/secret';
import { LineIndex } from '../positions';
import { logprobsKey, logprobsState } from '../rules/requests';
import type { EnvView } from './env-index';
import type { Locale } from '../messages/locale';
import { NO_REQUEST_REASON, readingLabel } from '../resolve/clients';

const UNDEFINED: Record<Locale, string> = { en: 'not defined in the workspace', 'zh-CN': '工作区中未定义' };

/**
 * One endpoint the workspace uses: a base URL as one client reads it (`rollout-lint endpoints --json`,
 * the Rollout Endpoints view). Keys are masked (`sk-…abcd (51 chars)`); nothing here holds a secret.
 */
export interface EndpointRow {
  /** Workspace-relative path of the client construction, request site or env definition. */
  file: string;
  /** 1-based line and column of the base URL value (of the env read for a value from another file). */
  line: number;
  column: number;
  /** UTF-16 offset of the value in the file (BOM removed), for "Test connection". */
  offset: number;
  /** The key as written (`OPENAI_BASE_URL`, `base_url`). */
  key: string;
  baseUrl: string;
  /** Consumer id (`openai-sdk`, `v1-appending`, …) or `unknown`. */
  consumer: string;
  /** How the consumer was recognised (`OpenAI(base_url=…)`). */
  via?: string;
  /** The request URL this consumer calls, `null` when the consumer is unknown or the client sends nothing. */
  effectiveUrl: string | null;
  /** HTTP method of that request (`GET` for `models.list()`), `null` when nothing is known to be sent. */
  method: 'GET' | 'POST' | null;
  /** The SDK call that decides path and method (`client.completions.create`), when one is in sight. */
  call?: string;
  /** True when no call is in sight and the row shows the client's default request. */
  assumed?: boolean;
  /** The clients (and `.env` loaders) this row stands for (`openai-python 3.x (python-dotenv)`); absent when none is modelled. */
  clients?: string[];
  /** Why the client sends nothing, when it does not (then `effectiveUrl` is `null`). */
  noRequest?: string;
  /** Where the value is defined when it comes from another file (`.env:3`). */
  definedAt?: { file: string; line: number };
  /** The API key that travels with this base URL, masked, and where it comes from; `null` when none is visible. */
  keySource: string | null;
  model: string | null;
  /**
   * Log probs of the request sites in the same file: `requested` (every site asks), `missing` (some
   * site does not), `unknown` (no request site in the file).
   */
  logprobs: 'requested' | 'missing' | 'unknown';
  /**
   * Errors, warnings and hints on this setting, on the API key written beside it, and on the file's
   * request sites (log probs), by rule id: a row without findings agrees with Problems.
   */
  findings: { ruleId: string; severity: string; message: string }[];
}

const within = (r: Range, outer: Range) => r.start >= outer.start && r.end <= outer.end;

/** The API key setting written in the same block as `setting` (same `.env`, same `OpenAI(…)` call, same script). */
function pairedKey(setting: Setting, outcome: LintOutcome): Setting | undefined {
  return outcome.resolution.settings.find((s) => s.role === 'apiKey' && s.group === setting.group && s !== setting);
}

/** Rules about the request sites of a file: their findings are the row's `logprobs` line, so they count for the row. */
const REQUEST_RULES = /^(top-)?logprobs-/;

function keySource(setting: Setting, outcome: LintOutcome, env: EnvView | undefined, locale: Locale): string | null {
  const key = pairedKey(setting, outcome);
  const reference = key?.value !== undefined ? /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(key.value.trim())?.[1] : undefined;
  if (key?.value !== undefined && !reference) return `${key.key} ${maskSecret(key.value, locale)}`;
  const readName = reference ?? (key ? outcome.extraction.envReads.find((r) => within(r.range, key.valueRange))?.name : undefined);
  const envName = readName ?? (setting.kind === 'env' || setting.kind === 'envDefault' ? guessKeyName(setting.envName ?? setting.key) : undefined);
  if (!envName) return null;
  const local = outcome.resolution.settings.find((s) => s.kind === 'env' && s.key === envName && s.value !== undefined && (s.group === setting.group || outcome.document.format === 'dotenv'));
  if (local) return `${envName} ${maskSecret(local.value!, locale)}`;
  const first = env?.chain(envName).find((e) => e.applies && e.definition.value !== undefined)?.definition;
  if (first) return `${envName} (${first.at.path}:${first.at.start.line + 1}) ${maskSecret(first.value!, locale)}`;
  return readName ? `${envName} (${UNDEFINED[locale] ?? UNDEFINED.en})` : null;
}

/** `OPENAI_BASE_URL` → `OPENAI_API_KEY`; `X_API_BASE` → `X_API_KEY` (the key name clients pair with a base URL variable). */
function guessKeyName(name: string): string | undefined {
  const m = /^(.*?)_(BASE_URL|API_BASE|BASE)$/i.exec(name);
  return m ? `${m[1]}_API_KEY` : undefined;
}

/**
 * The request sites a row's log-prob state is judged on: those that carry `setting` itself (a
 * `ChatOpenAI(base_url=…, logprobs=True)` constructor, or a `.bind(…)` of it) when there are such (`own`),
 * else every site of the file.
 */
function rowSites(outcome: LintOutcome, setting: Setting): { sites: RequestSite[]; own: boolean } {
  const all = outcome.extraction.requestSites.filter((s) => s.apiKind !== 'unknown' || s.isRollout);
  const own = all.filter((s) => Object.values(s.params).includes(setting));
  return own.length > 0 ? { sites: own, own: true } : { sites: all, own: false };
}

/** Whether a finding is about one of `sites` (inside the call or dict, or on one of its parameters). */
function aboutSites(f: Finding, sites: readonly RequestSite[]): boolean {
  return sites.some((s) => within(f.range, s.range) || Object.values(s.params).some((p) => within(f.range, p.statementRange)));
}

function logprobsOf(sites: readonly RequestSite[]): EndpointRow['logprobs'] {
  if (sites.length === 0) return 'unknown';
  return sites.every((s) => logprobsState(s.params[logprobsKey(s)]) === 'on') ? 'requested' : 'missing';
}

function modelOf(setting: Setting, outcome: LintOutcome): string | null {
  const same = outcome.resolution.settings.find((s) => s.role === 'model' && s.group === setting.group && s.value !== undefined);
  if (same) return same.value!;
  for (const site of outcome.extraction.requestSites) if (site.params.model?.value !== undefined) return site.params.model.value;
  return null;
}

/**
 * The endpoint rows of one linted document: one per literal base URL (own or imported from another
 * file through the env index) and consumer, with its findings. `env` resolves the key of an env-read
 * base URL (`OPENAI_API_KEY` beside `OPENAI_BASE_URL`); `locale` words the key source's notes.
 */
export function endpointRows(outcome: LintOutcome, env?: EnvView, locale: Locale = 'en'): EndpointRow[] {
  const lines = new LineIndex(outcome.document.text);
  const rows: EndpointRow[] = [];
  for (const base of outcome.resolution.baseUrls) {
    if (!base.parsed && base.requests.length === 0) continue;
    const { setting } = base;
    const at = lines.positionAt(setting.valueRange.start);
    const key = pairedKey(setting, outcome);
    const { sites, own } = rowSites(outcome, setting);
    const logprobs = logprobsOf(sites);
    // What the row shows (its key, its log probs) is judged by the same findings Problems lists:
    // a row is clean only when its base URL, its paired key and the file's requests are.
    const findings = outcome.findings
      .filter((f: Finding) =>
        within(f.range, setting.statementRange) || within(f.range, setting.valueRange)
        || (key !== undefined && (within(f.range, key.statementRange) || within(f.range, key.valueRange)))
        || (logprobs !== 'unknown' && REQUEST_RULES.test(f.ruleId) && (!own || aboutSites(f, sites))))
      .map((f) => ({ ruleId: f.ruleId, severity: f.severity, message: f.message }));
    const common = {
      file: outcome.document.path,
      line: at.line + 1,
      column: at.character + 1,
      offset: setting.valueRange.start,
      key: setting.key,
      baseUrl: redactUrlSecrets(setting.value!.trim()),
      ...(setting.origin ? { definedAt: { file: setting.origin.path, line: setting.origin.start.line + 1 } } : {}),
      keySource: keySource(setting, outcome, env, locale),
      model: modelOf(setting, outcome),
      findings,
    };
    const { keySource: source, model, findings: found, definedAt, ...where } = common;
    const rest = { ...(definedAt ? { definedAt } : {}), keySource: source, model, logprobs, findings: found };
    if (base.requests.length === 0) rows.push({ ...where, consumer: 'unknown', effectiveUrl: null, method: null, ...rest });
    for (const request of base.requests) {
      rows.push({
        ...where,
        consumer: request.consumer.id,
        via: request.consumer.via,
        effectiveUrl: request.sent ? redactUrlSecrets(request.url) : null,
        method: request.sent ? request.method : null,
        ...(request.call ? { call: request.call } : {}),
        ...(request.assumed ? { assumed: true } : {}),
        ...(request.clients.length > 0 ? { clients: request.clients.map(readingLabel) } : {}),
        ...(!request.sent && request.reason ? { noRequest: NO_REQUEST_REASON[locale === 'zh-CN' ? 'zh-CN' : 'en'][request.reason] } : {}),
        ...rest,
        ...(request.model !== undefined ? { model: request.model } : {}),
      });
    }
  }
  return rows;
}
