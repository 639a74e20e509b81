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
  parent?: Scope;
}

/** A syntax node with the innermost scope it sits in. */
export interface Located {
  node: SyntaxNode;
  scope: Scope;
}

/** The nodes the Python extractor looks at, each list in document order. */
export interface Collected {
  calls: Located[];
  kwargs: Located[];
  dicts: Located[];
  assignments: Located[];
  /** f-strings with at least one interpolation. */
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

/** Problems for outermost ERROR nodes and for MISSING tokens outside them (searched only where the tree has errors). */
function problems(tree: Tree, text: string, out: Collected): void {
  const root = tree.rootNode;
  if (!root.hasError) return;
  let errorEnd = -1;
  for (const node of root.descendantsOfType('ERROR')) {
    if (out.problems.length >= MAX_PROBLEMS) break;
    if (node.startIndex < errorEnd) continue;
    out.problems.push(errorProblem(node, text));
    errorEnd = Math.max(node.endIndex, node.startIndex + 1);
    const parentType = node.parent?.type;
    if (node.id === root.id || parentType === 'module' || parentType === 'block') out.statementErrors.push(node);
  }
  const reported = out.problems.map((p) => p.range);
  const cursor = tree.walk();
  try {
    let depth = 0;
    for (;;) {
      if (cursor.nodeIsMissing && out.problems.length < MAX_PROBLEMS) {
        const offset = cursor.startIndex;
        if (!reported.some((r) => r.start <= offset && offset < r.end)) {
          out.problems.push({ message: `Python syntax error: missing "${cursor.nodeType}"`, range: { start: offset, end: offset } });
        }
      }
      if (cursor.currentNode.hasError && cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (depth === 0 || !cursor.gotoParent()) return;
        depth--;
      }
    }
  } finally {
    cursor.delete();
    out.problems.sort((a, b) => a.range.start - b.range.start);
  }
}

interface Def {
  start: number;
  end: number;
  scope: Scope;
}

/** Gives each node (in document order) the innermost of `defs` (document order) that contains it. */
function locate(nodes: readonly SyntaxNode[], defs: readonly Def[], module: Scope): Located[] {
  const out: Located[] = [];
  const stack: Def[] = [];
  let d = 0;
  for (const node of nodes) {
    const at = node.startIndex;
    for (; d < defs.length && defs[d].start < at; d++) {
      while (stack.length > 0 && stack[stack.length - 1].end <= defs[d].start) stack.pop();
      stack.push(defs[d]);
    }
    while (stack.length > 0 && stack[stack.length - 1].end <= at) stack.pop();
    out.push({ node, scope: stack.length > 0 ? stack[stack.length - 1].scope : module });
  }
  return out;
}

const TYPES = [
  'call', 'keyword_argument', 'dictionary', 'assignment', 'interpolation', 'binary_operator', 'subscript',
  'for_statement', 'as_pattern', 'import_from_statement', 'comment', 'function_definition', 'class_definition',
];

/**
 * Gathers the nodes the extractor needs with their scope, every `#` comment (without a trailing `\r`)
 * and parse problems. One `descendantsOfType` pass inside the parser finds the candidates in document
 * order (far cheaper than visiting every node from JavaScript, and no recursion, so deep nesting is
 * safe); a stack of enclosing `def`/`class` ranges gives each its scope.
 */
export function collect(tree: Tree, text: string): Collected {
  const root = tree.rootNode;
  const module: Scope = { key: 'scope@0', kind: 'module', name: '' };
  const out: Collected = {
    calls: [], kwargs: [], dicts: [], assignments: [], fstrings: [], binaryOps: [], subscripts: [],
    attributeReads: [], binders: [], imports: [], statementErrors: [], comments: [], problems: [],
  };
  const stack: Def[] = [];
  const defs: Def[] = [];
  let lastFstring = -1;
  for (const node of root.descendantsOfType(TYPES)) {
    if (!node) continue;
    const start = node.startIndex;
    while (stack.length > 0 && stack[stack.length - 1].end <= start) stack.pop();
    const scope = stack.length > 0 ? stack[stack.length - 1].scope : module;
    const type = node.type;
    switch (type) {
      case 'call': out.calls.push({ node, scope }); break;
      case 'keyword_argument': out.kwargs.push({ node, scope }); break;
      case 'dictionary': out.dicts.push({ node, scope }); break;
      case 'assignment': out.assignments.push({ node, scope }); break;
      case 'binary_operator': out.binaryOps.push({ node, scope }); break;
      case 'subscript': out.subscripts.push({ node, scope }); break;
      case 'for_statement':
      case 'as_pattern': out.binders.push({ node, scope }); break;
      case 'import_from_statement': out.imports.push(node); break;
      case 'interpolation': {
        const str = node.parent;
        if (str?.type === 'string' && str.id !== lastFstring) {
          lastFstring = str.id;
          out.fstrings.push({ node: str, scope });
        }
        break;
      }
      case 'comment': {
        let end = node.endIndex;
        while (end > start && (text[end - 1] === '\r' || text[end - 1] === '\n')) end--;
        out.comments.push({ text: text.slice(start, end), range: { start, end } });
        break;
      }
      case 'function_definition':
      case 'class_definition': {
        const name = node.childForFieldName('name')?.text ?? '';
        const kind = type === 'class_definition' ? 'class' : 'function';
        const def = { start, end: node.endIndex, scope: { key: `scope@${start}`, kind, name, parent: scope } } satisfies Def;
        stack.push(def);
        defs.push(def);
        break;
      }
    }
  }
  const reads: SyntaxNode[] = [];
  for (const m of text.matchAll(/\.\s*(logprobs|meta_info)\b/g)) {
    const name = root.descendantForIndex(m.index + m[0].length - 1);
    const attribute = name?.type === 'identifier' ? name.parent : null;
    if (attribute?.type === 'attribute' && attribute.childForFieldName('attribute')?.id === name?.id) reads.push(attribute);
  }
  out.attributeReads = locate(reads, defs, module);
  problems(tree, text, out);
  return out;
}
