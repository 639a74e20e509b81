import type { LintConfig } from '../config/config';
import { SETTING_LINE_TOKENS, TRIGGER_TOKENS } from '../files';
import { SERVER_TOKEN } from '../formats/compose';
import { ENV_CONTAINERS, LOGPROB_KEYS, NESTED_ENV_CONTAINER, SITE_KEYS } from '../formats/structured';
import { ROLE_TABLE } from '../resolve/roles';
import { BOOLEAN_KEYS } from '../rules/config-string-boolean';

/**
 * Why a YAML file is worth extracting (issue 27 item 1): the byte-level evidence without which its
 * lint reports nothing and its env-index facts are empty, derived from what the extractor
 * (`collectTree`, `composeCommands`) and everything downstream of it read. Without any of these:
 * - no setting has a role (`roleOf`: the role table's names and `extraKeys`; request URLs and tool
 *   flags are Python/shell/Compose-command settings; the promotion in `resolve` needs `env` settings),
 *   so there are no base URLs, keys, models, proxies, endpoints or loaded-config names;
 * - no `env` setting (env containers, `vars` inside one, a ConfigMap's `data`): no definitions, no
 *   cross-file imports (`importCrossFile`), no `env-legacy-name`, no loopback-in-container;
 * - no request site (`SITE_KEYS`/`LOGPROB_KEYS`): no `logprobs-*`/`top-logprobs-*`;
 * - no `${VAR}`/`$VAR`/`os.environ/VAR` in any value's source (`interpolationReads` scans `setting.raw`),
 *   no `env_file` (Compose links), no vLLM/SGLang command (`SERVER_TOKEN`: no commands, no servers);
 * - no `scheme://` value (`parseBaseUrl`: `base-url-scheme-mismatch`, `hosts` destinations, URL secrets);
 * - no quoted boolean for a boolean key (`config-string-boolean`), no `rollout-lint-disable*` comment;
 * - `parse-error` needs a setting line token (`SETTING_LINE_TOKENS`) or a role setting.
 * Keys are matched as `normalizeKey` sees them (ASCII case-insensitive, `-` or `_`); a key ends where the
 * name ends (no letter, digit, `_` or `-` follows), which over-matches and never misses. Spellings the
 * bytes do not show are answered "extract": any backslash (escapes in double quotes) and the two
 * characters whose lower case is ASCII (`İ`, Kelvin `K`; `toLowerCase` folds them in `normalizeKey`).
 */
export interface YamlEvidence {
  /** What the tokens stand for (the consumer that reads them). */
  why: string;
  token: RegExp;
  /** When set, the text must hold this too (both are needed for the consumer to read anything). */
  and?: RegExp;
}

/**
 * Keys `names` as written: any ASCII case, `_` written `_` or `-`, nothing key-like after the name.
 * `exact` names are the whole key (after `normalizeKey`'s leading dashes): no letter, digit or `_`
 * before them; suffix names end the key after `_`/`-` or are the whole key: no letter or digit before.
 */
function keyEnding(names: Iterable<string>, exact: boolean): RegExp {
  const all = [...names];
  // a non-ASCII name: the regular expression's case folding is not `toLowerCase`'s, so every text may hold it
  if (all.some((n) => /[^\x00-\x7f]/.test(n))) return /(?:)/;
  const alternatives = [...new Set(all.map((n) => n.replace(/-/g, '_').replace(/^_+/, '').toLowerCase()))]
    .filter((n) => n !== '')
    .map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/_/g, '[_-]'));
  return new RegExp(`${exact ? '(?<![A-Za-z0-9_])' : '(?<![A-Za-z0-9])'}(?:${alternatives.join('|')})(?![A-Za-z0-9_-])`, 'i');
}

/** The evidence table (fixed part; `extraKeys` of a configuration are added by `yamlEvidence`). */
export const YAML_EVIDENCE: readonly YamlEvidence[] = [
  { why: 'role keys (ROLE_TABLE exact names)', token: keyEnding(ROLE_TABLE.flatMap((r) => r.exact ?? []), true) },
  { why: 'role keys (ROLE_TABLE suffixes)', token: keyEnding(ROLE_TABLE.flatMap((r) => r.suffix ?? []), false) },
  { why: 'env containers (collectTree)', token: keyEnding([...ENV_CONTAINERS, NESTED_ENV_CONTAINER], true) },
  { why: 'ConfigMap data (collectTree)', token: /configmap/i },
  { why: 'request sites (collectTree SITE_KEYS, LOGPROB_KEYS)', token: keyEnding([...SITE_KEYS, ...LOGPROB_KEYS], true) },
  // the value's source is `"true"`/`'false'` (any case): `value.toLowerCase()` of a quoted scalar; escapes are answered below
  { why: 'quoted booleans (config-string-boolean)', token: keyEnding(BOOLEAN_KEYS, true), and: /(["'])(?:true|false)\1/i },
  // INTERPOLATION's alternatives without their captures (`${oc.env:`, `${NAME}`/`${NAME:-d}`/`${NAME-d}`/`${NAME=d}`, `$NAME`, `os.environ/`), on the value's source
  { why: 'env reads in values (interpolationReads)', token: /\$\{oc\.env:|\$\{[A-Za-z_][A-Za-z0-9_]*(?::?[-=]|\})|\$[A-Za-z_]|os\.environ\//i },
  { why: 'Compose env_file links', token: /env_file/i },
  { why: 'Compose server commands (composeCommands, serverLaunches)', token: new RegExp(SERVER_TOKEN.source, 'i') },
  { why: 'URL values (parseBaseUrl)', token: /:\/\// },
  { why: 'disable directives (suppress)', token: /rollout-lint/i },
  { why: 'parse-error lines', token: SETTING_LINE_TOKENS },
  { why: 'trigger tokens', token: TRIGGER_TOKENS },
  { why: 'escapes and non-ASCII case folding', token: /[\\\u0130\u212A]/ },
];

const withExtraKeys = new WeakMap<LintConfig['extraKeys'], RegExp | null>();

/** The table's regular expression for `config.extraKeys` (compiled once per configuration object), or `null` when it has none. */
function extraKeysToken(config: LintConfig): RegExp | null {
  let token = withExtraKeys.get(config.extraKeys);
  if (token === undefined) {
    const names = Object.values(config.extraKeys).flatMap((list) => list ?? []).map((n) => n.replace(/^-+/, ''));
    withExtraKeys.set(config.extraKeys, (token = names.length ? keyEnding(names, true) : null));
  }
  return token;
}

/**
 * Whether YAML `text` (BOM removed) may yield a finding or an env-index fact under `config`: false
 * only when no entry of `YAML_EVIDENCE` (and no `extraKeys` name) occurs. Then the extraction need
 * not be made: the lint reports nothing (not even `skipped-file` for a budget it would not spend) and
 * the index entry is `{ definitions: [], reads: [] }`.
 */
export function yamlMayMatter(text: string, config: LintConfig): boolean {
  if (YAML_EVIDENCE.some((e) => e.token.test(text) && (e.and?.test(text) ?? true))) return true;
  return extraKeysToken(config)?.test(text) ?? false;
}
