import type { SyntaxNode } from '../treesitter';
import { literalOf, stringValue } from './literals';

/** One environment read found in code: `os.getenv("K", "d")`, `os.environ.get("K")`, `os.environ["K"]`. */
export interface EnvReadNode {
  name: string;
  /** The string literal naming the variable. */
  nameNode: SyntaxNode;
  /** The call or subscript. */
  node: SyntaxNode;
  /** The statement the read and its default form: the call, or `read or "default"`. */
  statement: SyntaxNode;
  /** A scalar literal default: the second argument, `default=`, or the right side of `or`. */
  defaultNode?: SyntaxNode;
}

const GETENV = new Set(['os.getenv', 'getenv', 'os.environ.get', 'environ.get']);
const ENVIRON = new Set(['os.environ', 'environ']);

/** Source text of an expression with whitespace removed (`client.chat\n  .completions` → `client.chat.completions`). */
export function compact(node: SyntaxNode | null | undefined): string {
  return node ? node.text.replace(/\s+/g, '') : '';
}

/** Argument nodes of a call without comments, split into positional and keyword arguments. */
export function callArguments(call: SyntaxNode): { positional: SyntaxNode[]; keywords: Map<string, SyntaxNode> } {
  const positional: SyntaxNode[] = [];
  const keywords = new Map<string, SyntaxNode>();
  const args = call.childForFieldName('arguments');
  if (!args || args.type !== 'argument_list') return { positional, keywords };
  for (const arg of args.namedChildren) {
    if (!arg || arg.type === 'comment') continue;
    if (arg.type === 'keyword_argument') {
      const name = arg.childForFieldName('name')?.text;
      const value = arg.childForFieldName('value');
      if (name && value) keywords.set(name, value);
    } else if (arg.type !== 'list_splat' && arg.type !== 'dictionary_splat') {
      positional.push(arg);
    }
  }
  return { positional, keywords };
}

/** True when `node` is the environ mapping itself (`os.environ` / `environ`). */
export function isEnviron(node: SyntaxNode | null | undefined): boolean {
  return ENVIRON.has(compact(node));
}

function isScalar(node: SyntaxNode, text: string): boolean {
  const t = literalOf(node, text).valueType;
  return t === 'string' || t === 'number' || t === 'boolean';
}

function skipParens(node: SyntaxNode): SyntaxNode {
  let n = node;
  while (n.parent?.type === 'parenthesized_expression') n = n.parent;
  return n;
}

function orDefault(node: SyntaxNode, text: string): { statement: SyntaxNode; defaultNode?: SyntaxNode } {
  const outer = skipParens(node);
  const parent = outer.parent;
  if (parent?.type === 'boolean_operator' && parent.childForFieldName('operator')?.type === 'or' && parent.childForFieldName('left')?.id === outer.id) {
    const right = parent.childForFieldName('right');
    if (right && isScalar(right, text)) return { statement: parent, defaultNode: right };
  }
  return { statement: node };
}

/** Recognises an environment read; `undefined` for anything else (including writes to `os.environ[…]`). */
export function envReadOf(node: SyntaxNode, text: string): EnvReadNode | undefined {
  if (node.type === 'call') {
    if (!GETENV.has(compact(node.childForFieldName('function')))) return undefined;
    const { positional, keywords } = callArguments(node);
    const nameNode = positional[0] ?? keywords.get('key');
    const name = stringValue(nameNode, text);
    if (!nameNode || !name) return undefined;
    const explicit = positional[1] ?? keywords.get('default');
    if (explicit) return { name, nameNode, node, statement: node, defaultNode: isScalar(explicit, text) ? explicit : undefined };
    return { name, nameNode, node, ...orDefault(node, text) };
  }
  if (node.type === 'subscript' && isEnviron(node.childForFieldName('value'))) {
    const parent = skipParens(node).parent;
    if (parent?.type === 'assignment' && parent.childForFieldName('left')?.id === node.id) return undefined;
    const nameNode = node.childForFieldName('subscript');
    const name = stringValue(nameNode, text);
    if (!nameNode || !name) return undefined;
    return { name, nameNode, node, ...orDefault(node, text) };
  }
  return undefined;
}

/** The env read a value expression is, also as `read or "default"`. */
export function envOfValue(node: SyntaxNode, text: string): EnvReadNode | undefined {
  if (node.type === 'boolean_operator' && node.childForFieldName('operator')?.type === 'or') {
    const left = node.childForFieldName('left');
    return left ? envReadOf(left, text) : undefined;
  }
  return envReadOf(node, text);
}

const PASS_THROUGH = new Set(['rstrip', 'strip', 'removesuffix', 'lstrip']);

/**
 * What a base-URL expression refers to, for ConsumerEvidence targets: a variable or attribute as
 * written (`BASE`, `self.base_url`), `env:NAME` for an environment read, seen through
 * `.rstrip("/")`-style calls, `str(…)`, parentheses and `read or "default"`. `undefined` otherwise.
 */
export function targetOf(expr: SyntaxNode | null | undefined, text: string): string | undefined {
  let node = expr;
  for (let guard = 0; node && guard < 50; guard++) {
    switch (node.type) {
      case 'identifier':
      case 'attribute':
        return compact(node);
      case 'subscript': {
        const env = envReadOf(node, text);
        return env ? `env:${env.name}` : compact(node);
      }
      case 'parenthesized_expression':
        node = node.namedChild(0);
        break;
      case 'boolean_operator':
        node = node.childForFieldName('operator')?.type === 'or' ? node.childForFieldName('left') : null;
        break;
      case 'call': {
        const env = envReadOf(node, text);
        if (env) return `env:${env.name}`;
        const fn = node.childForFieldName('function');
        if (fn?.type === 'attribute' && PASS_THROUGH.has(fn.childForFieldName('attribute')?.text ?? '')) {
          node = fn.childForFieldName('object');
        } else if (fn?.type === 'identifier' && fn.text === 'str') {
          node = callArguments(node).positional[0];
        } else {
          return undefined;
        }
        break;
      }
      default:
        return undefined;
    }
  }
  return undefined;
}
