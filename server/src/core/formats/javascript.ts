import type { Language } from 'web-tree-sitter';
import { BudgetExceeded } from '../budget';
import { emptyExtraction, type Consumer, type ConsumerId, type Extraction, type SdkCall } from '../model/types';
import { SDK_METHODS } from './python/sdk-calls';
import { joinedConsumer } from './joins';
import { shortVia } from './python/evidence';
import { nodeRange, parseWith, snapshotOf, type SyntaxNode } from './treesitter';

/**
 * JavaScript/TypeScript files are read for where they read the environment (`process.env.X`,
 * `process.env["X"]`, `const { X } = process.env`), which client the value flows into, and which SDK calls
 * those clients make (`client.completions.create`: path and method of each request). Their own literals
 * are not linted, so nothing here becomes a `Setting`.
 */

/** Files above this size, or whose lines average over `MINIFIED_LINE` characters, are bundles or generated code: not read. */
const MAX_SOURCE_CHARS = 1_000_000;
const MINIFIED_LINE = 400;

/** Constructors whose `baseURL` option is joined the openai-node way (`buildURL`: base + `/chat/completions`, one `/` kept; openai@6 `client.js`) or the Anthropic SDK way (base + `/v1/messages`). */
const CLIENTS: Record<string, Extract<ConsumerId, 'openai-sdk' | 'anthropic'>> = { OpenAI: 'openai-sdk', AzureOpenAI: 'openai-sdk', Anthropic: 'anthropic' };

/** Wrappers that leave the value as it is: `(x)`, `x!`, `x as string`, `x satisfies T`, `<string>x`. */
const TRANSPARENT = new Set(['parenthesized_expression', 'non_null_expression', 'as_expression', 'satisfies_expression', 'type_assertion']);

const NODE_TYPES = ['member_expression', 'subscript_expression', 'variable_declarator', 'assignment_expression', 'formal_parameters', 'arrow_function', 'template_string', 'binary_expression', 'new_expression', 'call_expression', 'comment'];
const NODE_TYPE_SET = new Set(NODE_TYPES);

/** The identifier a parameter declares (`x`, `x = 1`, TS `x: string`, `x?: string`), else `undefined`. */
function parameterName(node: SyntaxNode | null): string | undefined {
  if (!node) return undefined;
  if (node.type === 'identifier') return node.text;
  const target = node.childForFieldName('pattern') ?? node.childForFieldName('left');
  return target?.type === 'identifier' ? target.text : target?.type === 'assignment_pattern' ? parameterName(target) : undefined;
}

/** Whether `text` looks like generated code (a bundle, a minified file) rather than source a person keeps. */
export function isGeneratedSource(text: string): boolean {
  if (text.length > MAX_SOURCE_CHARS) return true;
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return text.length / lines > MINIFIED_LINE;
}

function inner(node: SyntaxNode): SyntaxNode {
  let n = node;
  for (let guard = 0; TRANSPARENT.has(n.type) && guard < 50; guard++) {
    const next = n.namedChildren.find((c) => c !== null && c.type !== 'comment' && !/type/.test(c.type));
    if (!next) break;
    n = next;
  }
  return n;
}

/** `process.env` (also `process?.env`, `globalThis.process.env`), seen through wrappers. */
function isProcessEnv(node: SyntaxNode | null): boolean {
  if (!node) return false;
  const n = inner(node);
  return n.type === 'member_expression' && n.endIndex - n.startIndex < 40 && /^(globalThis\??\.)?process\??\.env$/.test(n.text.replace(/\s+/g, ''));
}

/** The value of a plain string literal (`"x"`, `'x'`, a template without substitutions), else `undefined`. */
function stringValue(node: SyntaxNode | null | undefined): string | undefined {
  if (!node) return undefined;
  const n = inner(node);
  if ((n.type !== 'string' && n.type !== 'template_string') || n.namedChildren.some((c) => c?.type !== 'string_fragment')) return undefined;
  return n.text.slice(1, -1);
}

/** The variable a `process.env.X` / `process.env["X"]` node reads, else `undefined`. */
function envNameOf(node: SyntaxNode): string | undefined {
  if (!isProcessEnv(node.childForFieldName('object'))) return undefined;
  if (node.type === 'member_expression') {
    const property = node.childForFieldName('property');
    return property?.type === 'property_identifier' ? property.text : undefined;
  }
  const name = stringValue(node.childForFieldName('index'));
  return name && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : undefined;
}

/** The parent of `node` seen through wrappers, and the node that is its child. */
function outer(node: SyntaxNode): { parent: SyntaxNode | null; child: SyntaxNode } {
  let child = node;
  let parent = node.parent;
  while (parent && TRANSPARENT.has(parent.type)) {
    child = parent;
    parent = parent.parent;
  }
  return { parent, child };
}

/** `read ?? "d"` / `read || "d"`: the literal default after a read. */
function defaultAfter(node: SyntaxNode): string | undefined {
  const { parent, child } = outer(node);
  if (parent?.type !== 'binary_expression' || parent.childForFieldName('left')?.id !== child.id) return undefined;
  const op = parent.childForFieldName('operator')?.type;
  return op === '??' || op === '||' ? stringValue(parent.childForFieldName('right')) : undefined;
}

/** Whether `node` is written to (`process.env.X = v`, `process.env.X ??= v`), which sets rather than reads. */
function isAssigned(node: SyntaxNode): boolean {
  const { parent, child } = outer(node);
  return (parent?.type === 'assignment_expression' || parent?.type === 'augmented_assignment_expression') && parent.childForFieldName('left')?.id === child.id;
}

interface Walk {
  text: string;
  out: Extraction;
  /** Local names bound to an env read (`const base = process.env.X`, `const { X } = process.env`); `null` when bound more than once. */
  bindings: Map<string, string | null>;
}

function bind(walk: Walk, local: string, env: string | undefined): void {
  const before = walk.bindings.get(local);
  walk.bindings.set(local, env !== undefined && (before === undefined || before === env) ? env : null);
}

/** The env variable an expression's value is (a read, a bound name, `read ?? "d"`, `read.trim()`, `String(read)`), else `undefined`. */
function envTarget(walk: Walk, expr: SyntaxNode | null | undefined): string | undefined {
  let node = expr ? inner(expr) : undefined;
  for (let guard = 0; node && guard < 50; guard++, node = node && inner(node)) {
    switch (node.type) {
      case 'member_expression':
      case 'subscript_expression':
        return envNameOf(node);
      case 'identifier':
      case 'shorthand_property_identifier':
        return walk.bindings.get(node.text) ?? undefined;
      case 'binary_expression': {
        const op = node.childForFieldName('operator')?.type;
        node = op === '??' || op === '||' ? node.childForFieldName('left') ?? undefined : undefined;
        break;
      }
      case 'call_expression': {
        const fn = node.childForFieldName('function');
        const args = node.childForFieldName('arguments')?.namedChildren.filter((c) => c?.type !== 'comment') ?? [];
        if (fn?.type === 'member_expression' && fn.childForFieldName('property')?.text === 'trim' && args.length === 0) node = fn.childForFieldName('object') ?? undefined;
        else if (fn?.type === 'identifier' && fn.text === 'String' && args.length === 1) node = args[0] ?? undefined;
        else return undefined;
        break;
      }
      case 'template_string': {
        const parts = node.namedChildren;
        const only = parts.length === 1 && parts[0]?.type === 'template_substitution' && parts[0].startIndex === node.startIndex + 1 && parts[0].endIndex === node.endIndex - 1;
        node = only ? parts[0]!.namedChild(0) ?? undefined : undefined;
        break;
      }
      default:
        return undefined;
    }
  }
  return undefined;
}

function evidence(walk: Walk, env: string | undefined, consumer: Consumer | undefined, node: SyntaxNode): void {
  if (env && consumer) walk.out.consumerEvidence.push({ target: `env:${env}`, consumer, range: nodeRange(node) });
}

/** `` `${base}/v1/chat/completions` ``: the literal text after a leading substitution, up to the next one. */
function templateJoin(walk: Walk, node: SyntaxNode): void {
  const parts = node.namedChildren;
  const first = parts[0];
  if (first?.type !== 'template_substitution' || first.startIndex !== node.startIndex + 1) return;
  const next = parts.find((p, i) => i > 0 && p?.type === 'template_substitution');
  const appended = walk.text.slice(first.endIndex, next ? next.startIndex : node.endIndex - 1);
  evidence(walk, envTarget(walk, first.namedChild(0)), joinedConsumer(appended, shortVia(node.text)), node);
}

/** `base + "/v1/chat/completions"` (the outermost `+` of a chain): the literal operands after the base. */
function plusJoin(walk: Walk, node: SyntaxNode): void {
  const { parent, child } = outer(node);
  if (parent?.type === 'binary_expression' && parent.childForFieldName('operator')?.type === '+' && parent.childForFieldName('left')?.id === child.id) return;
  const operands: SyntaxNode[] = [];
  let cur: SyntaxNode | null = node;
  while (cur?.type === 'binary_expression' && cur.childForFieldName('operator')?.type === '+') {
    const right = cur.childForFieldName('right');
    if (!right) return;
    operands.unshift(right);
    cur = cur.childForFieldName('left');
  }
  let appended = '';
  for (const operand of operands) {
    const literal = stringValue(operand);
    if (literal === undefined) break;
    appended += literal;
  }
  if (cur && appended) evidence(walk, envTarget(walk, cur), joinedConsumer(appended, shortVia(node.text)), node);
}

/** `new OpenAI({ baseURL: process.env.X })`, `new Anthropic({ baseURL })`. */
function clientJoin(walk: Walk, node: SyntaxNode): void {
  const ctor = node.childForFieldName('constructor');
  const name = ctor?.type === 'identifier' ? ctor.text : ctor?.type === 'member_expression' ? ctor.childForFieldName('property')?.text : undefined;
  const id = name !== undefined && Object.hasOwn(CLIENTS, name) ? CLIENTS[name] : undefined;
  const options = node.childForFieldName('arguments')?.namedChildren.find((c) => c?.type !== 'comment');
  if (!id || !options || inner(options).type !== 'object') return;
  for (const member of inner(options).namedChildren) {
    if (!member) continue;
    const via = `new ${name}({ baseURL })`;
    if (member.type === 'shorthand_property_identifier' && member.text === 'baseURL') evidence(walk, envTarget(walk, member), { id, via }, member);
    if (member.type !== 'pair') continue;
    const key = member.childForFieldName('key');
    if ((key?.type === 'property_identifier' ? key.text : stringValue(key)) === 'baseURL') evidence(walk, envTarget(walk, member.childForFieldName('value')), { id, via }, member);
  }
}

/** A client construction (`const client = new OpenAI({ baseURL })`) and the name it is bound to. */
interface JsClient {
  target: string;
  start: number;
  family: SdkCall['family'];
  hasBase: boolean;
  baseRange?: { start: number; end: number };
}

/**
 * `new OpenAI({…})` / `new Anthropic({…})` bound to a name (`const client = …`, `this.client = …`): whether
 * it passes `baseURL` (options that are not an object literal may: counted as passing one, with no range).
 */
function jsClient(node: SyntaxNode): JsClient | undefined {
  const ctor = node.childForFieldName('constructor');
  const name = ctor?.type === 'identifier' ? ctor.text : ctor?.type === 'member_expression' ? ctor.childForFieldName('property')?.text : undefined;
  const id = name !== undefined && Object.hasOwn(CLIENTS, name) ? CLIENTS[name] : undefined;
  if (!id) return undefined;
  let { parent } = outer(node);
  if (parent?.type === 'await_expression') parent = outer(parent).parent;
  const left = parent?.type === 'variable_declarator' ? parent.childForFieldName('name') : parent?.type === 'assignment_expression' ? parent.childForFieldName('left') : null;
  if (!left || (left.type !== 'identifier' && left.type !== 'member_expression')) return undefined;
  const options = node.childForFieldName('arguments')?.namedChildren.find((c) => c?.type !== 'comment');
  const family = id === 'anthropic' ? 'anthropic' : 'openai';
  const client: JsClient = { target: left.text.replace(/\s+/g, ''), start: node.startIndex, family, hasBase: false };
  if (!options) return client;
  if (inner(options).type !== 'object') return { ...client, hasBase: true };
  for (const member of inner(options).namedChildren) {
    if (member?.type === 'shorthand_property_identifier' && member.text === 'baseURL') return { ...client, hasBase: true, baseRange: nodeRange(member) };
    if (member?.type === 'spread_element') return { ...client, hasBase: true };
    const key = member?.type === 'pair' ? member.childForFieldName('key') : null;
    const value = member?.childForFieldName('value');
    if (key && value && (key.type === 'property_identifier' ? key.text : stringValue(key)) === 'baseURL') return { ...client, hasBase: true, baseRange: nodeRange(value) };
  }
  return client;
}

/**
 * `client.chat.completions.create({ model: "m", … })` and the other SDK methods (`SDK_METHODS`, the same
 * resource paths in openai-node 7.59.0 and anthropic-node 1.15.0, recorded by test/conformance) on a client
 * constructed in the file: `clients` holds the latest construction bound to each name (`<family> <name>`).
 */
function jsSdkCall(node: SyntaxNode, clients: ReadonlyMap<string, JsClient>): SdkCall | undefined {
  const fn = node.childForFieldName('function');
  if (fn?.type !== 'member_expression') return undefined;
  const callee = fn.text.replace(/\s+/g, '').replace(/\?\./g, '.');
  const m = SDK_METHODS.find((x) => x.re.test(callee));
  if (!m) return undefined;
  const receiver = m.re.exec(callee)![1];
  const client = clients.get(`${m.family} ${receiver}`);
  const first = node.childForFieldName('arguments')?.namedChildren.find((c) => c?.type !== 'comment');
  let model: string | undefined;
  for (const member of first && inner(first).type === 'object' ? inner(first).namedChildren : []) {
    const key = member?.type === 'pair' ? member.childForFieldName('key') : null;
    if (key && (key.type === 'property_identifier' ? key.text : stringValue(key)) === 'model') model = stringValue(member!.childForFieldName('value'));
  }
  return {
    family: m.family, method: m.method, path: m.path, callee, range: nodeRange(node),
    ...(client ? { clientGroup: `new@${client.start}`, clientHasBaseUrl: client.hasBase, ...(client.baseRange ? { clientBaseRange: client.baseRange } : {}) } : {}),
    ...(model !== undefined ? { model } : {}),
  };
}

/** `const { A, B: b, C = "d" } = process.env`: one read per property, and the local names bound. */
function destructured(walk: Walk, pattern: SyntaxNode): void {
  for (const member of pattern.namedChildren) {
    if (!member) continue;
    let key: SyntaxNode | null = null;
    let local: SyntaxNode | null = null;
    let fallback: SyntaxNode | null = null;
    if (member.type === 'shorthand_property_identifier_pattern') key = local = member;
    else if (member.type === 'object_assignment_pattern') {
      key = local = member.childForFieldName('left');
      fallback = member.childForFieldName('right');
    } else if (member.type === 'pair_pattern') {
      key = member.childForFieldName('key');
      const value = member.childForFieldName('value');
      if (value?.type === 'assignment_pattern') {
        local = value.childForFieldName('left');
        fallback = value.childForFieldName('right');
      } else local = value;
    }
    const name = key?.type === 'property_identifier' || key?.type === 'shorthand_property_identifier_pattern' ? key.text : stringValue(key);
    if (!key || !name || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
    const defaultValue = stringValue(fallback);
    walk.out.envReads.push({ name, range: nodeRange(key), ...(defaultValue !== undefined ? { defaultValue } : {}) });
    if (local?.type === 'identifier' || local?.type === 'shorthand_property_identifier_pattern') bind(walk, local.text, name);
  }
}

/**
 * Extracts env reads (`process.env.X`, `process.env["X"]`, `process.env?.X`, destructuring from
 * `process.env`, with a literal `?? "d"` / `|| "d"` / `= "d"` default), the consumer evidence of
 * their values (`new OpenAI({ baseURL })`, `` `${base}/v1/chat/completions` ``, `base + "/v1/…"`,
 * through `const base = process.env.X`) and comments (for suppression directives) from JavaScript or
 * TypeScript source, parsed with the tree-sitter grammar `language` (javascript, typescript or tsx).
 * Offsets are UTF-16 into `text`. Generated code (`isGeneratedSource`) yields nothing. Never throws
 * except `BudgetExceeded`; a syntax error only hides what it covers (no parse problems are reported:
 * these files are not linted for their own content).
 */
export function extractJavaScript(text: string, language: Language): Extraction {
  const out = emptyExtraction();
  if (isGeneratedSource(text)) return out;
  let tree;
  try {
    tree = parseWith(language, text);
    // The nodes of interest in document order, from the tree's plain-JS snapshot (no wasm calls per node).
    const snapshot = snapshotOf(tree, text);
    const nodes: SyntaxNode[] = [];
    for (let i = 0; i < snapshot.size; i++) if (NODE_TYPE_SET.has(snapshot.typeOf(i)) && snapshot.endOf(i) !== 0) nodes.push(snapshot.node(i));
    const walk: Walk = { text, out, bindings: new Map() };
    // The latest construction bound to each name, by family (nodes come in document order).
    const clients = new Map<string, JsClient>();
    // Bindings first (a name may be used above its declaration, inside a function).
    for (const node of nodes) {
      if (node.type === 'variable_declarator') {
        const name = node.childForFieldName('name');
        const value = node.childForFieldName('value');
        if (name?.type === 'object_pattern' && isProcessEnv(value)) destructured(walk, name);
        else if (name?.type === 'identifier') bind(walk, name.text, value ? envTarget(walk, value) : undefined);
      } else if (node.type === 'assignment_expression') {
        const left = node.childForFieldName('left');
        if (left?.type === 'identifier') bind(walk, left.text, undefined);
      } else if (node.type === 'formal_parameters') {
        // a parameter of the same name elsewhere is another value: the name no longer says which
        for (const p of node.namedChildren) {
          const name = parameterName(p);
          if (name) bind(walk, name, undefined);
        }
      } else if (node.type === 'arrow_function') {
        const name = parameterName(node.childForFieldName('parameter'));
        if (name) bind(walk, name, undefined);
      }
    }
    for (const node of nodes) {
      switch (node.type) {
        case 'comment':
          out.comments.push({ text: node.text, range: nodeRange(node) });
          break;
        case 'member_expression':
        case 'subscript_expression': {
          const name = envNameOf(node);
          if (!name || isAssigned(node)) break;
          const defaultValue = defaultAfter(node);
          out.envReads.push({ name, range: nodeRange(node), ...(defaultValue !== undefined ? { defaultValue } : {}) });
          break;
        }
        case 'template_string':
          templateJoin(walk, node);
          break;
        case 'binary_expression':
          if (node.childForFieldName('operator')?.type === '+') plusJoin(walk, node);
          break;
        case 'new_expression': {
          clientJoin(walk, node);
          const client = jsClient(node);
          if (client) clients.set(`${client.family} ${client.target}`, client);
          break;
        }
        case 'call_expression': {
          const call = jsSdkCall(node, clients);
          if (call) (out.sdkCalls ??= []).push(call);
          break;
        }
      }
    }
    out.envReads.sort((a, b) => a.range.start - b.range.start);
    out.consumerEvidence.sort((a, b) => a.range.start - b.range.start);
  } catch (error) {
    if (error instanceof BudgetExceeded) throw error;
    return emptyExtraction();
  } finally {
    tree?.delete();
  }
  return out;
}
