import { defineRule, type FixReport } from './rule';
import { siteSubject } from './util';
import { enableLogprobs, isCliFlags, logprobsKey, logprobsOn, logprobsState, parameterText, rolloutReason } from './requests';
import type { RequestSite, Setting } from '../model/types';
import type { Strength } from '../evidence/evidence';
import { firstBy } from '../group-by';

/** Mapping keys that hold the sampling parameters sent with each request (a `rollout:` section itself does not). */
const SAMPLING_MAPPINGS = new Set(['sampling', 'sampling_params', 'generation_kwargs', 'generation_config', 'request', 'request_body', 'extra_body']);

/** Whether a site with no log-prob switch at all is a request that should have one (if it is a rollout request). */
export function needsSwitch(site: RequestSite, text: string): boolean {
  if (isCliFlags(site)) return false;
  if (site.apiKind === 'chat' || site.apiKind === 'completions' || site.apiKind === 'sglang-generate') {
    const extra = site.params.extra_body;
    return !(site.style === 'kwarg' && extra && extra.valueType === 'dynamic');
  }
  if (site.apiKind !== 'unknown' || site.style !== 'mapping') return false;
  return SAMPLING_MAPPINGS.has(text.slice(site.anchorRange.start, site.anchorRange.end).toLowerCase());
}

/** Reasons the extractors give in English (`function generate_rollout`), rendered in the run's language. */
const REASONS: readonly [RegExp, string, string][] = [
  [/^function (.+)$/, 'reason.function', 'name'],
  [/^class (.+)$/, 'reason.class', 'name'],
  [/^result read at (.+)$/, 'reason.read', 'what'],
  [/^mapping "(.+)" is named for a rollout$/, 'reason.mapping', 'name'],
  [/^file name "(.+)" names a rollout$/, 'reason.file', 'name'],
  [/^command "(.+)" names rollout$/, 'reason.command', 'name'],
  [/^command carries (.+)$/, 'reason.flag', 'name'],
];

/**
 * How sure a rollout reason is: a result read only at `meta_info` is weak (SGLang's `/generate`
 * always returns it, with `finish_reason`; slime recomputes old log probs unless
 * `--use-rollout-logprobs` is set), so such a site gets a hint; every other reason is a known rollout.
 */
function reasonStrength(rollout: { code: string } | { glob: string }): Strength {
  return 'code' in rollout && /^result read at [[.]?"?meta_info"?\]?$/.test(rollout.code) ? 'plausible' : 'known';
}

function localizedReason(reason: string, t: (id: string, data?: Record<string, string>) => string): string {
  for (const [pattern, id, field] of REASONS) {
    const m = pattern.exec(reason);
    if (m) return t(id, { [field]: m[1] });
  }
  return reason;
}

/**
 * For a YAML/JSON sampling block, the log-prob switch written beside it in the enclosing mapping:
 * SGLang's `/generate` body keeps `return_logprob` next to `sampling_params`, not inside it.
 */
function parentSwitch(site: RequestSite, switches: () => Map<string, Setting>): Setting | undefined {
  if (site.style !== 'mapping') return undefined;
  const group = Object.values(site.params)[0]?.group;
  if (group === undefined) return undefined;
  const parent = group.includes('.') ? group.slice(0, group.lastIndexOf('.')) : '';
  return switches().get(parent);
}

/**
 * A rollout request (DESIGN "Rollout requests") that does not ask for log probs, or turns them off:
 * the response then carries no `logprobs`, and the trainer has no `rollout_log_probs`
 * (log π_old(a_t|s_t)) for the PPO ratio. Nothing fails; the samples are silently unusable.
 * The Responses API asks differently (`include`) and is not checked.
 */
export default defineRule({
  meta: {
    id: 'logprobs-missing',
    title: 'Rollout request does not ask for log probs',
    defaultSeverity: 'warning',
    formats: ['yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'safe',
  },
  messages: {
    en: {
      missing: 'this rollout request ({reason}) does not set {key}; responses will carry no log probs, so the trainer gets no rollout_log_probs for the PPO ratio',
      misplaced: 'this rollout request ({reason}) puts logprobs inside sampling_params, which SGLang\'s /generate does not read as a log-prob switch; set return_logprob at the top level of the body, or the trainer gets no rollout_log_probs',
      off: '{key} is {value} in a rollout request ({reason}); responses will carry no log probs, so the trainer gets no rollout_log_probs for the PPO ratio',
      'fix.add': 'Add {text}',
      'fix.enable': 'Set {key} to {value}',
      glob: 'file matches rolloutGlobs "{glob}"',
      'reason.function': 'function {name}',
      'reason.class': 'class {name}',
      'reason.read': 'result read at {what}',
      'reason.mapping': 'mapping "{name}" is named for a rollout',
      'reason.file': 'file name "{name}" names a rollout',
      'reason.command': 'command "{name}" names rollout',
      'reason.flag': 'command carries {name}',
    },
    'zh-CN': {
      missing: '此 rollout 请求（{reason}）未设置 {key}；响应中不会有 logprobs，训练器拿不到计算 PPO 比率所需的 rollout_log_probs',
      misplaced: '此 rollout 请求（{reason}）把 logprobs 放在 sampling_params 里，SGLang 的 /generate 不会把它当作 logprobs 开关；请在请求体顶层设置 return_logprob，否则训练器拿不到 rollout_log_probs',
      off: 'rollout 请求（{reason}）中 {key} 为 {value}；响应中不会有 logprobs，训练器拿不到计算 PPO 比率所需的 rollout_log_probs',
      'fix.add': '添加 {text}',
      'fix.enable': '将 {key} 设为 {value}',
      glob: '文件匹配 rolloutGlobs "{glob}"',
      'reason.function': '函数 {name}',
      'reason.class': '类 {name}',
      'reason.read': '结果在 {what} 处被读取',
      'reason.mapping': '映射 "{name}" 以 rollout 命名',
      'reason.file': '文件名 "{name}" 表明是 rollout',
      'reason.command': '命令 "{name}" 含 rollout',
      'reason.flag': '命令带有 {name}',
    },
  },
  check({ document, extraction, config, report, t }) {
    /** Each group's first `return_logprob`/`logprobs` setting, built on first need (a search of every setting per site was quadratic). */
    let switches: Map<string, Setting> | undefined;
    const switchesByGroup = () => (switches ??= firstBy(extraction.settings.filter((s) => s.key === 'return_logprob' || s.key === 'logprobs'), (s) => s.group));
    for (const site of extraction.requestSites) {
      if (site.apiKind === 'responses') continue;
      const rollout = rolloutReason(site, document, config);
      if (!rollout) continue;
      const reason = 'glob' in rollout ? t('glob', { glob: rollout.glob }) : localizedReason(rollout.code, t);
      const key = logprobsKey(site);
      const setting = site.params[key];
      const state = logprobsState(setting);
      if (state === 'on' || state === 'other') continue;
      if (state === 'absent' && !needsSwitch(site, document.text)) continue;
      const beside = state === 'absent' ? logprobsState(parentSwitch(site, switchesByGroup)) : 'absent';
      if (beside === 'on' || beside === 'other') continue;
      const edit = enableLogprobs(site, document.text);
      const on = logprobsOn(site);
      const data: Record<string, string> = setting ? { key, value: on } : { text: parameterText(site, document.text, key, on) };
      const fixes: FixReport[] = edit ? [{ titleId: setting ? 'fix.enable' : 'fix.add', data, safety: 'safe', edits: [edit] }] : [];
      report({
        messageId: setting ? 'off' : site.apiKind === 'sglang-generate' && site.params['sampling_params.logprobs'] ? 'misplaced' : 'missing',
        data: { key, reason, value: setting?.raw ?? '' },
        range: setting ? setting.valueRange : site.anchorRange,
        subject: siteSubject(site),
        evidence: { strength: reasonStrength(rollout), id: 'site.rollout', data: { reason } },
        fixes,
      });
    }
  },
});
