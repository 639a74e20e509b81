import type { Setting } from '../../model/types';
import type { SyntaxNode } from '../treesitter';
import type { ShellContext } from './context';
import { isRedirect } from './commands';
import { addBooleanFlag, addSetting, noteConsumer, wordOf, type Placement } from './values';
import { arraySpread, decodeWord, expansionsWithin, expansionVariable, soleExpansion, type Word } from './words';

const FLAG_KEY = /^--[A-Za-z0-9][\w.-]*$/;

/** Where the flags of one command or array go. */
export interface FlagOwner {
  group: string;
  command: string;
  statementRange: Placement['statementRange'];
}

/**
 * Reads the long flags among `items` (`--k v`, `--k=v`, boolean `--k`); short flags and positional
 * words yield nothing (positional words still give consumer evidence). Words that spread an array
 * (`${A[@]}`, `$A` for a known array) are returned in `spreads` and end a preceding flag.
 */
export function readFlags(context: ShellContext, items: SyntaxNode[], owner: FlagOwner): { settings: Setting[]; spreads: string[] } {
  const settings: Setting[] = [];
  const spreads: string[] = [];
  const words = items.map((node) => (isRedirect(node) || node.type === 'comment' ? undefined : wordOf(context, node)));
  for (let i = 0; i < items.length; i++) {
    const word = words[i];
    if (!word) continue;
    const spread = spreadOf(context, word);
    if (spread !== undefined) {
      spreads.push(spread);
      continue;
    }
    const head = word.segments[0];
    if (head?.kind !== 'literal' || !head.text.startsWith('--')) {
      noteConsumer(context, word);
      continue;
    }
    const eq = head.text.indexOf('=');
    const key = eq > 0 ? head.text.slice(0, eq) : head.text;
    if (!FLAG_KEY.test(key) || (eq < 0 && word.segments.length > 1)) continue;
    const keyRange = { start: head.offsets[0], end: eq > 0 ? head.offsets[eq] : head.offsets[key.length - 1] + 1 };
    const placement: Placement = { key, kind: 'flag', keyRange, ...owner };
    if (eq > 0) {
      settings.push(addSetting(context, placement, attachedValue(context, items[i], word, head.offsets[eq] + 1)));
      continue;
    }
    const next = words[i + 1];
    if (next && !isFlagLike(next) && spreadOf(context, next) === undefined) {
      settings.push(addSetting(context, placement, next));
      i++;
    } else settings.push(addBooleanFlag(context, placement));
  }
  return { settings, spreads };
}

/** The part of `node` after `start` (the `=` of `--k=v` or `env K=v`) as its own word; inside a quoted `"--k=v"` it is the rest of the quote. */
export function attachedValue(context: ShellContext, node: SyntaxNode, word: Word, start: number): Word {
  const quoted = word.quoted;
  const end = quoted && start <= quoted.content.end ? quoted.content.end : node.endIndex;
  const mode = quoted && end === quoted.content.end ? (quoted.quote === '"' ? 'double' : 'single') : 'plain';
  return decodeWord(context.text, start, end, expansionsWithin(node, start, end), mode);
}

function isFlagLike(word: Word): boolean {
  const head = word.segments[0];
  return head?.kind === 'literal' && head.text.startsWith('-') && head.text !== '-' && !/^-\d/.test(head.text);
}

/** The array a word spreads: `${A[@]}`, `"${A[*]}"`, or `$A`/`${A}` naming an array defined earlier. */
function spreadOf(context: ShellContext, word: Word): string | undefined {
  const node = soleExpansion(word);
  if (!node) return undefined;
  const spread = arraySpread(node);
  if (spread !== undefined) return spread;
  const variable = expansionVariable(node);
  return variable && node.namedChildCount === 1 && context.arrays.has(variable.text) ? variable.text : undefined;
}
