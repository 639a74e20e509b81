import type { Extraction, Range, Setting } from '../../model/types';
import type { SyntaxNode } from '../treesitter';
import { literalOf } from './literals';
import { SymbolTable, type DictInfo } from './symbols';
import type { Collected, Located } from './walk';

/** Shared state of one Python extraction pass. */
export interface PyContext {
  text: string;
  out: Extraction;
  collected: Collected;
  symbols: SymbolTable;
  /** Dict literals by node id. */
  dicts: Map<number, DictInfo>;
  /** Settings of `keyword_argument` nodes by node id. */
  kwargs: Map<number, Setting>;
  /** Env-read node id → group of the call whose kwarg it is the value of (`OpenAI(base_url=os.getenv(…))`). */
  envGroups: Map<number, string>;
  /** Local names that mean LiteLLM's `completion`/`acompletion`/`text_completion` (`from litellm import …`). */
  litellmNames: Map<string, string>;
  /** `collected` lists grouped by scope key, built on first use by `inScope`. */
  byScope?: Map<string, ScopeNodes>;
  /** Built on first use by `callTargets`. */
  callTargets?: Map<number, string>;
  /** Built on first use by `rollout.ts`. */
  chainedReads?: Map<number, string>;
}

/** The call inside `await`/parentheses, if the expression is one. */
export function callIn(node: SyntaxNode | null | undefined): SyntaxNode | undefined {
  let n = node;
  while (n && (n.type === 'await' || n.type === 'parenthesized_expression')) n = n.namedChild(0);
  return n?.type === 'call' ? n : undefined;
}

/**
 * Call node id → the name or attribute its result is bound to, as written without whitespace:
 * `client = OpenAI(…)`, `r = await f(…)`, `self.client = AsyncOpenAI(…)`, `with f(…) as r`.
 * Computed downwards from assignments and `as` patterns (no `parent` lookups, which are slow).
 */
export function callTargets(ctx: PyContext): Map<number, string> {
  if (ctx.callTargets) return ctx.callTargets;
  const map = new Map<number, string>();
  for (const { node } of ctx.collected.assignments) {
    const left = node.childForFieldName('left');
    const call = callIn(node.childForFieldName('right'));
    if (call && (left?.type === 'identifier' || left?.type === 'attribute')) map.set(call.id, left.text.replace(/\s+/g, ''));
  }
  for (const { node } of ctx.collected.binders) {
    if (node.type !== 'as_pattern') continue;
    const call = callIn(node.namedChild(0));
    const alias = node.childForFieldName('alias');
    const id = alias?.type === 'identifier' ? alias : alias?.namedChild(0);
    if (call && id?.type === 'identifier') map.set(call.id, id.text);
  }
  ctx.callTargets = map;
  return map;
}

/** The collected nodes of one scope (not of nested scopes), in document order. */
export interface ScopeNodes {
  calls: Located[];
  assignments: Located[];
  binders: Located[];
  attributeReads: Located[];
  subscripts: Located[];
}

/** The nodes collected directly in the scope with key `key`. */
export function inScope(ctx: PyContext, key: string): ScopeNodes {
  if (!ctx.byScope) {
    const map = new Map<string, ScopeNodes>();
    const lists = ['calls', 'assignments', 'binders', 'attributeReads', 'subscripts'] as const;
    for (const list of lists) {
      for (const located of ctx.collected[list]) {
        let entry = map.get(located.scope.key);
        if (!entry) map.set(located.scope.key, (entry = { calls: [], assignments: [], binders: [], attributeReads: [], subscripts: [] }));
        entry[list].push(located);
      }
    }
    ctx.byScope = map;
  }
  return ctx.byScope.get(key) ?? { calls: [], assignments: [], binders: [], attributeReads: [], subscripts: [] };
}

/** A fresh context for one pass over `collected`, writing into `out`. */
export function newContext(text: string, out: Extraction, collected: Collected): PyContext {
  return { text, out, collected, symbols: new SymbolTable(), dicts: new Map(), kwargs: new Map(), envGroups: new Map(), litellmNames: new Map() };
}

/** Where a setting sits and what it is called; the value side comes from the value node. */
export interface SettingPlace {
  key: string;
  path: string;
  kind: Setting['kind'];
  keyRange: Range;
  statementRange: Range;
  group: string;
  callee?: string;
  envName?: string;
}

/** Builds a Python setting from its place and value node and appends it to the extraction. */
export function addSetting(ctx: PyContext, place: SettingPlace, valueNode: SyntaxNode): Setting {
  const lit = literalOf(valueNode, ctx.text);
  const setting: Setting = {
    key: place.key,
    path: place.path,
    format: 'python',
    kind: place.kind,
    raw: lit.raw,
    value: lit.value,
    valueType: lit.valueType,
    keyRange: place.keyRange,
    valueRange: lit.valueRange,
    contentRange: lit.contentRange,
    quote: lit.quote,
    statementRange: place.statementRange,
    group: place.group,
  };
  if (place.callee !== undefined) setting.callee = place.callee;
  if (place.envName !== undefined) setting.envName = place.envName;
  ctx.out.settings.push(setting);
  return setting;
}

/** Sets `record[key]` as an own property, so keys such as `__proto__` stay plain data. */
export function putRecord<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The node's core range (tree-sitter indices are already UTF-16 offsets for JS strings). */
export function rangeOf(node: SyntaxNode): Range {
  return { start: node.startIndex, end: node.endIndex };
}
