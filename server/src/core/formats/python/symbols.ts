import { lastIndexBefore } from '../../range-lookup';
import type { Setting } from '../../model/types';
import type { SyntaxNode } from '../treesitter';
import type { Scope } from './walk';

/** A dict literal with everything later code adds to it (`d["k"] = v`, `d.update({...})`). */
export interface DictInfo {
  node: SyntaxNode;
  scope: Scope;
  /** `dict@<start offset>`. */
  group: string;
  /** The variable it is bound to, `<parent path>.<key>` when nested, else `dict`. */
  path: string;
  /** The name or attribute it is assigned to (`body = {...}`), if any. */
  boundTo?: string;
  /** Entries with string keys, literal ones first then mutations; a later write replaces an earlier one. */
  entries: Map<string, Setting>;
  /** Value nodes of the literal's own entries, by key. */
  values: Map<string, SyntaxNode>;
  /** Dict literal values by key (`"sampling_params": {...}`). */
  nested: Map<string, DictInfo>;
  /** Two-level mutations (`d["sampling_params"]["k"] = v`) keyed `sampling_params.k`. */
  deepEntries: Map<string, Setting>;
  /** `**x` expressions inside the literal and non-literal `d.update(x)` arguments. */
  splats: { expr: SyntaxNode; scope: Scope }[];
  /** Claimed by a request site (so it does not become a second one). */
  used: boolean;
}

/** What a name is bound to at some point of a scope. */
export type Bound =
  | { kind: 'dict'; dict: DictInfo }
  | { kind: 'literal'; setting: Setting }
  | { kind: 'env'; name: string }
  /** Anything else; `value` is the assigned expression, for reading a URL's literal tail (`f"{h}/score"`). */
  | { kind: 'other'; value?: SyntaxNode };

interface Entry {
  offset: number;
  bound: Bound;
}

/**
 * Name bindings per scope, in document order. `lookup` follows Python's rule loosely: the innermost
 * scope counts only bindings before the use; enclosing scopes count the last binding before the use,
 * else their last binding (a module constant defined below a function that uses it).
 */
export class SymbolTable {
  private readonly scopes = new Map<string, Map<string, Entry[]>>();

  /** Records a binding; calls must come in document order (offsets ascending per name). */
  bind(scope: Scope, name: string, offset: number, bound: Bound): void {
    let names = this.scopes.get(scope.key);
    if (!names) this.scopes.set(scope.key, (names = new Map()));
    const list = names.get(name) ?? [];
    list.push({ offset, bound });
    names.set(name, list);
  }

  lookup(scope: Scope, name: string, offset: number): Bound | undefined {
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      const list = this.scopes.get(s.key)?.get(name);
      if (!list || list.length === 0) continue;
      const before = list[lastIndexBefore(list, offset, (e) => e.offset)];
      if (before) return before.bound;
      if (s !== scope) return list[list.length - 1].bound;
    }
    return undefined;
  }

  /** True when `name` is bound in `scope` itself (not only in an enclosing one). */
  bindsLocally(scope: Scope, name: string): boolean {
    return (this.scopes.get(scope.key)?.get(name)?.length ?? 0) > 0;
  }

  /** The dict a name refers to at `offset`, if it is a dict literal. */
  dictOf(scope: Scope, name: string, offset: number): DictInfo | undefined {
    const b = this.lookup(scope, name, offset);
    return b?.kind === 'dict' ? b.dict : undefined;
  }
}
