import type { SyntaxNode } from '../treesitter';
import { literalOf, stringValue } from './literals';

/** One environment read found in code: `os.getenv("K", "d")`, `os.environ.get("K")`, `os.environ["K"]`. */
export interface EnvReadNode {
  name: string;
  /** The string literal naming the variable. */
  nameNode: SyntaxNode;
  /** The call or subscript. */
  node: SyntaxNode;
  /** A scalar literal default given as the second argument or `default=`. */
  defaultNode?: SyntaxNode;
}

const GETENV = new Set(['os.getenv', 'getenv', 'os.environ.get', 'environ.get']);
const ENVIRON = new Set(['os.environ', 'environ']);

/** Longest expression `compact` spells out: every callee and name it is compared with is far shorter. */
const MAX_COMPACT = 512;

/**
 * Source text of an expression with whitespace removed (`client.chat\n  .completions` →
 * `client.chat.completions`); `''` for expressions over 512 characters, so a chain `f()()()…` costs
 * linear time, not the square of its length.
 */
export function compact(node: SyntaxNode | null | undefined): string {
  return node && node.endIndex - node.startIndex <= MAX_COMPACT ? node.text.replace(/\s+/g, '') : '';
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

/** True for a string, number or boolean literal (a usable default). */
export function isScalar(node: SyntaxNode, text: string): boolean {
  const t = literalOf(node, text).valueType;
  return t === 'string' || t === 'number' || t === 'boolean';
}

/**
 * Recognises an environment read (`os.getenv("K"[, d])`, `os.environ.get("K"[, d])`, `os.environ["K"]`);
 * `undefined` for anything else. Looks only downwards, so it cannot tell a read `os.environ["K"]`
 * from the target of `os.environ["K"] = v`; callers skip assignment targets.
 */
export function envReadOf(node: SyntaxNode, text: string): EnvReadNode | undefined {
  if (node.type === 'call') {
    if (!GETENV.has(compact(node.childForFieldName('function')))) return undefined;
    const { positional, keywords } = callArguments(node);
    const nameNode = positional[0] ?? keywords.get('key');
    const name = stringValue(nameNode, text);
    if (!nameNode || !name) return undefined;
    const explicit = positional[1] ?? keywords.get('default');
    return { name, nameNode, node, defaultNode: explicit && isScalar(explicit, text) ? explicit : undefined };
  }
  if (node.type === 'subscript' && isEnviron(node.childForFieldName('value'))) {
    const nameNode = node.childForFieldName('subscript');
    const name = stringValue(nameNode, text);
    return nameNode && name ? { name, nameNode, node } : undefined;
  }
  return undefined;
}

/** The env read a value expression is, also as `read or "default"` and inside parentheses. */
export function envOfValue(node: SyntaxNode, text: string): EnvReadNode | undefined {
  const inner = unwrapParens(node);
  if (inner.type === 'boolean_operator' && inner.childForFieldName('operator')?.type === 'or') {
    const left = inner.childForFieldName('left');
    return left ? envReadOf(unwrapParens(left), text) : undefined;
  }
  return envReadOf(inner, text);
}

/** `(((x)))` → `x`. */
export function unwrapParens(node: SyntaxNode): SyntaxNode {
  let n = node;
  for (let inner = n.namedChild(0); n.type === 'parenthesized_expression' && inner && inner.type !== 'comment'; inner = n.namedChild(0)) n = inner;
  return n;
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
