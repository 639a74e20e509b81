import { globMatcher } from '../glob';
import type { Format, RequestSite, Setting, TextEdit } from '../model/types';
import type { LintConfig } from '../config/config';
import type { LintDocument } from './rule';
import type { Resolution } from '../resolve/resolve';
import { matchProviders, type ProviderProfile } from '../providers/profiles';

const FLAG_OFF = new Set(['false', '0', 'no', 'off']);
const FLAG_ON = new Set(['true', '1', 'yes', 'on']);

/** What a `logprobs`/`return_logprob` parameter says: asks for log probs, turns them off, or cannot be told. */
export type LogprobsState = 'absent' | 'on' | 'off' | 'other';

/** The parameter that asks a site's API for log probs: SGLang native `/generate` takes `return_logprob`. */
export function logprobsKey(site: RequestSite): 'logprobs' | 'return_logprob' {
  return site.apiKind === 'sglang-generate' ? 'return_logprob' : 'logprobs';
}

/**
 * The state of a log-prob switch: `on` for `true` or a number ≥ 0 (legacy completions and vLLM's
 * `SamplingParams.logprobs` count alternatives; 0 still returns the sampled token's log prob),
 * `off` for `false`/`None`/`null`, `other` for strings (owned by `config-string-boolean` /
 * `logprobs-wrong-type`) and values that are not literals. A CLI flag's word (`--logprobs false`)
 * counts as the boolean it spells.
 */
export function logprobsState(setting: Setting | undefined): LogprobsState {
  if (!setting) return 'absent';
  if (setting.valueType === 'null') return 'off';
  if (setting.valueType === 'boolean') return setting.value?.toLowerCase() === 'true' ? 'on' : 'off';
  if (setting.valueType === 'number') return Number(setting.value) >= 0 ? 'on' : 'other';
  if (setting.kind === 'flag' && setting.value !== undefined) {
    const word = setting.value.trim().toLowerCase();
    if (FLAG_OFF.has(word)) return 'off';
    if (FLAG_ON.has(word)) return 'on';
  }
  return 'other';
}

/** Whether a site is a script's own command line, whose flags mean whatever that script makes of them. */
export function isCliFlags(site: RequestSite): boolean {
  return site.style === 'flags' && Object.values(site.params).some((s) => s.kind === 'flag');
}

/** The first of `config.rolloutGlobs` that `path` (workspace-relative, `/`-separated) matches. */
export function matchingRolloutGlob(path: string, config: LintConfig): string | undefined {
  return config.rolloutGlobs.find((glob) => matcher(glob)(path));
}

const matchers = new Map<string, (path: string) => boolean>();

function matcher(glob: string): (path: string) => boolean {
  let match = matchers.get(glob);
  if (!match) {
    if (matchers.size > 256) matchers.clear();
    matchers.set(glob, (match = globMatcher([glob])));
  }
  return match;
}

/**
 * DESIGN "Rollout requests": the extractor's code-context verdict (`site.isRollout`, with its reason)
 * or the file matching one of `rolloutGlobs` (that glob). `undefined` when the site is not a rollout.
 */
export function rolloutReason(site: RequestSite, document: LintDocument, config: LintConfig): { code: string } | { glob: string } | undefined {
  if (site.auxiliaryReason) return undefined;
  if (site.isRollout) return { code: site.rolloutReason ?? 'rollout code' };
  const glob = matchingRolloutGlob(document.path, config);
  return glob ? { glob } : undefined;
}

/** `True`/`False`/`None` in Python, `true`/`false`/`null` elsewhere. */
export function literal(format: Format, value: boolean | null): string {
  const word = value === null ? 'null' : String(value);
  return format === 'python' ? (value === null ? 'None' : word[0].toUpperCase() + word.slice(1)) : word;
}

/** The quote the site's own keys use (`"` unless every neighbour key is single-quoted). */
function keyQuote(site: RequestSite, text: string): string {
  const quoteOf = (s: Setting) => [text[s.keyRange.start], text[s.keyRange.start - 1]].find((c) => c === '"' || c === "'");
  const quotes = Object.values(site.params).filter((s) => s.kind === 'dictEntry').map(quoteOf);
  return quotes.length > 0 && quotes.every((q) => q === "'") ? "'" : '"';
}

/**
 * One parameter written the site's way: `key=value` (kwarg), `"key": value` (Python dict, with the
 * neighbours' quotes; JSON), `key: value` (YAML), `key = value` (TOML), `--key value` (flags; a bare `--key` for true). `value` is source text.
 */
export function parameterText(site: RequestSite, text: string, key: string, value: string): string {
  switch (site.style) {
    case 'kwarg':
      return `${key}=${value}`;
    case 'dict': {
      const q = keyQuote(site, text);
      return `${q}${key}${q}: ${value}`;
    }
    case 'mapping':
      return site.format === 'json' ? `"${key}": ${value}` : site.format === 'toml' ? `${key} = ${value}` : `${key}: ${value}`;
    case 'flags':
      return value === 'true' ? `--${key.replace(/_/g, '-')}` : `--${key.replace(/_/g, '-')} ${value}`;
  }
}

/** An edit adding a parameter at the site's insertion point, or `undefined` when the site has none. */
export function insertParameter(site: RequestSite, text: string, key: string, value: string): TextEdit | undefined {
  const at = site.insertion;
  if (!at) return undefined;
  return { range: { start: at.offset, end: at.offset }, text: `${at.prefix}${parameterText(site, text, key, value)}${at.suffix}` };
}

/**
 * The edit that makes a site ask for log probs: the switch's value set to `logprobsOn` when present,
 * else the switch inserted (`logprobs=True`, `"logprobs": True`, `logprobs: true`, `"return_logprob": true`).
 */
export function enableLogprobs(site: RequestSite, text: string): TextEdit | undefined {
  const key = logprobsKey(site);
  const present = site.params[key];
  const on = logprobsOn(site);
  if (present) return { range: { ...present.valueRange }, text: on };
  return insertParameter(site, text, key, on);
}

/** The value that turns log probs on: `1` for legacy completions (an integer count), else true. */
export function logprobsOn(site: RequestSite): string {
  return site.apiKind === 'completions' ? '1' : literal(site.format, true);
}

/** Sites by the settings they hold, for rules that start from a setting. */
export function sitesBySetting(sites: readonly RequestSite[]): Map<Setting, RequestSite> {
  const out = new Map<Setting, RequestSite>();
  for (const site of sites) for (const setting of Object.values(site.params)) if (!out.has(setting)) out.set(setting, site);
  return out;
}

/**
 * The provider a request site goes to (`undefined` site: a setting outside any site, such as a CLI
 * flag): the site's own resolved endpoint, else the one provider every
 * base URL of the document points at (local servers and remote ones alike); `undefined` when unknown
 * or ambiguous.
 */
export function siteProvider(site: RequestSite | undefined, resolution: Resolution): { provider: ProviderProfile; url: string } | undefined {
  if (site?.endpoint) {
    const matched = matchProviders(site.endpoint, resolution.providers);
    return matched.length === 1 ? { provider: matched[0], url: site.endpoint } : undefined;
  }
  const bases = resolution.baseUrls.filter((b) => b.parsed && b.setting.value !== undefined);
  if (bases.length === 0 || bases.some((b) => b.providers.length !== 1)) return undefined;
  const ids = new Set(bases.map((b) => b.providers[0].id));
  if (ids.size !== 1) return undefined;
  return { provider: bases[0].providers[0], url: bases[0].setting.value!.trim() };
}
