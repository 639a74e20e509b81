import type { Setting } from '../model/types';
import { normalizeBaseUrl, type ModelList, type VerifiedEndpoint } from '../model/verified';
import { isServerLaunch } from '../formats/shell';
import { didYouMean, servesModel, serversAt, serverTarget, type ServerTarget } from '../workspace/servers';
import { defineRule } from './rule';
import { isExampleFile, replaceContent, shorten, subjectOf } from './util';
import { isModelPlaceholder } from './model-placeholder';

/** A base URL setting and where it sends requests. */
interface Target extends ServerTarget {
  setting: Setting;
}

function targetOf(setting: Setting, value: string): Target | undefined {
  const target = serverTarget(value);
  return target ? { ...target, setting } : undefined;
}

/** `OPENAI_BASE_URL` → `OPENAI`, `POLICY_API_BASE` → `POLICY`; `''` for bare names (`base_url`). */
function prefixOf(key: string): string {
  return key.toUpperCase().replace(/^-+/, '').replace(/[-_]?(BASE[-_]?URL|API[-_]?BASE|ENDPOINT|MODEL(?:[-_]?(?:NAME|ID))?)$/, '');
}

/**
 * Whether a model setting and a base-URL setting describe one client: the same call, command or
 * mapping; in a dotenv/env block (one group for the whole file) only when their names share a
 * prefix (`POLICY_BASE_URL` with `POLICY_MODEL`) or the model's name is a bare `MODEL`/`MODEL_NAME`/`MODEL_ID`
 * beside `OPENAI_BASE_URL`.
 */
function sameClient(model: Setting, base: Setting): boolean {
  if (model.group !== base.group) return false;
  if (model.kind !== 'env') return true;
  const m = prefixOf(model.key);
  const b = prefixOf(base.key);
  return m === b || (m === '' && b === 'OPENAI');
}

/** Python request keywords and request-body keys that name the model of the request itself. */
function isRequestModel(setting: Setting): boolean {
  return (setting.kind === 'kwarg' || setting.kind === 'dictEntry') && setting.key === 'model';
}

const DAY = 24 * 60 * 60 * 1000;

/** True when `at` (ms since the epoch) falls on the same UTC day as `now`. */
function sameDay(at: number, now: number): boolean {
  return Math.floor(at / DAY) === Math.floor(now / DAY);
}

/**
 * A request's `model` that the server it reaches does not serve. The server is known from a launch
 * line in the workspace (`vllm serve …`, `python -m sglang.launch_server …`, a Compose service with
 * `command:`; `workspace/servers.ts` cites the engines' rules) or from the last connection test's
 * `GET /models` of the same base URL. Warning with a did-you-mean, pointing at the launch line;
 * error when the list came from a verified `/models` of the same base URL today. Silent when the
 * server may accept more names (a variable, LoRA adapters loaded at run time), when the model value
 * is dynamic, and in example files.
 */
export default defineRule({
  meta: {
    id: 'model-not-served',
    title: 'Model name is not one the server at the base URL serves',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'python', 'shell'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      notServed: '{key} "{model}" is not served at {url}: {engine} started at {launch} serves {names}; the server answers "The model `{model}` does not exist" for every request',
      notServedSuggest: '{key} "{model}" is not served at {url}: {engine} started at {launch} serves {names}; the server answers "The model `{model}` does not exist" for every request. Did you mean "{suggestion}"?',
      notListed: '{key} "{model}" is not among the models {url}/models listed {when} ({names})',
      notListedSuggest: '{key} "{model}" is not among the models {url}/models listed {when} ({names}). Did you mean "{suggestion}"?',
      launchedHere: 'the server is started here and serves {names}',
      today: 'today',
      onDate: 'on {date}',
      'fix.use': 'Use "{suggestion}"',
    },
    'zh-CN': {
      notServed: '{key} "{model}" 不在 {url} 提供的模型中：{launch} 启动的 {engine} 提供 {names}；服务器会对每个请求返回 "The model `{model}` does not exist"',
      notServedSuggest: '{key} "{model}" 不在 {url} 提供的模型中：{launch} 启动的 {engine} 提供 {names}；服务器会对每个请求返回 "The model `{model}` does not exist"。是否应为 "{suggestion}"？',
      notListed: '{key} "{model}" 不在 {url}/models {when}列出的模型中（{names}）',
      notListedSuggest: '{key} "{model}" 不在 {url}/models {when}列出的模型中（{names}）。是否应为 "{suggestion}"？',
      launchedHere: '服务器在此启动，提供 {names}',
      today: '今天',
      onDate: '于 {date} ',
      'fix.use': '改用 "{suggestion}"',
    },
  },
  check({ document, resolution, extraction, env, verified, modelLists, report, t }) {
    if (isExampleFile(document.path)) return;
    const launches = env.servers?.() ?? [];
    if (launches.length === 0 && modelLists.length === 0 && verified.every((v) => !v.models?.length)) return;
    const targets: Target[] = [];
    for (const b of resolution.baseUrls) {
      const target = b.setting.value === undefined ? undefined : targetOf(b.setting, b.setting.value);
      if (target) targets.push(target);
    }
    if (targets.length === 0) return;
    const distinct = new Set(targets.map((t) => `${t.host}:${t.port}`));
    const models = resolution.byRole('model').filter(
      (s) => s.valueType === 'string' && s.value !== undefined && s.value.trim() !== '' && s.kind !== 'envDefault' && !s.origin
        && !/served[-_]?model[-_]?name|model[-_]?path/i.test(s.key) && !(s.command !== undefined && isServerLaunch(s.command)) && !isModelPlaceholder(s.value),
    );
    const now = Date.now();
    for (const model of models) {
      const value = model.value!.trim();
      // the base URL of the same call/command/mapping; else, for a request's own `model=`, the document's only destination
      const target = targets.find((t) => sameClient(model, t.setting)) ?? (isRequestModel(model) && distinct.size === 1 ? targets[0] : undefined);
      if (!target) continue;
      const listed = verifiedModels(verified, modelLists, target.url);
      if (listed) {
        if (listed.models.includes(value)) continue;
        const suggestion = didYouMean(value, listed.models);
        const when = sameDay(listed.at, now) ? t('today') : t('onDate', { date: new Date(listed.at).toISOString().slice(0, 10) });
        report({
          messageId: suggestion ? 'notListedSuggest' : 'notListed',
          data: { key: model.key, model: shorten(value, 60), url: target.url, when, names: quoteList(listed.models), ...(suggestion ? { suggestion } : {}) },
          range: model.contentRange,
          subject: subjectOf(model),
          severity: sameDay(listed.at, now) ? 'error' : 'warning',
          evidence: { strength: sameDay(listed.at, now) ? 'proven' : 'known', id: 'model.verified', data: { key: model.key, url: target.url, when } },
          fixes: suggestion ? [useFix(model, suggestion)] : [],
        });
        continue;
      }
      const servers = serversAt(target, launches);
      if (servers.length === 0 || servers.some((s) => !s.complete) || servers.some((s) => servesModel(s, value))) continue;
      // a launch whose port is a variable may be the one listening there
      if (launches.some((l) => l.port === undefined && servesModel(l, value))) continue;
      const names = [...new Set(servers.flatMap((s) => s.names))];
      const suggestion = didYouMean(value, names);
      const first = servers[0];
      const launch = `${first.at.path}:${first.at.start.line + 1}`;
      const engine = first.engine === 'vllm' ? 'vLLM' : 'SGLang';
      report({
        messageId: suggestion ? 'notServedSuggest' : 'notServed',
        data: { key: model.key, model: shorten(value, 60), url: target.url, engine, launch, names: quoteList(names), ...(suggestion ? { suggestion } : {}) },
        range: model.contentRange,
        subject: subjectOf(model),
        evidence: { strength: 'known', id: 'model.served', data: { key: model.key, url: target.url, launch } },
        fixes: suggestion ? [useFix(model, suggestion)] : [],
        related: servers.map((s) => ({ location: s.at, message: t('launchedHere', { names: quoteList(s.names) }) })),
      });
    }
  },
});

/** `"a", "b"` (at most 5, then `…`). */
function quoteList(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((n) => `"${shorten(n, 60)}"`);
  return shown.join(', ') + (names.length > 5 ? ', …' : '');
}

/** The newest `/models` list of `url` (normalised): from an editor connection test or a CLI `ping`. */
function verifiedModels(list: readonly VerifiedEndpoint[], lists: readonly ModelList[], url: string): ModelList | undefined {
  const wanted = normalizeBaseUrl(url);
  let best: ModelList | undefined;
  for (const v of [...list, ...lists]) {
    if (!v.models?.length || normalizeBaseUrl(v.baseUrl) !== wanted) continue;
    if (!best || v.at > best.at) best = { baseUrl: v.baseUrl, models: v.models, at: v.at };
  }
  return best;
}

function useFix(model: Setting, suggestion: string) {
  return {
    titleId: 'fix.use',
    data: { suggestion },
    safety: 'unsafe' as const,
    edits: [replaceContent(model, suggestion)],
  };
}
