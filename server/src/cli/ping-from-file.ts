import { relative } from 'node:path';
import { formatOf } from '../core/files';
import { lintDocument, stripBom } from '../core/lint';
import type { Setting } from '../core/model/types';
import { DEFAULT_CONFIG } from '../core/config/config';
import { loadGrammars } from '../node/grammars';
import { readForLint } from '../node/read';
import { pairedKey } from '../core/model/pairing';
import { BUILTIN_PROVIDERS } from '../core/providers/profiles';
import { LineIndex } from '../core/positions';
import type { FromFileResolver, FromFileTarget } from './ping';

function literal(setting: Setting | undefined): string | undefined {
  return setting?.value !== undefined && setting.valueType !== 'dynamic' ? setting.value : undefined;
}

/**
 * The settings each loader actually uses: of several definitions of one name in one block (a `.env`
 * with `OPENAI_BASE_URL` twice, a JSON object with a repeated key) only the last, as python-dotenv,
 * npm dotenv, `JSON.parse` and JSON5 keep the last. Order kept.
 */
function effectiveSettings(settings: readonly Setting[]): Setting[] {
  const last = new Map<string, Setting>();
  for (const s of settings) last.set(`${s.group}\0${s.kind}\0${s.key}`, s);
  return settings.filter((s) => last.get(`${s.group}\0${s.kind}\0${s.key}`) === s);
}

/**
 * `rollout-lint ping --from FILE` for the formats Rollout Lint lints: the first literal base URL in
 * the file (one with a known consumer preferred; of duplicate definitions the last, the one every
 * loader uses, named in `definedAt`), the key that pairs with it (`pairedKey`: same
 * block and, among env variables, the same family) and the model of the same block, and the log-prob settings of the first request site.
 * Resolves to `undefined` for files of other formats (ping then reads them as JSON targets).
 */
export const resolveFromLintedFile: FromFileResolver = async (path, { cwd }) => {
  const relPath = relative(cwd, path).split('\\').join('/') || path;
  const format = formatOf(path);
  if (!format || (format === 'json' && !/openclaw\.json$|settings\.json$/i.test(path))) return undefined;
  const read = readForLint(path, DEFAULT_CONFIG.maxFileBytes);
  if (read.kind !== 'text') return undefined;
  const outcome = lintDocument({ path: relPath, text: stripBom(read.text).text, format }, { grammars: await loadGrammars(), proveFixes: false }); // only its base URLs are used
  const effective = new Set(effectiveSettings(outcome.resolution.settings));
  // An earlier duplicate is never probed, even when the effective definition is not a literal URL.
  const bases = outcome.resolution.baseUrls.filter((b) => b.parsed && effective.has(b.setting));
  const base = bases.find((b) => b.consumers.length > 0) ?? bases[0];
  if (!base) return undefined;
  const sameBlock = (s: Setting) => s.group === base.setting.group;
  const key = pairedKey(base.setting, [...effective], BUILTIN_PROVIDERS);
  // The model the file's calls use: the base's own block, else the call that decides its request
  // (`client.completions.create(model="…")`), else the first request site that names one.
  const model = outcome.resolution.byRole('model').find(sameBlock);
  const callModel = base.requests.find((r) => r.model !== undefined)?.model ?? outcome.extraction.requestSites.map((s) => literal(s.params.model)).find((m) => m !== undefined);
  const site = outcome.extraction.requestSites.find((s) => s.params.logprobs || s.params.top_logprobs);
  const line = new LineIndex(outcome.document.text).positionAt(base.setting.valueRange.start).line + 1;
  const definitions = outcome.resolution.settings.filter((s) => s.group === base.setting.group && s.kind === base.setting.kind && s.key === base.setting.key).length;
  const target: FromFileTarget = { baseUrl: base.setting.value?.trim(), baseUrlSource: 'configured', definedAt: { file: relPath, line, key: base.setting.key, definitions } };
  const consumer = base.consumers[0]?.id;
  if (consumer) target.consumer = consumer;
  const apiKey = literal(key);
  if (apiKey) target.apiKey = apiKey;
  const keyRead = key ?? outcome.resolution.byRole('apiKey').find(sameBlock);
  const keyEnv = keyRead ? outcome.extraction.envReads.find((r) => r.range.start >= keyRead.valueRange.start && r.range.end <= keyRead.valueRange.end)?.name : undefined;
  if (!apiKey && keyEnv) target.apiKeyEnv = keyEnv;
  const modelId = literal(model) ?? callModel;
  // The API of the call that decides the base's request (`client.completions.create` → legacy completions).
  const decided = base.requests.find((r) => r.call !== undefined && r.method === 'POST');
  if (decided?.path === '/completions' || decided?.path === '/responses') target.api = decided.path.slice(1) as 'completions' | 'responses';
  if (modelId) target.model = modelId;
  const logprobs = site?.params.logprobs;
  if (logprobs && logprobs.valueType === 'boolean') target.logprobs = logprobs.value === 'true';
  else if (logprobs && logprobs.valueType === 'number') target.logprobs = Number(logprobs.value);
  const top = site?.params.top_logprobs;
  if (top && top.valueType === 'number') target.top_logprobs = Number(top.value);
  return target;
};
