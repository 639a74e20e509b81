import { lastIndexBefore } from '../../range-lookup';
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

/** Constructions assigned to one name, in document order, and their positions in that list by scope key. */
interface Constructions {
  list: Located[];
  byScope: Map<string, number[]>;
}

const clientIndex = new WeakMap<PyContext, Map<string, Constructions>>();

/** `OpenAI(…)`/`AsyncOpenAI(…)` constructions by the name they are assigned to, in document order (built once per pass). */
function clientsByTarget(ctx: PyContext): Map<string, Constructions> {
  let index = clientIndex.get(ctx);
  if (index) return index;
  index = new Map();
  const targets = callTargets(ctx);
  for (const located of ctx.collected.calls) {
    const target = targets.get(located.node.id);
    if (target === undefined || !OPENAI_CLIENT.test(compact(located.node.childForFieldName('function')))) continue;
    let entry = index.get(target);
    if (!entry) index.set(target, (entry = { list: [], byScope: new Map() }));
    const positions = entry.byScope.get(located.scope.key);
    if (positions) positions.push(entry.list.length);
    else entry.byScope.set(located.scope.key, [entry.list.length]);
    entry.list.push(located);
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
  // The construction in scope (any, for a dotted name; else one in the call's scope or an enclosing one):
  // the last before the call, or else the last one. Found per enclosing scope by position, not by a scan
  // of every construction of that name per call (a file of many functions each making `client` was quadratic).
  const entry = clientsByTarget(ctx).get(client);
  if (!entry) return undefined;
  const startOf = (i: number) => entry.list[i].node.startIndex;
  let before = -1;
  let last = -1;
  if (client.includes('.')) {
    before = lastIndexBefore(entry.list, call.startIndex, (l) => l.node.startIndex);
    last = entry.list.length - 1;
  } else {
    // (a scope met twice, the module and a function at offset 0, only repeats the same maxima)
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      const positions = entry.byScope.get(s.key);
      if (!positions) continue;
      before = Math.max(before, positions[lastIndexBefore(positions, call.startIndex, startOf)] ?? -1);
      last = Math.max(last, positions[positions.length - 1]);
    }
  }
  const chosen = entry.list[before >= 0 ? before : last];
  if (!chosen) return undefined;
  const base = literalString(ctx, callArguments(chosen.node).keywords.get('base_url'), chosen.scope);
  return base === undefined || !/^https?:\/\//i.test(base.trim()) ? undefined : sdkJoin(base.trim(), path);
}
