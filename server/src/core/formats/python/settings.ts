import type { SyntaxNode } from '../treesitter';
import { addSetting, putRecord, rangeOf, type PyContext } from './context';
import { callArguments, compact, envOfValue, envReadOf, isEnviron } from './env';
import { literalOf, stringValue } from './literals';
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

/** Dict literals → `dictEntry` settings (string keys only) and their `DictInfo`s. */
export function readDicts(ctx: PyContext): void {
  for (const { node, scope } of ctx.collected.dicts) {
    const parent = node.parent;
    let path = 'dict';
    if (parent?.type === 'pair' && parent.childForFieldName('value')?.id === node.id) {
      const outer = parent.parent ? ctx.dicts.get(parent.parent.id) : undefined;
      const key = stringValue(parent.childForFieldName('key'), ctx.text);
      if (outer && key !== undefined) path = `${outer.path}.${key}`;
    } else if (parent?.type === 'assignment' && parent.childForFieldName('right')?.id === node.id) {
      const left = parent.childForFieldName('left');
      if (left?.type === 'identifier' || left?.type === 'attribute') path = compact(left);
    }
    const info: DictInfo = {
      node, scope, group: `dict@${node.startIndex}`, path,
      entries: new Map(), nested: new Map(), deepEntries: new Map(), splats: [], used: false,
    };
    ctx.dicts.set(node.id, info);
    if (parent?.type === 'pair') {
      const outer = parent.parent ? ctx.dicts.get(parent.parent.id) : undefined;
      const key = stringValue(parent.childForFieldName('key'), ctx.text);
      if (outer && key !== undefined) outer.nested.set(key, info);
    }
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
        key, path: `${path}.${key}`, kind: 'dictEntry', keyRange: rangeOf(keyNode), statementRange: rangeOf(child), group: info.group,
      }, valueNode);
      info.entries.set(key, setting);
    }
  }
}

/** The call a keyword argument belongs to, also inside an ERROR node (`f(a=1` without `)`). */
function calleeOfKwarg(kwarg: SyntaxNode): SyntaxNode | undefined {
  const parent = kwarg.parent;
  if (parent?.type === 'argument_list') return parent.parent?.childForFieldName('function') ?? undefined;
  if (parent?.type !== 'ERROR') return undefined;
  for (let s = kwarg.previousSibling; s; s = s.previousSibling) {
    if (s.type !== '(') continue;
    const fn = s.previousSibling;
    return fn && (fn.type === 'identifier' || fn.type === 'attribute') ? fn : undefined;
  }
  return undefined;
}

/** Every keyword argument → a `kwarg` setting (`group` = `call@<call start>`). */
export function readKwargs(ctx: PyContext): void {
  for (const { node } of ctx.collected.kwargs) {
    const name = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    const fn = calleeOfKwarg(node);
    if (!name || !value || !fn || name.type !== 'identifier') continue;
    const callee = compact(fn);
    const env = envOfValue(value, ctx.text);
    const setting = addSetting(ctx, {
      key: name.text, path: `${callee}.${name.text}`, kind: 'kwarg', keyRange: rangeOf(name), statementRange: rangeOf(node),
      group: `call@${fn.startIndex}`, callee, envName: env?.name,
    }, value);
    ctx.kwargs.set(node.id, setting);
  }
}

function bindTarget(ctx: PyContext, left: SyntaxNode, right: SyntaxNode, assignment: SyntaxNode, scope: Scope): void {
  const name = compact(left);
  const offset = assignment.startIndex;
  const dict = right.type === 'dictionary' ? ctx.dicts.get(right.id) : undefined;
  const env = envOfValue(right, ctx.text);
  const lit = literalOf(right, ctx.text);
  if (!dict && !env && lit.valueType === 'dynamic') {
    ctx.symbols.bind(scope, name, offset, { kind: 'other' });
    return;
  }
  const key = left.type === 'attribute' ? left.childForFieldName('attribute')?.text ?? name : name;
  const setting = addSetting(ctx, {
    key, path: name, kind: 'assignment', keyRange: rangeOf(left), statementRange: rangeOf(assignment), group: scope.key, envName: env?.name,
  }, right);
  if (name !== '__proto__') putRecord(ctx.out.bindings, name, setting);
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

function groupOfStatement(statement: SyntaxNode, scope: Scope): string {
  const kwarg = statement.parent;
  if (kwarg?.type === 'keyword_argument' && kwarg.parent?.type === 'argument_list') {
    const fn = kwarg.parent.parent?.childForFieldName('function');
    if (fn) return `call@${fn.startIndex}`;
  }
  return scope.key;
}

/** Env reads (`EnvRead` + `envDefault` settings) and `os.environ.setdefault("K", "v")` writes. */
export function readEnv(ctx: PyContext): void {
  const candidates = [...ctx.collected.calls, ...ctx.collected.subscripts].sort((a, b) => a.node.startIndex - b.node.startIndex);
  for (const { node, scope } of candidates) {
    if (node.type === 'call' && compact(node.childForFieldName('function')).match(/^(os\.)?environ\.setdefault$/)) {
      const [nameNode, valueNode] = callArguments(node).positional;
      const name = stringValue(nameNode, ctx.text);
      if (name && valueNode) addSetting(ctx, { key: name, path: name, kind: 'env', keyRange: rangeOf(nameNode), statementRange: rangeOf(node), group: scope.key }, valueNode);
      continue;
    }
    const read = envReadOf(node, ctx.text);
    if (!read) continue;
    const def = read.defaultNode ? literalOf(read.defaultNode, ctx.text) : undefined;
    ctx.out.envReads.push({ name: read.name, range: rangeOf(node), ...(def?.value !== undefined ? { defaultValue: def.value } : {}) });
    if (read.defaultNode && def?.value !== undefined) {
      addSetting(ctx, {
        key: read.name, path: read.name, kind: 'envDefault', keyRange: rangeOf(read.nameNode), statementRange: rangeOf(read.statement),
        group: groupOfStatement(read.statement, scope), envName: read.name,
      }, read.defaultNode);
    }
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
