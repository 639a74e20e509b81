import type { ApiKind, RequestSite, Setting } from '../../model/types';
import type { SyntaxNode } from '../treesitter';
import { callTargets, putRecord, rangeOf, type PyContext } from './context';
import { callArguments, compact } from './env';
import { clientEndpoint, joinedUrl } from './endpoint';
import { insertionFor } from './insertion';
import { fstringSegment, stringParts, stringValue } from './literals';
import { auxiliaryScopeReason, callsPassing, resultReadReason, rolloutScopeReason } from './rollout';
import type { DictInfo } from './symbols';
import type { Located, Scope } from './walk';
import { namesOtherEndpoint } from '../../model/clients';

/** The API an SDK-style callee talks to; `undefined` when it is not a known request call. */
function apiKindOfCallee(callee: string, litellmNames: Map<string, string>): ApiKind | undefined {
  if (/(^|\.)chat\.completions\.(create|parse)$/.test(callee) || /(^|\.)ChatCompletion\.a?create$/.test(callee)) return 'chat';
  if (/(^|\.)completions\.create$/.test(callee) || /(^|\.)Completion\.a?create$/.test(callee)) return 'completions';
  if (/(^|\.)responses\.(create|parse)$/.test(callee)) return 'responses';
  const litellm = litellmNames.get(callee) ?? /^litellm\.(a?(?:text_)?completion)$/.exec(callee)?.[1];
  if (litellm) return litellm.includes('text_') ? 'completions' : 'chat';
  return undefined;
}

/**
 * A chat-looking call that is a legacy completions request by its arguments: a LiteLLM model routed to
 * a text-completion provider (`text-completion-openai/…`, LiteLLM provider docs "Text Completion"), or
 * `prompt=` without `messages=` (the completions API's input; chat has none).
 */
function refineByArguments(ctx: PyContext, call: SyntaxNode, kind: ApiKind | undefined): ApiKind | undefined {
  if (kind !== 'chat') return kind;
  const { keywords } = callArguments(call);
  const model = stringValue(keywords.get('model'), ctx.text);
  if (model !== undefined && /^text-completion-[\w-]+\//.test(model)) return 'completions';
  return keywords.has('prompt') && !keywords.has('messages') ? 'completions' : kind;
}

/** The API a URL's literal tail names (`…/chat/completions`, `…/completions`, `…/generate`, `…/responses`). */
function apiKindOfUrl(tail: string | undefined): ApiKind {
  const path = (tail ?? '').split(/[?#]/)[0].replace(/\/+$/, '');
  if (/(^|\/)chat\/completions$/.test(path)) return 'chat';
  if (/(^|\/)completions$/.test(path)) return 'completions';
  if (/(^|\/)generate$/.test(path)) return 'sglang-generate';
  if (/(^|\/)responses$/.test(path)) return 'responses';
  return namesOtherEndpoint(path) ? 'other' : 'unknown';
}

/**
 * Fields of SGLang's native `/generate` body (`GenerateReqInput`, python/sglang/srt/managers/io_struct.py);
 * a body to a `…/generate` URL with none of them (TRL's `{"prompts": …}`) is another server's API.
 */
const SGLANG_GENERATE_KEYS = ['text', 'input_ids', 'input_embeds', 'sampling_params', 'return_logprob'];

/** A dict's API by its keys: model+messages → chat, model+prompt → completions, text/input_ids+sampling_params → SGLang. */
function apiKindOfBody(keys: Set<string>): ApiKind | undefined {
  if (keys.has('model') && keys.has('messages')) return 'chat';
  if (keys.has('model') && keys.has('prompt')) return 'completions';
  if ((keys.has('text') || keys.has('input_ids')) && keys.has('sampling_params')) return 'sglang-generate';
  return undefined;
}

function resolveDict(ctx: PyContext, expr: SyntaxNode | null | undefined, scope: Scope): DictInfo | undefined {
  if (!expr) return undefined;
  if (expr.type === 'dictionary') return ctx.dicts.get(expr.id);
  if (expr.type === 'identifier' || expr.type === 'attribute') return ctx.symbols.dictOf(scope, compact(expr), expr.startIndex);
  return undefined;
}

/** All entries of a dict including resolved `**splats` (explicit keys win); `undefined` when a splat is unknown. */
function dictParams(ctx: PyContext, dict: DictInfo, depth = 0): Map<string, Setting> | undefined {
  const out = new Map<string, Setting>();
  for (const { expr, scope } of dict.splats) {
    const inner = resolveDict(ctx, expr, scope);
    const params = inner && inner !== dict && depth < 5 ? dictParams(ctx, inner, depth + 1) : undefined;
    if (!params) return undefined;
    for (const [k, v] of params) out.set(k, v);
  }
  for (const [k, v] of dict.entries) out.set(k, v);
  return out;
}

/** SGLang `sampling_params` keys as `sampling_params.<k>` (nested literal, a dict variable, or two-level writes). */
function samplingParams(ctx: PyContext, dict: DictInfo, params: Record<string, Setting>): void {
  const nested = dict.nested.get('sampling_params') ?? resolveDict(ctx, dict.values.get('sampling_params'), dict.scope);
  const inner = nested ? dictParams(ctx, nested) : undefined;
  if (nested) nested.used = true;
  for (const [k, v] of inner ?? []) putRecord(params, `sampling_params.${k}`, v);
  for (const [k, v] of dict.deepEntries) if (k.startsWith('sampling_params.')) putRecord(params, k, v);
}

/** The literal tail of a URL expression and, when the whole URL is literal, the URL. */
function urlOf(ctx: PyContext, expr: SyntaxNode | undefined, scope: Scope): { tail?: string; endpoint?: string } {
  if (!expr) return {};
  const whole = stringValue(expr, ctx.text);
  if (whole !== undefined) return { tail: whole, endpoint: whole };
  switch (expr.type) {
    case 'identifier': {
      const bound = ctx.symbols.lookup(scope, expr.text, expr.startIndex);
      if (bound?.kind === 'other' && bound.value?.type === 'string') return { tail: urlOf(ctx, bound.value, scope).tail };
      const value = bound?.kind === 'literal' && bound.setting.valueType === 'string' ? bound.setting.value : undefined;
      return value === undefined ? {} : { tail: value, endpoint: value };
    }
    case 'string': {
      const parts = stringParts(expr);
      const last = parts?.interpolations[parts.interpolations.length - 1];
      const endpoint = joinedUrl(ctx, expr, scope);
      return last ? { tail: fstringSegment(expr, ctx.text, last.endIndex), ...(endpoint !== undefined ? { endpoint } : {}) } : {};
    }
    case 'binary_operator': {
      const endpoint = joinedUrl(ctx, expr, scope);
      return { tail: urlOf(ctx, expr.childForFieldName('right') ?? undefined, scope).tail, ...(endpoint !== undefined ? { endpoint } : {}) };
    }
    case 'call': {
      const fn = expr.childForFieldName('function');
      const format = fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === 'format' ? stringValue(fn.childForFieldName('object'), ctx.text) : undefined;
      return format === undefined ? {} : { tail: format.split(/\{[^{}]*\}/).pop() };
    }
    default:
      return {};
  }
}

function anchorOf(fn: SyntaxNode): SyntaxNode {
  return fn.type === 'attribute' ? fn.childForFieldName('attribute') ?? fn : fn;
}

function rollout(ctx: PyContext, scope: Scope, calls: SyntaxNode[]): Pick<RequestSite, 'isRollout' | 'rolloutReason' | 'auxiliaryReason'> {
  const auxiliary = auxiliaryScopeReason(scope);
  if (auxiliary) return { isRollout: false, auxiliaryReason: auxiliary };
  const reason = rolloutScopeReason(scope) ?? calls.map((c) => resultReadReason(ctx, c, scope)).find((r) => r !== undefined);
  return reason ? { isRollout: true, rolloutReason: reason } : { isRollout: false };
}

function kwargSite(ctx: PyContext, call: SyntaxNode, scope: Scope, apiKind: ApiKind, callee: string): RequestSite | undefined {
  const args = call.childForFieldName('arguments');
  const fn = call.childForFieldName('function');
  if (args?.type !== 'argument_list' || !fn) return undefined;
  const params: Record<string, Setting> = {};
  const late: [string, Setting][] = [];
  for (const arg of args.namedChildren) {
    if (arg?.type === 'keyword_argument') {
      const setting = ctx.kwargs.get(arg.id);
      if (!setting) continue;
      putRecord(params, setting.key, setting);
      if (setting.key !== 'extra_body' && !(setting.key === 'model_kwargs' && CHAT_MODEL.test(callee))) continue;
      const extra = resolveDict(ctx, arg.childForFieldName('value'), scope);
      const extraParams = extra ? dictParams(ctx, extra) : undefined;
      if (extra) extra.used = true;
      late.push(...(extraParams ?? []));
    } else if (arg?.type === 'dictionary_splat') {
      const dict = resolveDict(ctx, arg.namedChild(0), scope);
      const splat = dict ? dictParams(ctx, dict) : undefined;
      if (!dict || !splat) return undefined;
      dict.used = true;
      late.push(...splat);
    }
  }
  for (const [k, v] of late) if (!Object.prototype.hasOwnProperty.call(params, k)) putRecord(params, k, v);
  const endpoint = clientEndpoint(ctx, call, scope, apiKind);
  return {
    format: 'python', apiKind, style: 'kwarg', range: rangeOf(call), anchorRange: rangeOf(anchorOf(fn)), params,
    ...rollout(ctx, scope, [call]), insertion: insertionFor(args, ctx.text), callee, ...(endpoint !== undefined ? { endpoint } : {}),
  };
}

function dictSite(ctx: PyContext, dict: DictInfo, apiKind: ApiKind, scope: Scope, calls: SyntaxNode[], extra: Partial<RequestSite> = {}): RequestSite | undefined {
  const entries = dictParams(ctx, dict);
  if (!entries) return undefined;
  dict.used = true;
  const params: Record<string, Setting> = {};
  for (const [k, v] of entries) putRecord(params, k, v);
  if (apiKind === 'sglang-generate') samplingParams(ctx, dict, params);
  const brace = dict.node.firstChild ?? dict.node;
  return {
    format: 'python', apiKind, style: 'dict', range: rangeOf(dict.node), anchorRange: rangeOf(brace), params,
    ...rollout(ctx, scope, calls), insertion: insertionFor(dict.node, ctx.text), ...extra,
  };
}

function postSite(ctx: PyContext, call: SyntaxNode, scope: Scope, callee: string): RequestSite | undefined {
  const { positional, keywords } = callArguments(call);
  let body = keywords.get('json');
  const data = keywords.get('data');
  if (!body && data?.type === 'call' && /(^|\.)dumps$/.test(compact(data.childForFieldName('function')))) body = callArguments(data).positional[0];
  const dict = resolveDict(ctx, body, scope);
  if (!dict || dict.used) return undefined;
  const url = urlOf(ctx, positional[0] ?? keywords.get('url'), scope);
  const entries = dictParams(ctx, dict);
  const urlKind = apiKindOfUrl(url.tail);
  const fromUrl = urlKind === 'sglang-generate' && entries && !SGLANG_GENERATE_KEYS.some((k) => entries.has(k)) ? 'other' : urlKind;
  const apiKind = fromUrl !== 'unknown' ? fromUrl : entries ? apiKindOfBody(new Set(entries.keys())) ?? 'unknown' : 'unknown';
  return dictSite(ctx, dict, apiKind, scope, [call], { callee, ...(url.endpoint !== undefined ? { endpoint: url.endpoint } : {}) });
}

/** langchain-openai chat models, whose constructor fields and `model_kwargs` go into every request. */
const CHAT_MODEL = /(^|\.)ChatOpenAI$/;

/** A log-prob parameter (`logprobs`, `top_logprobs`) on a site, directly or from `model_kwargs`. */
function asksLogprobs(site: RequestSite): boolean {
  return site.params.logprobs !== undefined || site.params.top_logprobs !== undefined;
}

/** A constructor `logprobs` pydantic coerces (`"true"`, `1` → `true`; langchain-openai 1.6.6): what is sent is not what is written. */
function coerced(site: RequestSite): boolean {
  const v = site.params.logprobs;
  return v !== undefined && v.valueType !== 'boolean' && v.valueType !== 'null';
}

/**
 * langchain-openai chat-model request sites: `ChatOpenAI(…, logprobs=True, top_logprobs=5)` and
 * `llm.bind(logprobs=True, …)`. Recorded with langchain-openai 1.6.6 against a recording server: the
 * constructor's `logprobs`/`top_logprobs` and its `model_kwargs` entries are sent with every request (pydantic
 * turns `logprobs="true"` or `1` into `true`; `logprobs=5` raises); `.bind(…)` sends its values as written, over
 * the constructor's. Only calls naming a log-prob parameter are sites. A constructor that a `.bind(…)` in the
 * file extends (`ChatOpenAI(…).bind(…)`, or `llm = ChatOpenAI(…)` then `llm.bind(…)`) is no site of its own: the
 * bind site carries both. A `.bind(…)` of an unseen model without `logprobs` is no site (the model may set it),
 * nor is a constructor whose `logprobs` pydantic coerces.
 */
function chatModelSites(ctx: PyContext, calls: readonly Located[]): RequestSite[] {
  const targets = callTargets(ctx);
  const ctors = calls.filter(({ node }) => CHAT_MODEL.test(compact(node.childForFieldName('function'))));
  const bound = new Set<number>();
  const out: RequestSite[] = [];
  for (const { node, scope } of calls) {
    const fn = node.childForFieldName('function');
    const receiver = fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === 'bind' ? fn.childForFieldName('object') : null;
    if (!fn || !receiver) continue;
    const site = kwargSite(ctx, node, scope, 'chat', compact(fn));
    if (!site || !asksLogprobs(site)) continue;
    const named = ctors.filter((c) => c.node.startIndex < node.startIndex && targets.get(c.node.id) === compact(receiver));
    const ctor = receiver.type === 'call' ? ctors.find((c) => c.node.id === receiver.id) : named[named.length - 1];
    const base = ctor ? kwargSite(ctx, ctor.node, ctor.scope, 'chat', compact(ctor.node.childForFieldName('function'))) : undefined;
    if (ctor) bound.add(ctor.node.id);
    if (base && site.params.logprobs === undefined && coerced(base)) continue;
    for (const [k, v] of Object.entries(base?.params ?? {})) if (!Object.prototype.hasOwnProperty.call(site.params, k)) putRecord(site.params, k, v);
    if (site.params.logprobs === undefined && !base) continue;
    out.push(site);
  }
  for (const { node, scope } of ctors) {
    if (bound.has(node.id)) continue;
    const site = kwargSite(ctx, node, scope, 'chat', compact(node.childForFieldName('function')));
    if (site && asksLogprobs(site) && !coerced(site)) out.push(site);
  }
  return out;
}

/**
 * Request sites: SDK calls (`…chat.completions.create(…)`, `…completions.create`, `…responses.create`,
 * LiteLLM `completion`) as `kwarg` sites; langchain-openai `ChatOpenAI(…)`/`.bind(…)` naming log-prob parameters
 * (`chatModelSites`); `….post(url, json=BODY)` over BODY's dict; then any unused dict
 * literal shaped like a request body. Sites with an unresolvable `**splat` are skipped (their
 * parameters cannot be known).
 */
export function readSites(ctx: PyContext): void {
  const sites: RequestSite[] = [];
  for (const { node, scope } of ctx.collected.calls) {
    const fn = node.childForFieldName('function');
    const callee = compact(fn);
    const apiKind = refineByArguments(ctx, node, apiKindOfCallee(callee, ctx.litellmNames));
    const site = apiKind
      ? kwargSite(ctx, node, scope, apiKind, callee)
      : fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === 'post' ? postSite(ctx, node, scope, callee) : undefined;
    if (site) sites.push(site);
  }
  sites.push(...chatModelSites(ctx, ctx.collected.calls));
  for (const { node } of ctx.collected.dicts) {
    const dict = ctx.dicts.get(node.id);
    if (!dict || dict.used) continue;
    const entries = dictParams(ctx, dict);
    const apiKind = entries ? apiKindOfBody(new Set(entries.keys())) : undefined;
    if (!apiKind) continue;
    const site = dictSite(ctx, dict, apiKind, dict.scope, dict.boundTo ? callsPassing(ctx, dict.boundTo, dict.scope) : []);
    if (site) sites.push(site);
  }
  ctx.out.requestSites.push(...sites.sort((a, b) => a.range.start - b.range.start));
}
