import type { Tree } from 'web-tree-sitter';
import type { Comment, ParseProblem } from '../../model/types';
import type { SyntaxNode } from '../treesitter';

/** A Python name scope: the module, a `def` or a `class`. */
export interface Scope {
  /** `scope@<offset>`: offset 0 for the module, else the start of the `def`/`class` node. */
  key: string;
  kind: 'module' | 'function' | 'class';
  /** Function or class name; `''` for the module. */
  name: string;
  /** Start offset of the scope node (0 for the module). */
  start: number;
  parent?: Scope;
}

/** A syntax node with the innermost scope it sits in. */
export interface Located {
  node: SyntaxNode;
  scope: Scope;
}

/** The nodes the Python extractor looks at, gathered in one pass in document order. */
export interface Collected {
  calls: Located[];
  kwargs: Located[];
  dicts: Located[];
  assignments: Located[];
  fstrings: Located[];
  binaryOps: Located[];
  subscripts: Located[];
  /** Attribute reads of `.logprobs` / `.meta_info`. */
  attributeReads: Located[];
  /** `for x in …` statements and `with … as x` patterns (they bind names). */
  binders: Located[];
  imports: SyntaxNode[];
  /** Outermost ERROR nodes that stand for a whole statement (children of the module or a block). */
  statementErrors: SyntaxNode[];
  comments: Comment[];
  problems: ParseProblem[];
}

const MAX_PROBLEMS = 100;
const READ_ATTRIBUTES = new Set(['logprobs', 'meta_info']);

/** The scope and the scopes enclosing it, innermost first. */
export function scopeChain(scope: Scope): Scope[] {
  const out: Scope[] = [];
  for (let s: Scope | undefined = scope; s; s = s.parent) out.push(s);
  return out;
}

function lineEnd(text: string, from: number, limit: number): number {
  const nl = text.indexOf('\n', from);
  const end = nl < 0 || nl > limit ? limit : nl;
  return end > from && text[end - 1] === '\r' ? end - 1 : end;
}

function errorProblem(node: SyntaxNode, text: string): ParseProblem {
  const opener = node.children.find((c) => c?.type === 'string_start');
  const closed = node.children.some((c) => c?.type === 'string_end');
  if (opener && !closed) {
    const start = opener.startIndex;
    return { message: 'Python syntax error: unterminated string literal', range: { start, end: Math.max(lineEnd(text, start, text.length), opener.endIndex) } };
  }
  const start = node.startIndex;
  const end = Math.max(lineEnd(text, start, node.endIndex), Math.min(node.endIndex, start + 1));
  const near = text.slice(start, end).trim().slice(0, 30);
  return { message: near ? `Python syntax error near "${near}"` : 'Python syntax error', range: { start, end } };
}

/**
 * Walks the whole tree once with a cursor (no recursion, so deep nesting cannot overflow the stack),
 * recording the nodes the extractor needs with their scope, every `#` comment (without a trailing
 * `\r`), and a problem for each outermost ERROR node and each MISSING node outside one.
 */
export function collect(tree: Tree, text: string): Collected {
  const out: Collected = {
    calls: [], kwargs: [], dicts: [], assignments: [], fstrings: [], binaryOps: [], subscripts: [],
    attributeReads: [], binders: [], imports: [], statementErrors: [], comments: [], problems: [],
  };
  const module: Scope = { key: 'scope@0', kind: 'module', name: '', start: 0 };
  const stack: { scope: Scope; depth: number }[] = [];
  let errorEnd = -1;
  const cursor = tree.walk();
  let depth = 0;
  try {
    for (;;) {
      while (stack.length > 0 && stack[stack.length - 1].depth >= depth) stack.pop();
      const scope = stack.length > 0 ? stack[stack.length - 1].scope : module;
      const type = cursor.nodeType;
      const at = (list: Located[]) => list.push({ node: cursor.currentNode, scope });
      switch (type) {
        case 'call': at(out.calls); break;
        case 'keyword_argument': at(out.kwargs); break;
        case 'dictionary': at(out.dicts); break;
        case 'assignment': at(out.assignments); break;
        case 'binary_operator': at(out.binaryOps); break;
        case 'subscript': at(out.subscripts); break;
        case 'for_statement':
        case 'as_pattern': at(out.binders); break;
        case 'import_from_statement': out.imports.push(cursor.currentNode); break;
        case 'string_start':
          if (/f/i.test(cursor.nodeText)) {
            const str = cursor.currentNode.parent;
            if (str?.type === 'string') out.fstrings.push({ node: str, scope });
          }
          break;
        case 'attribute': {
          const node = cursor.currentNode;
          if (READ_ATTRIBUTES.has(node.childForFieldName('attribute')?.text ?? '')) out.attributeReads.push({ node, scope });
          break;
        }
        case 'comment': {
          const start = cursor.startIndex;
          let end = cursor.endIndex;
          while (end > start && (text[end - 1] === '\r' || text[end - 1] === '\n')) end--;
          out.comments.push({ text: text.slice(start, end), range: { start, end } });
          break;
        }
        case 'function_definition':
        case 'class_definition': {
          const node = cursor.currentNode;
          const start = node.startIndex;
          stack.push({
            depth,
            scope: { key: `scope@${start}`, kind: type === 'class_definition' ? 'class' : 'function', name: node.childForFieldName('name')?.text ?? '', start, parent: scope },
          });
          break;
        }
      }
      if (out.problems.length < MAX_PROBLEMS && cursor.startIndex >= errorEnd) {
        if (type === 'ERROR') {
          const node = cursor.currentNode;
          out.problems.push(errorProblem(node, text));
          errorEnd = Math.max(node.endIndex, node.startIndex + 1);
          const parentType = node.parent?.type;
          if (depth === 0 || parentType === 'module' || parentType === 'block') out.statementErrors.push(node);
        } else if (cursor.nodeIsMissing) {
          const offset = cursor.startIndex;
          out.problems.push({ message: `Python syntax error: missing "${type}"`, range: { start: offset, end: offset } });
        }
      }
      if (cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return out;
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}
