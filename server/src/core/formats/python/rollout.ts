import type { SyntaxNode } from '../treesitter';
import { callTargets, inScope, type PyContext } from './context';
import { callArguments, compact } from './env';
import { stringValue } from './literals';
import type { Scope } from './walk';

const ROLLOUT_WORDS = new Set(['rollout', 'rollouts', 'policy', 'policies']);
const READ_KEYS = new Set(['logprobs', 'meta_info']);

/** Words of a snake_case / CamelCase / mixed name, lower-cased: `RLPolicyServer2` → `rl policy server 2`. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)|(\d)([A-Za-z])/g, '$1$3 $2$4')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/** True when a function/class name has `rollout` or `policy` (or their plurals) as a word. */
export function isRolloutName(name: string): boolean {
  return nameWords(name).some((w) => ROLLOUT_WORDS.has(w));
}

/** The identifier an access chain starts from: `resp.json()["meta_info"]` → `resp`. */
function rootName(node: SyntaxNode | null): string | undefined {
  let cur = node;
  for (let guard = 0; cur && guard < 100; guard++) {
    switch (cur.type) {
      case 'identifier':
        return cur.text;
      case 'attribute':
        cur = cur.childForFieldName('object');
        break;
      case 'subscript':
        cur = cur.childForFieldName('value');
        break;
      case 'call':
        cur = cur.childForFieldName('function');
        break;
      case 'await':
      case 'parenthesized_expression':
        cur = cur.namedChild(0);
        break;
      default:
        return undefined;
    }
  }
  return undefined;
}

/** `.logprobs`, `["meta_info"]`, `.get("meta_info")` read on `node`'s value; the words for the reason. */
function readOf(node: SyntaxNode, text: string): { reason: string; on: SyntaxNode | null } | undefined {
  if (node.type === 'attribute') {
    const name = node.childForFieldName('attribute')?.text ?? '';
    if (READ_KEYS.has(name)) return { reason: `.${name}`, on: node.childForFieldName('object') };
  } else if (node.type === 'subscript') {
    const key = stringValue(node.childForFieldName('subscript'), text);
    if (key !== undefined && READ_KEYS.has(key)) return { reason: `["${key}"]`, on: node.childForFieldName('value') };
  } else if (node.type === 'call') {
    const fn = node.childForFieldName('function');
    const key = stringValue(callArguments(node).positional[0], text);
    if (fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === 'get' && key !== undefined && READ_KEYS.has(key)) {
      return { reason: `["${key}"]`, on: fn.childForFieldName('object') };
    }
  }
  return undefined;
}

/**
 * Reads chained directly on a call (`create(…).choices[0].logprobs`, `post(…).json()["meta_info"]`):
 * call node id → the words for the read. Found by walking down from each read, so no `parent` lookups.
 */
function chainedReads(ctx: PyContext): Map<number, string> {
  if (ctx.chainedReads) return ctx.chainedReads;
  const map = new Map<number, string>();
  const { attributeReads, subscripts, calls } = ctx.collected;
  for (const { node } of [...attributeReads, ...subscripts, ...calls]) {
    const read = readOf(node, ctx.text);
    let cur = read?.on ?? null;
    for (let guard = 0; read && cur && guard < 100; guard++) {
      if (cur.type === 'call' && !map.has(cur.id)) map.set(cur.id, read.reason);
      cur = chainStep(cur);
    }
  }
  ctx.chainedReads = map;
  return map;
}

function chainStep(node: SyntaxNode): SyntaxNode | null {
  switch (node.type) {
    case 'attribute': return node.childForFieldName('object');
    case 'subscript': return node.childForFieldName('value');
    case 'call': return node.childForFieldName('function');
    case 'await':
    case 'parenthesized_expression': return node.namedChild(0);
    default: return null;
  }
}

/**
 * Why a call's result counts as a rollout: it is read at `.logprobs` / `.meta_info` / `["meta_info"]`
 * in the same function, directly or through names assigned from it (`data = resp.json()`,
 * `for c in resp.choices`). `undefined` when nothing reads it that way.
 */
export function resultReadReason(ctx: PyContext, call: SyntaxNode, scope: Scope): string | undefined {
  const direct = chainedReads(ctx).get(call.id);
  if (direct) return `result read at ${direct}`;
  const name = callTargets(ctx).get(call.id);
  if (!name || name.includes('.')) return undefined;
  const index = resultFlowIndex(ctx, scope.key);
  const after = call.startIndex;
  // The names the result flows into after the call (`data = resp.json()`, `for c in resp.choices`).
  const derived = new Set([name]);
  const queue = [name];
  for (let steps = 0; queue.length > 0 && steps < FLOW_STEPS; ) {
    const flows = index.flows.get(queue.pop()!);
    if (!flows) continue;
    for (let i = firstAfter(flows, after); i < flows.length && steps < FLOW_STEPS; i++, steps++) {
      if (!derived.has(flows[i].to)) {
        derived.add(flows[i].to);
        queue.push(flows[i].to);
      }
    }
  }
  // The first read (in collection order) of a derived name after the call.
  let best: ResultRead | undefined;
  for (const n of derived) {
    const reads = index.reads.get(n);
    const i = reads ? firstAfter(reads, after) : -1;
    if (reads && i < reads.length && (!best || reads[i].minOrder.order < best.order)) best = reads[i].minOrder;
  }
  return best ? `result read at ${best.reason}` : undefined;
}

/** Work bound of one result-flow closure (name steps): a hostile file cannot make one call cost the whole file. */
const FLOW_STEPS = 10_000;

interface ResultRead {
  order: number;
  reason: string;
}

/**
 * A scope's `.logprobs`/`.meta_info`/`["meta_info"]` reads and plain assignments, indexed by the root
 * name they read from, each list sorted by start offset (`reads[i].minOrder`: the earliest-collected read
 * among `reads[i..]`). Built once per scope: asking every call of a file used to rescan the whole
 * scope (calls × assignments, quadratic; 6,000 calls took 14 s).
 */
interface ResultFlowIndex {
  flows: Map<string, { start: number; to: string }[]>;
  reads: Map<string, { start: number; minOrder: ResultRead }[]>;
}

const flowIndexes = new WeakMap<PyContext, Map<string, ResultFlowIndex>>();

function resultFlowIndex(ctx: PyContext, key: string): ResultFlowIndex {
  let perScope = flowIndexes.get(ctx);
  if (!perScope) flowIndexes.set(ctx, (perScope = new Map()));
  const cached = perScope.get(key);
  if (cached) return cached;
  const { assignments, binders, attributeReads, subscripts, calls } = inScope(ctx, key);
  const flows = new Map<string, { start: number; to: string }[]>();
  for (const { node } of [...assignments, ...binders]) {
    const to = node.type === 'as_pattern' ? (node.childForFieldName('alias')?.namedChild(0) ?? null) : node.childForFieldName('left');
    const from = node.type === 'as_pattern' ? node.namedChild(0) : node.childForFieldName('right');
    const root = rootName(from);
    if (to?.type !== 'identifier' || !root) continue;
    const list = flows.get(root) ?? [];
    list.push({ start: node.startIndex, to: to.text });
    flows.set(root, list);
  }
  const raw = new Map<string, { start: number; order: number; reason: string }[]>();
  [...attributeReads, ...subscripts, ...calls].forEach((located, order) => {
    const read = readOf(located.node, ctx.text);
    const root = read ? rootName(read.on) : undefined;
    if (!read || !root) return;
    const list = raw.get(root) ?? [];
    list.push({ start: located.node.startIndex, order, reason: read.reason });
    raw.set(root, list);
  });
  const reads = new Map<string, { start: number; minOrder: ResultRead }[]>();
  for (const [root, list] of raw) {
    list.sort((a, b) => a.start - b.start || a.order - b.order);
    const out: { start: number; minOrder: ResultRead }[] = new Array(list.length);
    let min: ResultRead | undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      if (!min || list[i].order < min.order) min = { order: list[i].order, reason: list[i].reason };
      out[i] = { start: list[i].start, minOrder: min };
    }
    reads.set(root, out);
  }
  for (const list of flows.values()) list.sort((a, b) => a.start - b.start);
  const index = { flows, reads };
  perScope.set(key, index);
  return index;
}

/** The first position in `list` (sorted by `start`) whose `start` is after `offset`. */
function firstAfter(list: readonly { start: number }[], offset: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].start <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Words of functions/classes whose model calls are not policy sampling: evaluation, LLM judges,
 * reward/process-reward models, graders and verifiers. Their requests need no log probs even inside a
 * rollout file (slime's `eval_rollout_single`, `llm_judge_reward`).
 */
const AUXILIARY_WORDS = new Set(['eval', 'evals', 'evaluate', 'evaluation', 'judge', 'judges', 'reward', 'rewards', 'rm', 'prm', 'orm', 'grade', 'grader', 'critic', 'verifier', 'verify', 'score', 'scorer', 'scoring']);

/** The nearest enclosing function or class named like evaluation/judge/reward code, as `function llm_judge_reward`. */
export function auxiliaryScopeReason(scope: Scope): string | undefined {
  for (let s: Scope | undefined = scope; s; s = s.parent) {
    if (s.kind !== 'module' && nameWords(s.name).some((w) => AUXILIARY_WORDS.has(w))) return `${s.kind} ${s.name}`;
  }
  return undefined;
}

/** The nearest enclosing function or class named like a rollout, as `function generate_rollout`. */
export function rolloutScopeReason(scope: Scope): string | undefined {
  for (let s: Scope | undefined = scope; s; s = s.parent) {
    if (s.kind !== 'module' && isRolloutName(s.name)) return `${s.kind} ${s.name}`;
  }
  return undefined;
}

/** Calls in the same scope that take `name` as an argument (`post(url, json=payload)`, `send(payload)`). */
export function callsPassing(ctx: PyContext, name: string, scope: Scope): SyntaxNode[] {
  return inScope(ctx, scope.key)
    .calls.map((c) => c.node)
    .filter((call) => {
      const { positional, keywords } = callArguments(call);
      return [...positional, ...keywords.values()].some((a) => compact(a) === name);
    });
}
