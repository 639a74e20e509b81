import type { ConsumerEvidence, Range, Setting, SettingKind } from '../../model/types';
import type { SyntaxNode } from '../treesitter';
import type { ShellContext } from './context';
import { decodeNode, defaultedExpansion, expansionVariable, soleExpansion, type Word } from './words';

/** Where a setting sits: everything a Setting needs besides its value. */
export interface Placement {
  key: string;
  kind: SettingKind;
  keyRange: Range;
  statementRange: Range;
  group: string;
  command?: string;
}

/** Names that mark a variable as a URL base when a literal path follows it. */
const URL_VARIABLE = /URL|URI|ENDPOINT|API_BASE|^BASE$|_BASE$|ADDR/i;
/** Literal tails that only an HTTP API path has. */
const API_PATH = /^\/v1(?:\/|$)|^\/(?:chat\/completions|completions|generate|responses|messages|models|embeddings|health)$/;
const VIA_MAX = 60;

/**
 * Records `word` as the value of a setting at `placement` and returns it. A value that is exactly
 * `${K:-d}` (quoted or not) also yields an `envDefault` setting for `K`. Flag values made only of
 * digits are `number`; values with an expansion are `dynamic` with `value` undefined.
 */
export function addSetting(context: ShellContext, placement: Placement, word: Word): Setting {
  const { text } = context;
  const quoted = word.quoted;
  const setting: Setting = {
    ...settingBase(placement),
    raw: text.slice(word.range.start, word.range.end),
    value: word.literal,
    valueType: valueTypeOf(word.literal, placement.kind),
    valueRange: word.range,
    contentRange: quoted ? quoted.content : word.range,
    quote: quoted ? quoted.quote : '',
  };
  context.out.settings.push(setting);
  const expansion = soleExpansion(word);
  const defaulted = expansion && defaultedExpansion(text, expansion);
  if (defaulted) {
    const inner = defaulted.defaultWord;
    context.out.settings.push({
      ...settingBase({ ...placement, key: defaulted.name, kind: 'envDefault', keyRange: defaulted.nameRange }),
      path: defaulted.name,
      envName: defaulted.name,
      raw: text.slice(inner.range.start, inner.range.end),
      value: inner.literal,
      valueType: inner.literal === undefined ? 'dynamic' : 'string',
      valueRange: inner.range,
      contentRange: inner.quoted ? inner.quoted.content : inner.range,
      quote: inner.quoted ? inner.quoted.quote : '',
    });
  }
  noteConsumer(context, word);
  return setting;
}

/** Records a flag written without a value (`--logprobs`): boolean `true`, empty value range at the flag's end. */
export function addBooleanFlag(context: ShellContext, placement: Placement): Setting {
  const at = { start: placement.keyRange.end, end: placement.keyRange.end };
  const setting: Setting = {
    ...settingBase(placement),
    raw: '',
    value: 'true',
    valueType: 'boolean',
    valueRange: at,
    contentRange: at,
    quote: '',
  };
  context.out.settings.push(setting);
  return setting;
}

function settingBase(placement: Placement) {
  const base = {
    key: placement.key,
    path: placement.key,
    format: 'shell' as const,
    kind: placement.kind,
    keyRange: placement.keyRange,
    statementRange: placement.statementRange,
    group: placement.group,
  };
  return placement.command === undefined ? base : { ...base, command: placement.command };
}

function valueTypeOf(value: string | undefined, kind: SettingKind): Setting['valueType'] {
  if (value === undefined) return 'dynamic';
  return kind === 'flag' && /^\d+$/.test(value) ? 'number' : 'string';
}

/**
 * Consumer evidence from a word that joins a variable with a literal API path
 * (`"$BASE/v1/chat/completions"` → `env:BASE` is `v1-appending`; `${URL}/chat/completions` → `raw`).
 */
export function noteConsumer(context: ShellContext, word: Word): void {
  const [first, second] = word.segments;
  if (first?.kind !== 'expansion' || second?.kind !== 'literal' || !second.text.startsWith('/')) return;
  const variable = expansionVariable(first.node);
  if (!variable) return;
  const path = second.text.replace(/[?#].*$/s, '');
  if (!URL_VARIABLE.test(variable.text) && !API_PATH.test(path)) return;
  const source = context.text.slice(word.range.start, word.range.end);
  const via = source.length <= VIA_MAX ? source : `${source.slice(0, VIA_MAX - 1)}…`;
  const evidence: ConsumerEvidence = {
    target: `env:${variable.text}`,
    consumer: { id: /^\/v1(?:\/|$)/.test(path) ? 'v1-appending' : 'raw', via, appendedPath: path },
    range: word.range,
  };
  context.out.consumerEvidence.push(evidence);
}

/** The decoded text of a program or script word: its literal value, or its source when dynamic. */
export function wordText(context: ShellContext, word: Word): string {
  return word.literal ?? context.text.slice(word.range.start, word.range.end);
}

/** The source range of a node. */
export function rangeOf(node: SyntaxNode): Range {
  return { start: node.startIndex, end: node.endIndex };
}

/** The decoded word of `node`, cached per extraction. */
export function wordOf(context: ShellContext, node: SyntaxNode): Word {
  let word = context.words.get(node.id);
  if (!word) {
    word = decodeNode(context.text, node);
    context.words.set(node.id, word);
  }
  return word;
}
