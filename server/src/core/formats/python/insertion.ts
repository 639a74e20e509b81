import type { InsertionPoint } from '../../model/types';
import type { SyntaxNode } from '../treesitter';

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The line break the document uses at `offset`'s line (`\r\n` or `\n`). */
function lineBreakAt(text: string, offset: number): string {
  const nl = text.indexOf('\n', offset);
  if (nl > 0) return text[nl - 1] === '\r' ? '\r\n' : '\n';
  const before = text.lastIndexOf('\n', offset);
  return before > 0 && text[before - 1] === '\r' ? '\r\n' : '\n';
}

/**
 * Where a new item goes in an argument list `(…)` or dict literal `{…}`, in the container's own style:
 * empty → right after the opener; items on the opener's line → after the last item with `, `;
 * items on their own lines → a new line indented like the last item, after its trailing comma (and any
 * comment on that line) with suffix `,`, or after the item with prefix `,` + newline when it has none.
 * The caller supplies the item text (`logprobs=True`, `"logprobs": True`).
 */
export function insertionFor(container: SyntaxNode, text: string): InsertionPoint | undefined {
  const children = container.children.filter((c): c is SyntaxNode => c !== null);
  const open = children[0];
  if (!open || (open.type !== '(' && open.type !== '{')) return undefined;
  const items = children.filter((c) => c.isNamed && c.type !== 'comment');
  const last = items[items.length - 1];
  if (!last) return { offset: open.endIndex, prefix: '', suffix: '' };
  if (!text.slice(open.endIndex, last.startIndex).includes('\n')) return { offset: last.endIndex, prefix: ', ', suffix: '' };
  const start = lineStart(text, last.startIndex);
  const indent = /^[ \t]*/.exec(text.slice(start, last.startIndex))?.[0] ?? '';
  const nl = lineBreakAt(text, last.endIndex);
  const after = children.slice(children.indexOf(last) + 1);
  const comma = after[0]?.type === ',' ? after[0] : undefined;
  if (!comma) return { offset: last.endIndex, prefix: `,${nl}${indent}`, suffix: '' };
  const comment = after[1]?.type === 'comment' && !text.slice(comma.endIndex, after[1].startIndex).includes('\n') ? after[1] : undefined;
  let offset = comment ? comment.endIndex : comma.endIndex;
  while (comment && offset > comment.startIndex && text[offset - 1] === '\r') offset--;
  return { offset, prefix: `${nl}${indent}`, suffix: ',' };
}
