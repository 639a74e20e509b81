import type { Tree } from 'web-tree-sitter';
import type { Comment, ParseProblem, Range } from '../../model/types';
import { snapshotOf, type SyntaxNode, type SyntaxTreeSnapshot } from '../treesitter';
import { spend } from '../../budget';

/** A Python name scope: the module, a `def` or a `class`. */
export interface Scope {
  /** `scope@<offset>`: offset 0 for the module, else the start of the `def`/`class` node. */
  key: string;
  kind: 'module' | 'function' | 'class';
  /** Function or class name; `''` for the module. */
  name: string;
  parent?: Scope;
  /** End offset (exclusive) of the `def`/`class` node; absent for the module. */
  end?: number;
}

/** A syntax node with the innermost scope it sits in. */
export interface Located {
  node: SyntaxNode;
  scope: Scope;
}

/** The nodes the Python extractor looks at, each list in document order. */
export interface Collected {
  calls: Located[];
  dicts: Located[];
  assignments: Located[];
  /** String literals whose prefix has `f`. */
  fstrings: Located[];
  binaryOps: Located[];
  /** `a or b` / `a and b` expressions. */
  booleanOps: Located[];
  subscripts: Located[];
  /** Attribute reads of `.logprobs` / `.meta_info`. */
  attributeReads: Located[];
  /** `for x in …` statements and `with … as x` patterns (they bind names). */
  binders: Located[];
  imports: SyntaxNode[];
  /** Outermost ERROR nodes. */
  errors: Located[];
  /** Outermost ERROR nodes that stand for a whole statement (children of the module or a block). */
  statementErrors: SyntaxNode[];
  comments: Comment[];
  problems: ParseProblem[];
}

const MAX_PROBLEMS = 100;
const CLOSING: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

function lineEnd(text: string, from: number, limit: number): number {
  const nl = text.indexOf('\n', from);
  const end = nl < 0 || nl > limit ? limit : nl;
  return end > from && text[end - 1] === '\r' ? end - 1 : end;
}

/**
 * The problem for one ERROR node. The message names a token kind or punctuation, never source text
 * (a broken line may hold an API key); the range is the error's first line.
 */
function errorProblem(node: SyntaxNode, text: string): ParseProblem {
  const opener = node.children.find((c) => c?.type === 'string_start');
  const closed = node.children.some((c) => c?.type === 'string_end');
  if (opener && !closed) {
    const start = opener.startIndex;
    return { message: 'Python syntax error: unterminated string literal', zh: 'Python 语法错误：字符串字面量没有结束', range: { start, end: Math.max(lineEnd(text, start, text.length), opener.endIndex) }, kind: 'syntax', hidden: { start: node.startIndex, end: text.length } };
  }
  const start = node.startIndex;
  const end = Math.max(lineEnd(text, start, node.endIndex), Math.min(node.endIndex, start + 1));
  const open: string[] = [];
  for (const child of node.children) {
    const type = child?.type ?? '';
    if (Object.hasOwn(CLOSING, type)) open.push(type);
    else if (open.length > 0 && CLOSING[open[open.length - 1]] === type) open.pop();
  }
  if (open.length > 0) return { message: `Python syntax error: "${open[0]}" was never closed`, zh: `Python 语法错误："${open[0]}" 没有闭合`, range: { start, end }, kind: 'syntax', hidden: { start: node.startIndex, end: text.length } };
  const first = node.child(0);
  const token = !first ? '' : first.isNamed ? first.type.replace(/_/g, ' ') : `"${first.type}"`;
  return { message: token ? `Python syntax error: unexpected ${token}` : 'Python syntax error', zh: token ? `Python 语法错误：意外的 ${token}` : 'Python 语法错误', range: { start, end }, kind: 'grammar', hidden: { start: node.startIndex, end: node.endIndex } };
}

/**
 * Problems for the outermost ERROR nodes and for MISSING tokens outside them (searched only where the
 * tree has errors, `hasError` of the tree-sitter root), in document order.
 */
function problems(hasError: boolean, snapshot: SyntaxTreeSnapshot, text: string, out: Collected): void {
  if (!hasError) return;
  const reported: Range[] = [];
  for (const { node } of out.errors.slice(0, MAX_PROBLEMS)) {
    out.problems.push(errorProblem(node, text));
    reported.push({ start: node.startIndex, end: node.endIndex });
    const parentType = node.id === 0 ? 'module' : node.parent?.type;
    if (parentType === 'module' || parentType === 'block') out.statementErrors.push(node);
  }
  if (out.problems.length >= MAX_PROBLEMS) return;
  for (let index = 0; index < snapshot.size && out.problems.length < MAX_PROBLEMS; index++) {
    if (!snapshot.isMissingAt(index)) continue;
    const node = snapshot.node(index);
    const offset = node.startIndex;
    if (reported.some((r) => r.start <= offset && offset < r.end)) continue;
    const parent = node.parent;
    out.problems.push({ message: `Python syntax error: missing "${node.type}"`, zh: `Python 语法错误：缺少 "${node.type}"`, range: { start: offset, end: offset }, kind: 'syntax', hidden: { start: parent?.startIndex ?? offset, end: parent?.endIndex ?? offset } });
  }
  out.problems.sort((a, b) => a.range.start - b.range.start);
}

interface Def {
  end: number;
  scope: Scope;
}

const TYPES = new Set([
  'call', 'dictionary', 'assignment', 'string', 'binary_operator', 'boolean_operator', 'subscript', 'attribute',
  'for_statement', 'as_pattern', 'import_from_statement', 'comment', 'function_definition', 'class_definition', 'ERROR',
]);

/**
 * Gathers the nodes the extractor needs with their scope, every `#` comment (without a trailing `\r`)
 * and parse problems from `tree` (parsed from `parseText`, which has `text`'s length). One pre-order
 * pass over the tree's snapshot (`snapshotOf`) finds the candidates in document order, and a stack of
 * enclosing `def`/`class` ranges gives each its scope. Only the tree's `hasError` is read from wasm.
 */
export function collect(tree: Tree, parseText: string, text: string): Collected {
  const hasError = tree.rootNode.hasError;
  const snapshot = snapshotOf(tree, parseText);
  const module: Scope = { key: 'scope@0', kind: 'module', name: '' };
  const out: Collected = {
    calls: [], dicts: [], assignments: [], fstrings: [], binaryOps: [], booleanOps: [], subscripts: [],
    attributeReads: [], binders: [], imports: [], errors: [], statementErrors: [], comments: [], problems: [],
  };
  const stack: Def[] = [];
  let errorEnd = -1;
  // Snapshot indices are in document order (pre-order), as descendantsOfType (which this replaced)
  // returned nodes; like it, this skips nodes that end at (0, 0).
  for (let index = 0; index < snapshot.size; index++) {
    if (!TYPES.has(snapshot.typeOf(index)) || snapshot.endOf(index) === 0) continue;
    spend();
    const node = snapshot.node(index);
    const start = node.startIndex;
    while (stack.length > 0 && stack[stack.length - 1].end <= start) stack.pop();
    const scope = stack.length > 0 ? stack[stack.length - 1].scope : module;
    const type = node.type;
    switch (type) {
      case 'call': out.calls.push({ node, scope }); break;
      case 'dictionary': out.dicts.push({ node, scope }); break;
      case 'assignment': out.assignments.push({ node, scope }); break;
      case 'binary_operator': out.binaryOps.push({ node, scope }); break;
      case 'boolean_operator': out.booleanOps.push({ node, scope }); break;
      case 'subscript': out.subscripts.push({ node, scope }); break;
      case 'for_statement':
      case 'as_pattern': out.binders.push({ node, scope }); break;
      case 'import_from_statement': out.imports.push(node); break;
      case 'string':
        if (/^[rRbBuU]?[fF]/.test(text.slice(start, start + 2))) out.fstrings.push({ node, scope });
        break;
      case 'attribute': {
        const end = node.endIndex;
        if (/[.\s](logprobs|meta_info)$/.test(text.slice(Math.max(start, end - 10), end))) out.attributeReads.push({ node, scope });
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
        const def: Def = { end: node.endIndex, scope: { key: `scope@${start}`, kind, name, parent: scope, end: node.endIndex } };
        stack.push(def);
        break;
      }
      case 'ERROR':
        if (start >= errorEnd) {
          out.errors.push({ node, scope });
          errorEnd = Math.max(node.endIndex, start + 1);
        }
        break;
    }
  }
  problems(hasError, snapshot, text, out);
  return out;
}
