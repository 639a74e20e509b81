import type { Consumer, ConsumerId, Range } from '../../model/types';
import type { SyntaxNode } from '../treesitter';
import { rangeOf, type PyContext } from './context';
import { callArguments, compact, targetOf } from './env';
import { fstringSegment, literalOf, stringParts, stringValue } from './literals';
import type { Scope } from './walk';
import { consumerOfCallee, operationPathOfCallee } from '../../model/clients';
import { joinedConsumer } from '../joins';

/** Base-URL kwargs of openai-SDK-style clients and of LiteLLM calls. */
const OPENAI_BASE_KWARGS = new Set(['base_url', 'openai_api_base']);
const LITELLM_BASE_KWARGS = new Set(['api_base', 'base_url']);


/** Source text collapsed to one line and cut to at most 60 characters, for `Consumer.via`. */
export function shortVia(source: string): string {
  const one = source.replace(/\s+/g, ' ').trim();
  return one.length <= 60 ? one : `${one.slice(0, 59)}…`;
}

/**
 * The part of the file a target name can be bound in, seen from `scope`: `self.x` → the enclosing
 * class; a plain local name → the enclosing function when the name is assigned there (else module-wide);
 * `undefined` = anywhere.
 */
function bindingRegion(ctx: PyContext, target: string, scope: Scope, node: SyntaxNode): Range | undefined {
  const region = (s: Scope | undefined) => (s?.end !== undefined ? { start: Number(s.key.slice('scope@'.length)), end: s.end } : undefined);
  if (target.startsWith('self.')) {
    let s: Scope | undefined = scope;
    while (s && s.kind !== 'class') s = s.parent;
    return region(s);
  }
  if (target.includes('.') || scope.kind !== 'function') return undefined;
  return ctx.symbols.bindsLocally(scope, target) || isParameter(node, target) ? region(scope) : undefined;
}

/** True when `name` is a parameter of the function that encloses `node`. */
function isParameter(node: SyntaxNode, name: string): boolean {
  let def: SyntaxNode | null = node.parent;
  while (def && def.type !== 'function_definition') def = def.parent;
  for (const p of def?.childForFieldName('parameters')?.namedChildren ?? []) {
    const id = p?.type === 'identifier' ? p : p?.childForFieldName('name') ?? p?.namedChild(0);
    if (id?.type === 'identifier' && id.text === name) return true;
  }
  return false;
}

function push(ctx: PyContext, target: string, consumer: Consumer, node: SyntaxNode, scope: Scope): void {
  // A whole-URL use only silences (the value is a URL, not a base): it keeps the file-wide name match,
  // which also covers a value passed on to another function under the same name.
  const wholeUrl = consumer.id === 'raw' && consumer.appendedPath === undefined;
  const within = target.startsWith('env:') || wholeUrl ? undefined : bindingRegion(ctx, target, scope, node);
  ctx.out.consumerEvidence.push({ target, consumer, range: rangeOf(node), ...(within ? { within } : {}) });
  if (target.startsWith('env:')) return;
  const bound = ctx.symbols.lookup(scope, target, node.startIndex);
  if (bound?.kind === 'env') ctx.out.consumerEvidence.push({ target: `env:${bound.name}`, consumer, range: rangeOf(node) });
}

/**
 * True when `node` is `X.rstrip("/")` (or `.strip("/")`): code that joins a path onto it makes the
 * value's trailing slash irrelevant (`base_url.rstrip("/") + "/"` normalises it).
 */
function stripsSlash(node: SyntaxNode | null | undefined, text: string): boolean {
  while (node?.type === 'parenthesized_expression') node = node.namedChild(0);
  if (node?.type !== 'call') return false;
  const fn = node.childForFieldName('function');
  const method = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : undefined;
  return (method === 'rstrip' || method === 'strip') && (stringValue(callArguments(node).positional[0], text) ?? '').includes('/');
}

function joinEvidence(ctx: PyContext, base: SyntaxNode | null | undefined, appendedPath: string, node: SyntaxNode, scope: Scope): void {
  // The code normalises the slash itself: the join says nothing about how the value must end.
  if (stripsSlash(base, ctx.text) && /^\/?$/.test(appendedPath)) return;
  const target = targetOf(base, ctx.text);
  const consumer = target ? joinedConsumer(appendedPath, shortVia(ctx.text.slice(node.startIndex, node.endIndex))) : undefined;
  if (target && consumer) push(ctx, target, consumer, node, scope);
}

/** The literal text an operand contributes at its start; `stop` when a dynamic part follows. */
function leadingLiteral(node: SyntaxNode, text: string): { value: string; stop: boolean } | undefined {
  const whole = stringValue(node, text);
  if (whole !== undefined) return { value: whole, stop: false };
  if (node.type !== 'string') return undefined;
  const parts = stringParts(node);
  if (!parts) return undefined;
  return { value: fstringSegment(node, text, parts.contentRange.start), stop: true };
}

function fstringJoin(ctx: PyContext, node: SyntaxNode, scope: Scope): void {
  const parts = stringParts(node);
  const first = parts?.interpolations[0];
  if (!parts || !first || first.startIndex !== parts.contentRange.start) return;
  const expr = first.childForFieldName('expression') ?? first.namedChild(0);
  joinEvidence(ctx, expr, fstringSegment(node, ctx.text, first.endIndex), node, scope);
}

/** `a + "/x" + "/y"` as one join; the inner `a + "/x"` nodes are added to `inner` so they are skipped. */
function plusJoin(ctx: PyContext, node: SyntaxNode, scope: Scope, inner: Set<number>): void {
  if (inner.has(node.id)) return;
  const operands: SyntaxNode[] = [];
  let cur: SyntaxNode | null = node;
  while (cur?.type === 'binary_operator' && cur.childForFieldName('operator')?.type === '+') {
    const right = cur.childForFieldName('right');
    if (!right) return;
    inner.add(cur.id);
    operands.unshift(right);
    cur = cur.childForFieldName('left');
  }
  if (!cur) return;
  let appended = '';
  for (const operand of operands) {
    const lit = leadingLiteral(operand, ctx.text);
    if (!lit) break;
    appended += lit.value;
    if (lit.stop) break;
  }
  if (appended) joinEvidence(ctx, cur, appended, node, scope);
}

function percentJoin(ctx: PyContext, node: SyntaxNode, scope: Scope): void {
  const format = stringValue(node.childForFieldName('left'), ctx.text);
  const right = node.childForFieldName('right');
  if (!format?.startsWith('%s') || !right) return;
  const arg = right.type === 'tuple' ? right.namedChild(0) : right;
  const rest = format.slice(2);
  const next = rest.search(/%(?!%)/);
  joinEvidence(ctx, arg, (next < 0 ? rest : rest.slice(0, next)).replace(/%%/g, '%'), node, scope);
}

function formatJoin(ctx: PyContext, call: SyntaxNode, scope: Scope): void {
  const fn = call.childForFieldName('function');
  if (fn?.type !== 'attribute' || fn.childForFieldName('attribute')?.text !== 'format') return;
  const format = stringValue(fn.childForFieldName('object'), ctx.text);
  const m = format === undefined ? null : /^\{(\w*)(?:![rsa])?(?::[^{}]*)?\}/.exec(format);
  if (!format || !m) return;
  const { positional, keywords } = callArguments(call);
  const arg = m[1] === '' ? positional[0] : /^\d+$/.test(m[1]) ? positional[Number(m[1])] : keywords.get(m[1]);
  const rest = format.slice(m[0].length);
  const next = rest.search(/\{(?!\{)/);
  const appended = (next < 0 ? rest : rest.slice(0, next)).replace(/\{\{/g, '{').replace(/\}\}/g, '}');
  joinEvidence(ctx, arg, appended, call, scope);
}

/** Raw HTTP calls whose first argument is the whole request URL: `requests.post(url)`, `httpx.get`, `self.session.post`, `aiohttp` sessions. */
const RAW_HTTP_CALL = /^(requests|httpx|aiohttp)\.(post|get|put|patch|request|stream)$|(^|\.)(\w*session|\w*http\w*|\w*client)\.(post|get|put|patch|stream)$/i;

/**
 * A variable handed whole to a raw HTTP call (`requests.post(self.base_url, json=…)`) is a full
 * request URL, not a base: `raw` evidence without an appended path (issue 23, kind 2).
 */
function rawUrlEvidence(ctx: PyContext, call: SyntaxNode, scope: Scope): void {
  const callee = compact(call.childForFieldName('function'));
  if (!RAW_HTTP_CALL.test(callee)) return;
  const { positional, keywords } = callArguments(call);
  const url = keywords.get('url') ?? positional[0];
  if (!url || (url.type !== 'identifier' && url.type !== 'attribute')) return;
  const target = targetOf(url, ctx.text);
  if (target) push(ctx, target, { id: 'raw', via: `${callee}(${compact(url)}, …)` }, call, scope);
}

function clientEvidence(ctx: PyContext, call: SyntaxNode, scope: Scope): void {
  const callee = compact(call.childForFieldName('function'));
  const last = callee.slice(callee.lastIndexOf('.') + 1);
  const litellm = ctx.litellmNames.has(callee) || /^litellm\.a?(text_)?completion$/.test(callee);
  const id: ConsumerId | undefined = litellm ? 'openai-sdk' : consumerOfCallee(last);
  if (!id) return;
  const kwargs = litellm ? LITELLM_BASE_KWARGS : id === 'anthropic' ? new Set(['base_url']) : OPENAI_BASE_KWARGS;
  const args = call.childForFieldName('arguments');
  for (const arg of args?.namedChildren ?? []) {
    if (arg?.type !== 'keyword_argument') continue;
    const name = arg.childForFieldName('name')?.text ?? '';
    const value = arg.childForFieldName('value');
    if (!kwargs.has(name) || !value || literalOf(value, ctx.text).valueType !== 'dynamic') continue;
    const target = targetOf(value, ctx.text);
    const operationPath = litellm ? undefined : operationPathOfCallee(last);
    if (target) push(ctx, target, { id, via: `${litellm ? callee : last}(${name}=…)`, ...(operationPath ? { operationPath } : {}) }, arg, scope);
  }
}

/**
 * ConsumerEvidence from code: a base joined with a literal path (`f"{BASE}/v1/chat/completions"`,
 * `BASE + "/v1/…"`, `"{}/v1/…".format(BASE)`, `"%s/v1/…" % BASE`) → `v1-appending` when the path
 * starts with `/v1`, else `raw` (also a relative segment, `f"{BASE}exposed/"`, which needs BASE's `/`); a known client constructed with a non-literal base
 * (`OpenAI(base_url=BASE)`, `Anthropic(base_url=os.getenv("X"))`) → `openai-sdk` / `anthropic`.
 * A variable bound to an env read also yields the same evidence for `env:NAME`.
 */
export function readEvidence(ctx: PyContext): void {
  const { fstrings, binaryOps, calls } = ctx.collected;
  for (const { node, scope } of fstrings) fstringJoin(ctx, node, scope);
  const inner = new Set<number>();
  for (const { node, scope } of binaryOps) {
    const op = node.childForFieldName('operator')?.type;
    if (op === '+') plusJoin(ctx, node, scope, inner);
    else if (op === '%') percentJoin(ctx, node, scope);
  }
  for (const { node, scope } of calls) {
    formatJoin(ctx, node, scope);
    clientEvidence(ctx, node, scope);
    rawUrlEvidence(ctx, node, scope);
  }
  ctx.out.consumerEvidence.sort((a, b) => a.range.start - b.range.start);
}
