import type { SyntaxNode } from '../treesitter';
import { addSetting, putRecord, rangeOf, type PyContext } from './context';
import { callArguments, compact, envOfValue, envReadOf, isEnviron, isScalar, unwrapParens } from './env';
import { literalOf, stringValue } from './literals';
import { isHttpClientCall } from '../../model/clients';
import type { DictInfo } from './symbols';
import type { Scope } from './walk';

const LITELLM_FUNCTIONS = new Set(['completion', 'acompletion', 'text_completion', 'atext_completion']);

/** `from litellm import completion as c` → names that call LiteLLM. */
export function readImports(ctx: PyContext): void {
  for (const node of ctx.collected.imports) {
    if (compact(node.childForFieldName('module_name')) !== 'litellm') continue;
    for (const name of node.childrenForFieldName('name')) {
      if (!name) continue;
      const original = name.type === 'aliased_import' ? compact(name.childForFieldName('name')) : compact(name);
      const local = name.type === 'aliased_import' ? compact(name.childForFieldName('alias')) : original;
      if (LITELLM_FUNCTIONS.has(original)) ctx.litellmNames.set(local, original);
    }
  }
}

/** Dict literals → `dictEntry` settings (string keys only) and their `DictInfo`s, outer dicts first. */
export function readDicts(ctx: PyContext): void {
  const names = new Map<number, string>();
  for (const { node } of ctx.collected.assignments) {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (right?.type === 'dictionary' && (left?.type === 'identifier' || left?.type === 'attribute')) names.set(right.id, compact(left));
  }
  const nestedIn = new Map<number, { outer: DictInfo; key: string }>();
  for (const { node, scope } of ctx.collected.dicts) {
    const holder = nestedIn.get(node.id);
    const boundTo = names.get(node.id);
    const info: DictInfo = {
      node, scope, group: `dict@${node.startIndex}`, path: holder ? `${holder.outer.path}.${holder.key}` : boundTo ?? 'dict', boundTo,
      entries: new Map(), values: new Map(), nested: new Map(), deepEntries: new Map(), splats: [], used: false,
    };
    ctx.dicts.set(node.id, info);
    holder?.outer.nested.set(holder.key, info);
    for (const child of node.namedChildren) {
      if (child?.type === 'dictionary_splat') {
        const expr = child.namedChild(0);
        if (expr) info.splats.push({ expr, scope });
        continue;
      }
      if (child?.type !== 'pair') continue;
      const keyNode = child.childForFieldName('key');
      const valueNode = child.childForFieldName('value');
      const key = stringValue(keyNode, ctx.text);
      if (!keyNode || !valueNode || key === undefined) continue;
      const setting = addSetting(ctx, {
        key, path: `${info.path}.${key}`, kind: 'dictEntry', keyRange: rangeOf(keyNode), statementRange: rangeOf(child), group: info.group,
      }, valueNode);
      info.entries.set(key, setting);
      info.values.set(key, valueNode);
      if (valueNode.type === 'dictionary') nestedIn.set(valueNode.id, { outer: info, key });
    }
  }
}

function addKwarg(ctx: PyContext, node: SyntaxNode, fn: SyntaxNode): void {
  const name = node.childForFieldName('name');
  const value = node.childForFieldName('value');
  if (!name || !value || name.type !== 'identifier') return;
  const callee = compact(fn);
  const group = `call@${fn.startIndex}`;
  const env = envOfValue(value, ctx.text);
  if (env) ctx.envGroups.set(env.node.id, group);
  const setting = addSetting(ctx, {
    key: name.text, path: `${callee}.${name.text}`, kind: 'kwarg', keyRange: rangeOf(name), statementRange: rangeOf(node),
    group, callee, envName: env?.name,
  }, value);
  ctx.kwargs.set(node.id, setting);
}

/**
 * Every keyword argument → a `kwarg` setting (`group` = `call@<call start>`): those of calls, and
 * those an ERROR node holds after `callee(` (a call whose `)` is missing).
 */
export function readKwargs(ctx: PyContext): void {
  const found: { node: SyntaxNode; fn: SyntaxNode }[] = [];
  for (const { node: call } of ctx.collected.calls) {
    const fn = call.childForFieldName('function');
    const args = call.childForFieldName('arguments');
    if (!fn || args?.type !== 'argument_list') continue;
    for (const arg of args.namedChildren) if (arg?.type === 'keyword_argument') found.push({ node: arg, fn });
  }
  for (const { node: error } of ctx.collected.errors) {
    const children = error.children.filter((c): c is SyntaxNode => c !== null);
    let fn: SyntaxNode | undefined;
    children.forEach((child, i) => {
      if (child.type === '(') {
        const before = children[i - 1];
        fn = before && (before.type === 'identifier' || before.type === 'attribute') ? before : undefined;
      } else if (child.type === 'keyword_argument' && fn) {
        found.push({ node: child, fn });
      }
    });
  }
  found.sort((a, b) => a.node.startIndex - b.node.startIndex);
  for (const { node, fn } of found) addKwarg(ctx, node, fn);
  for (const { node: call } of ctx.collected.calls) addRequestUrl(ctx, call);
}


/**
 * A literal `http(s)://` URL passed first to an HTTP client call becomes a `kwarg` setting with key
 * `url` (the same shape as `requests.post(url="…")`), so the request URL is checked as written.
 */
function addRequestUrl(ctx: PyContext, call: SyntaxNode): void {
  const fn = call.childForFieldName('function');
  if (!fn || !isHttpClientCall(compact(fn))) return;
  const first = callArguments(call).positional[0];
  const url = stringValue(first, ctx.text);
  if (!first || url === undefined || !/^https?:\/\//i.test(url.trim())) return;
  const callee = compact(fn);
  addSetting(ctx, { key: 'url', path: `${callee}.url`, kind: 'kwarg', keyRange: rangeOf(first), statementRange: rangeOf(first), group: `call@${fn.startIndex}`, callee }, first);
}

function bindTarget(ctx: PyContext, left: SyntaxNode, right: SyntaxNode, assignment: SyntaxNode, scope: Scope): void {
  const name = compact(left);
  const offset = assignment.startIndex;
  const dict = right.type === 'dictionary' ? ctx.dicts.get(right.id) : undefined;
  const env = envOfValue(right, ctx.text);
  const lit = literalOf(right, ctx.text);
  if (!dict && !env && lit.valueType === 'dynamic') {
    ctx.symbols.bind(scope, name, offset, { kind: 'other', value: right });
    return;
  }
  const key = left.type === 'attribute' ? left.childForFieldName('attribute')?.text ?? name : name;
  const setting = addSetting(ctx, {
    key, path: name, kind: 'assignment', keyRange: rangeOf(left), statementRange: rangeOf(assignment), group: scope.key, envName: env?.name,
  }, right);
  putRecord(ctx.out.bindings, name, setting);
  ctx.symbols.bind(scope, name, offset, dict ? { kind: 'dict', dict } : env ? { kind: 'env', name: env.name } : { kind: 'literal', setting });
}

/** Keys of a subscript chain `base["a"]["b"]` → `{ base, keys: ["a", "b"], last }`. */
function subscriptChain(node: SyntaxNode, text: string): { base: SyntaxNode; keys: string[]; last: SyntaxNode } | undefined {
  const keys: string[] = [];
  let last: SyntaxNode | undefined;
  let cur: SyntaxNode | null = node;
  while (cur?.type === 'subscript') {
    const sub = cur.childForFieldName('subscript');
    const key = stringValue(sub, text);
    if (!sub || key === undefined) return undefined;
    last ??= sub;
    keys.unshift(key);
    cur = cur.childForFieldName('value');
  }
  if (!cur || !last || (cur.type !== 'identifier' && cur.type !== 'attribute')) return undefined;
  return { base: cur, keys, last };
}

function subscriptWrite(ctx: PyContext, left: SyntaxNode, right: SyntaxNode, assignment: SyntaxNode, scope: Scope): void {
  const chain = subscriptChain(left, ctx.text);
  if (!chain) return;
  const { base, keys, last } = chain;
  const key = keys[keys.length - 1];
  const statementRange = rangeOf(assignment);
  if (isEnviron(base)) {
    if (keys.length === 1) addSetting(ctx, { key, path: key, kind: 'env', keyRange: rangeOf(last), statementRange, group: scope.key }, right);
    return;
  }
  const name = compact(base);
  const dict = ctx.symbols.dictOf(scope, name, assignment.startIndex);
  const nested = keys.length === 2 ? dict?.nested.get(keys[0]) : undefined;
  const target = keys.length === 1 ? dict : nested;
  const group = target?.group ?? `var:${[name, ...keys.slice(0, -1)].join('.')}`;
  const setting = addSetting(ctx, {
    key, path: `${name}.${keys.join('.')}`, kind: 'dictEntry', keyRange: rangeOf(last), statementRange, group,
  }, right);
  if (target) target.entries.set(key, setting);
  else if (dict && keys.length === 2) dict.deepEntries.set(keys.join('.'), setting);
}

/** Assignments to names and attributes: `assignment` settings, `bindings` and the symbol table. */
export function readAssignments(ctx: PyContext): void {
  for (const { node, scope } of ctx.collected.assignments) {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (left && right && right.type !== 'assignment' && (left.type === 'identifier' || left.type === 'attribute')) {
      bindTarget(ctx, left, right, node, scope);
    }
  }
}

/** Env reads (`EnvRead` + `envDefault` settings) and `os.environ.setdefault("K", "v")` writes. */
export function readEnv(ctx: PyContext): void {
  const written = new Set<number>();
  for (const { node } of ctx.collected.assignments) {
    const left = node.childForFieldName('left');
    if (left?.type === 'subscript') written.add(left.id);
  }
  const orDefaults = new Map<number, { statement: SyntaxNode; defaultNode: SyntaxNode }>();
  for (const { node } of ctx.collected.booleanOps) {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (node.childForFieldName('operator')?.type === 'or' && left && right && isScalar(right, ctx.text)) {
      orDefaults.set(unwrapParens(left).id, { statement: node, defaultNode: right });
    }
  }
  const candidates = [...ctx.collected.calls, ...ctx.collected.subscripts].sort((a, b) => a.node.startIndex - b.node.startIndex);
  for (const { node, scope } of candidates) {
    if (node.type === 'call' && /^(os\.)?environ\.setdefault$/.test(compact(node.childForFieldName('function')))) {
      const [nameNode, valueNode] = callArguments(node).positional;
      const name = stringValue(nameNode, ctx.text);
      if (name && valueNode) addSetting(ctx, { key: name, path: name, kind: 'env', keyRange: rangeOf(nameNode), statementRange: rangeOf(node), group: scope.key }, valueNode);
      continue;
    }
    const read = written.has(node.id) ? undefined : envReadOf(node, ctx.text);
    if (!read) continue;
    const viaOr = read.defaultNode ? undefined : orDefaults.get(node.id);
    const defaultNode = read.defaultNode ?? viaOr?.defaultNode;
    const def = defaultNode ? literalOf(defaultNode, ctx.text) : undefined;
    ctx.out.envReads.push({ name: read.name, range: rangeOf(node), ...(def?.value !== undefined ? { defaultValue: def.value } : {}) });
    if (!defaultNode || def?.value === undefined) continue;
    addSetting(ctx, {
      key: read.name, path: read.name, kind: 'envDefault', keyRange: rangeOf(read.nameNode), statementRange: rangeOf(viaOr?.statement ?? node),
      group: ctx.envGroups.get(node.id) ?? scope.key, envName: read.name,
    }, defaultNode);
  }
}

function update(ctx: PyContext, node: SyntaxNode, scope: Scope): void {
  const fn = node.childForFieldName('function');
  if (fn?.type !== 'attribute' || fn.childForFieldName('attribute')?.text !== 'update') return;
  const object = fn.childForFieldName('object');
  if (!object || (object.type !== 'identifier' && object.type !== 'attribute')) return;
  const dict = ctx.symbols.dictOf(scope, compact(object), node.startIndex);
  const args = node.childForFieldName('arguments');
  if (!dict || args?.type !== 'argument_list') return;
  for (const arg of args.namedChildren) {
    if (!arg || arg.type === 'comment') continue;
    if (arg.type === 'keyword_argument') {
      const setting = ctx.kwargs.get(arg.id);
      if (setting) dict.entries.set(setting.key, setting);
      continue;
    }
    const expr = arg.type === 'dictionary_splat' ? arg.namedChild(0) : arg;
    const inner = expr?.type === 'dictionary' ? ctx.dicts.get(expr.id) : undefined;
    if (inner) {
      inner.used = true;
      for (const [k, v] of inner.entries) dict.entries.set(k, v);
    } else if (expr) {
      dict.splats.push({ expr, scope });
    }
  }
}

/**
 * Writes into dicts, in document order so a later write wins: `d["k"] = v` (a `dictEntry`, or an
 * `env` setting for `os.environ["K"] = v`) and `d.update({...})` / `d.update(k=v)` / `d.update(other)`.
 */
export function readMutations(ctx: PyContext): void {
  const writes = ctx.collected.assignments.filter(({ node }) => node.childForFieldName('left')?.type === 'subscript');
  const all = [...writes, ...ctx.collected.calls].sort((a, b) => a.node.startIndex - b.node.startIndex);
  for (const { node, scope } of all) {
    const right = node.childForFieldName('right');
    if (node.type === 'call') update(ctx, node, scope);
    else if (right && right.type !== 'assignment') subscriptWrite(ctx, node.childForFieldName('left')!, right, node, scope);
  }
}
