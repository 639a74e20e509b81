import type { ApiKind, Extraction, InsertionPoint, Range, RequestSite, Setting, ValueType } from '../model/types';

/**
 * A format-neutral view of a parsed YAML or JSON document, built by the YAML and JSON extractors
 * and walked once by `collectTree`. Every range is a UTF-16 offset pair into the document text.
 */
export type TreeNode = TreeScalar | TreeMap | TreeSeq;

/** A scalar or YAML alias. `range` spans the value as written (quotes included). */
export interface TreeScalar {
  kind: 'scalar';
  range: Range;
  /** Inside the quotes; the content lines of a YAML block scalar; else equal to `range`. */
  contentRange: Range;
  raw: string;
  /** The parsed string form (`'true'`, `'null'`, number source text); `undefined` for aliases. */
  value: string | undefined;
  valueType: ValueType;
  quote: Setting['quote'];
}

export interface TreeEntry {
  key: string;
  /** The key's characters (inside its quotes when quoted). */
  keyRange: Range;
  /** From the first character of the key (its quote included) to the end of the value. */
  statementRange: Range;
  value: TreeNode;
}

export interface TreeMap {
  kind: 'map';
  range: Range;
  /** Where a finding about a map without a key goes: its `{`, or the first key of a block map. */
  openRange: Range;
  entries: TreeEntry[];
  /** Where a new member goes: after the last one, written like its neighbours. */
  insertion(): InsertionPoint;
}

export interface TreeSeq {
  kind: 'seq';
  range: Range;
  items: TreeNode[];
}

/** What `collectTree` needs besides the tree. */
export interface TreeContext {
  format: 'yaml' | 'json' | 'toml';
  /** The document's path; only its file name is read (rollout detection). */
  filePath: string;
  /** Prepended to every `group` (`doc1:` for the second YAML document), `''` for the first. */
  groupPrefix: string;
}

/**
 * Deepest mapping/list nesting the extractors read. A document nested deeper is reported as a
 * ParseProblem and not parsed (comments are still collected): the parsers recurse per level, and real
 * configs stay far below this.
 */
export const MAX_NESTING = 256;

/** The ParseProblem for a document nested deeper than `MAX_NESTING`, at the first too-deep opener. */
export function nestingProblem(range: Range): { message: string; zh: string; range: Range } {
  return { message: `Nesting deeper than ${MAX_NESTING} levels is not read`, zh: `嵌套超过 ${MAX_NESTING} 层的部分不会读取`, range };
}

/** Mappings (and lists) whose scalars are env definitions. */
export const ENV_CONTAINERS = new Set(['env', 'environment']);
/** Inside an env container, `vars` holds env vars too: openclaw.json `env.vars` (docs.openclaw.ai/help/environment, "Config env block"). */
export const NESTED_ENV_CONTAINER = 'vars';
/** A mapping under one of these keys is a request/sampling site. */
export const SITE_KEYS = new Set(['sampling', 'sampling_params', 'generation_kwargs', 'generation_config', 'rollout', 'request', 'request_body', 'extra_body']);
/** A mapping directly holding one of these keys is a request site whatever its own key. */
export const LOGPROB_KEYS = new Set(['logprobs', 'top_logprobs', 'return_logprob']);

/** One path segment: the key itself, or JSON-quoted when it holds `.`, `[`, `]`, `"` or is empty. */
export function pathKey(key: string): string {
  return key === '' || /[.[\]"]/.test(key) ? JSON.stringify(key) : key;
}

/** `parent.key` (dotted path), or `key` at the root. */
export function joinPath(parent: string, key: string): string {
  return parent === '' ? pathKey(key) : `${parent}.${pathKey(key)}`;
}

/** `\r\n` when the text's first line break is CRLF, else `\n`. */
export function lineBreakOf(text: string): string {
  const lf = text.indexOf('\n');
  return lf > 0 && text[lf - 1] === '\r' ? '\r\n' : '\n';
}

/** The text from `lineStart` to `offset` with every non-blank character turned into a space. */
export function indentBetween(text: string, lineStart: number, offset: number): string {
  return text.slice(lineStart, offset).replace(/[^\t ]/g, ' ');
}

/**
 * Insertion after the last member of a `{…}` mapping (JSON object or YAML flow map): `', '` when
 * the last member shares a line with the one before it (or with `{`), else `',' + lineBreak + the
 * last member's indentation`. An empty mapping gets the offset right after `{`.
 */
export function flowInsertion(text: string, lineBreak: string, open: number, entries: TreeEntry[], lineStartOf: (offset: number) => number): InsertionPoint {
  const last = entries[entries.length - 1];
  if (!last) return { offset: open + 1, prefix: '', suffix: '' };
  const previous = entries.length > 1 ? entries[entries.length - 2].statementRange.start : open;
  const start = last.statementRange.start;
  const multiline = /[\r\n]/.test(text.slice(previous, start));
  const prefix = multiline ? ',' + lineBreak + indentBetween(text, lineStartOf(start), start) : ', ';
  return { offset: last.statementRange.end, prefix, suffix: '' };
}

/** True when `text` has `rollout`/`rollouts` as a word (split at non-alphanumerics and camelCase humps). */
export function namesRollout(text: string): boolean {
  return text
    .split(/[^A-Za-z0-9]+/)
    .flatMap((word) => word.split(/(?<=[a-z0-9])(?=[A-Z])/))
    .some((word) => /^rollouts?$/i.test(word));
}

/**
 * Walks `root` and appends to `out`: a `property` setting per scalar under a key (and per scalar item
 * of a list under a key, path `key[i]`), `env` settings for `env`/`environment` containers, a
 * `mapping` request site per sampling/request mapping, and `out.groups` for every mapping that
 * directly holds a scalar. Settings are appended in document order. An env entry written as null
 * (compose `KEY:` passes the host's value through) has `value` undefined and `valueType` `'null'`.
 */
export function collectTree(root: TreeNode, context: TreeContext, out: Extraction): void {
  const { format, groupPrefix } = context;
  const fileName = context.filePath.replace(/\\/g, '/').split('/').pop() ?? '';

  const makeSetting = (kind: Setting['kind'], key: string, keyRange: Range, path: string, scalar: TreeScalar, statementRange: Range, group: string): Setting => ({
    key,
    path,
    format,
    kind,
    raw: scalar.raw,
    value: kind === 'env' && scalar.valueType === 'null' ? undefined : scalar.value,
    valueType: scalar.valueType,
    keyRange,
    valueRange: scalar.range,
    contentRange: scalar.contentRange,
    quote: scalar.quote,
    statementRange,
    group: groupPrefix + group,
  });

  const requestSite = (map: TreeMap, path: string, parentKey: TreeEntry | undefined): RequestSite | undefined => {
    const named = parentKey !== undefined && SITE_KEYS.has(parentKey.key.toLowerCase());
    // Most mappings are not sites: decided before the key set is built.
    if (!named && !map.entries.some((e) => LOGPROB_KEYS.has(e.key))) return undefined;
    const keys = new Set(map.entries.map((e) => e.key));
    const apiKind: ApiKind = keys.has('top_logprobs') || keys.has('messages') ? 'chat' : keys.has('return_logprob') ? 'sglang-generate' : 'unknown';
    const rolloutReason = namesRollout(path) ? `mapping "${path}" is named for a rollout` : namesRollout(fileName) ? `file name "${fileName}" names a rollout` : undefined;
    return {
      format,
      apiKind,
      style: 'mapping',
      range: map.range,
      anchorRange: parentKey?.keyRange ?? map.openRange,
      params: {},
      isRollout: rolloutReason !== undefined,
      ...(rolloutReason ? { rolloutReason } : {}),
      insertion: map.insertion(),
    };
  };

  const envFromListItem = (item: TreeNode, listPath: string, listGroup: string): boolean => {
    if (item.kind === 'scalar' && item.valueType === 'string' && item.value !== undefined) {
      const source = item.raw;
      const contentStart = item.contentRange.start;
      const content = source.slice(contentStart - item.range.start, item.contentRange.end - item.range.start);
      const eqValue = item.value.indexOf('=');
      const eqSource = content.indexOf('=');
      const key = eqValue < 0 ? item.value : item.value.slice(0, eqValue);
      if (key === '' || /\s/.test(key)) return false;
      const keyEnd = contentStart + (eqSource < 0 ? content.length : eqSource);
      const valueRange = eqSource < 0 ? { start: item.contentRange.end, end: item.contentRange.end } : { start: keyEnd + 1, end: item.contentRange.end };
      const raw = source.slice(valueRange.start - item.range.start, valueRange.end - item.range.start);
      const value: TreeScalar = { kind: 'scalar', range: valueRange, contentRange: valueRange, raw, value: eqValue < 0 ? undefined : item.value.slice(eqValue + 1), valueType: eqValue < 0 ? 'dynamic' : 'string', quote: '' };
      out.settings.push(makeSetting('env', key, { start: contentStart, end: keyEnd }, joinPath(listPath, key), value, item.range, listGroup));
      return true;
    }
    if (item.kind !== 'map') return false;
    const name = item.entries.find((e) => e.key === 'name')?.value;
    const value = item.entries.find((e) => e.key === 'value')?.value;
    if (name?.kind !== 'scalar' || name.value === undefined || value?.kind !== 'scalar') return false;
    out.settings.push(makeSetting('env', name.value, name.contentRange, joinPath(listPath, name.value), value, item.range, listGroup));
    return true;
  };

  /** A Kubernetes ConfigMap's `data` holds env vars for the pods that mount it with `envFrom`. */
  const configMap = root.kind === 'map' && root.entries.some((e) => e.key === 'kind' && e.value.kind === 'scalar' && e.value.value === 'ConfigMap');
  const visit = (node: TreeNode, path: string, parentKey: TreeEntry | undefined, group: string, inEnv = false): void => {
    if (node.kind === 'scalar') return;
    const name = parentKey?.key.toLowerCase();
    const envContainer = name !== undefined && (ENV_CONTAINERS.has(name) || (inEnv && name === NESTED_ENV_CONTAINER) || (configMap && path === 'data'));
    if (node.kind === 'seq') {
      node.items.forEach((item, index) => {
        const itemPath = `${path}[${index}]`;
        if (envContainer && envFromListItem(item, path, path)) return;
        if (item.kind !== 'scalar') visit(item, itemPath, item.kind === 'seq' ? parentKey : undefined, group);
        else if (parentKey) out.settings.push(makeSetting('property', parentKey.key, parentKey.keyRange, itemPath, item, item.range, group));
      });
      return;
    }
    const site = envContainer ? undefined : requestSite(node, path, parentKey);
    if (site) out.requestSites.push(site);
    if (node.entries.some((entry) => entry.value.kind === 'scalar')) {
      (out.groups ??= {})[groupPrefix + path] = { anchorRange: parentKey?.keyRange ?? node.openRange, range: node.range, insertion: site?.insertion ?? node.insertion() };
    }
    for (const entry of node.entries) {
      const childPath = joinPath(path, entry.key);
      if (entry.value.kind !== 'scalar') {
        visit(entry.value, childPath, entry, path, envContainer);
        continue;
      }
      const setting = makeSetting(envContainer ? 'env' : 'property', entry.key, entry.keyRange, childPath, entry.value, entry.statementRange, path);
      out.settings.push(setting);
      if (site) site.params[entry.key] = setting;
    }
  };

  visit(root, '', undefined, '');
}
