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
  const { assignments, binders, attributeReads, subscripts, calls } = inScope(ctx, scope.key);
  const same = (l: { node: SyntaxNode }) => l.node.startIndex > call.startIndex;
  const derived = new Set([name]);
  const flows = [...assignments, ...binders].filter(same).map(({ node }) => {
    if (node.type === 'as_pattern') return { to: node.childForFieldName('alias')?.namedChild(0) ?? null, from: node.namedChild(0) };
    return { to: node.childForFieldName('left'), from: node.childForFieldName('right') };
  });
  for (let changed = true, round = 0; changed && round < 5; round++) {
    changed = false;
    for (const { to, from } of flows) {
      const root = rootName(from);
      if (to?.type === 'identifier' && root && derived.has(root) && !derived.has(to.text)) {
        derived.add(to.text);
        changed = true;
      }
    }
  }
  for (const located of [...attributeReads, ...subscripts, ...calls].filter(same)) {
    const read = readOf(located.node, ctx.text);
    const root = read ? rootName(read.on) : undefined;
    if (read && root && derived.has(root)) return `result read at ${read.reason}`;
  }
  return undefined;
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
