import type { ApiKind } from '../../model/types';
import { sdkJoin } from '../../resolve/urls';
import type { SyntaxNode } from '../treesitter';
import { callTargets, type PyContext } from './context';
import { callArguments, compact } from './env';
import { fstringSegment, stringParts, stringValue } from './literals';
import type { Located, Scope } from './walk';

/** Client classes that join `base_url` the openai SDK way (AzureOpenAI builds its own URLs). */
const OPENAI_CLIENT = /(^|\.)(Async)?OpenAI$/;
/** Paths the openai SDK appends per API (OpenAI API reference). */
const SDK_PATH: Partial<Record<ApiKind, string>> = { chat: '/chat/completions', completions: '/completions', responses: '/responses' };

/** The literal string a name or literal stands for at `node`, if any (`BASE` bound to `"http://…"`). */
function literalString(ctx: PyContext, node: SyntaxNode | null | undefined, scope: Scope): string | undefined {
  if (!node) return undefined;
  const direct = stringValue(node, ctx.text);
  if (direct !== undefined) return direct;
  if (node.type !== 'identifier') return undefined;
  const bound = ctx.symbols.lookup(scope, node.text, node.startIndex);
  return bound?.kind === 'literal' && bound.setting.valueType === 'string' ? bound.setting.value : undefined;
}

/**
 * The whole URL of a join on a literal base: `f"{BASE}/v1/chat/completions"` (one interpolation, at
 * the start) or `BASE + "/v1/chat/completions"`, where `BASE` is bound to a string literal.
 */
export function joinedUrl(ctx: PyContext, expr: SyntaxNode, scope: Scope): string | undefined {
  if (expr.type === 'string') {
    const parts = stringParts(expr);
    const only = parts?.interpolations.length === 1 ? parts.interpolations[0] : undefined;
    if (!parts || !only || only.startIndex !== parts.contentRange.start) return undefined;
    const base = literalString(ctx, only.childForFieldName('expression') ?? only.namedChild(0), scope);
    return base === undefined ? undefined : base + fstringSegment(expr, ctx.text, only.endIndex);
  }
  if (expr.type === 'binary_operator' && expr.childForFieldName('operator')?.type === '+') {
    const left = literalString(ctx, expr.childForFieldName('left'), scope);
    const right = stringValue(expr.childForFieldName('right'), ctx.text);
    return left !== undefined && right !== undefined ? left + right : undefined;
  }
  return undefined;
}

const clientIndex = new WeakMap<PyContext, Map<string, Located[]>>();

/** `OpenAI(…)`/`AsyncOpenAI(…)` constructions by the name they are assigned to, in document order (built once per pass). */
function clientsByTarget(ctx: PyContext): Map<string, Located[]> {
  let index = clientIndex.get(ctx);
  if (index) return index;
  index = new Map();
  const targets = callTargets(ctx);
  for (const located of ctx.collected.calls) {
    const target = targets.get(located.node.id);
    if (target === undefined || !OPENAI_CLIENT.test(compact(located.node.childForFieldName('function')))) continue;
    const list = index.get(target) ?? [];
    list.push(located);
    index.set(target, list);
  }
  clientIndex.set(ctx, index);
  return index;
}

/**
 * The URL an SDK call (`client.chat.completions.create`) requests, when `client` is assigned an
 * `OpenAI(base_url=…)` / `AsyncOpenAI(base_url=…)` whose base URL is a literal (or a name bound to
 * one) in the same file. `undefined` otherwise: without a literal base the SDK reads
 * `OPENAI_BASE_URL` from the environment, which the file does not show.
 */
export function clientEndpoint(ctx: PyContext, call: SyntaxNode, scope: Scope, apiKind: ApiKind): string | undefined {
  const path = SDK_PATH[apiKind];
  const callee = compact(call.childForFieldName('function'));
  const client = /^(.+?)\.(?:chat\.completions|completions|responses)\.(?:create|parse)$/.exec(callee)?.[1];
  if (!path || !client) return undefined;
  const ancestors = new Set<string>();
  for (let s: Scope | undefined = scope; s; s = s.parent) ancestors.add(s.key);
  const constructions = (clientsByTarget(ctx).get(client) ?? []).filter(({ scope: at }) => client.includes('.') || ancestors.has(at.key));
  const before = constructions.filter(({ node }) => node.startIndex < call.startIndex);
  const pool = before.length > 0 ? before : constructions;
  const chosen = pool[pool.length - 1];
  if (!chosen) return undefined;
  const base = literalString(ctx, callArguments(chosen.node).keywords.get('base_url'), chosen.scope);
  return base === undefined || !/^https?:\/\//i.test(base.trim()) ? undefined : sdkJoin(base.trim(), path);
}
