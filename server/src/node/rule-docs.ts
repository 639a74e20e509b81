import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The folder holding `docs/rules/<id>.md`: beside the bundle (`dist/docs/rules`, copied by
 * `server/build.mjs`), or the repository's `docs/rules` when running from source.
 */
function docsDirectory(): string {
  return process.env.ROLLOUT_LINT_BUNDLED ? join(__dirname, 'docs', 'rules') : join(__dirname, '..', '..', '..', 'docs', 'rules');
}

/** A rule's documentation page, split for SARIF `fullDescription`/`help` and `rollout-lint explain`. */
export interface RuleDoc {
  /** The whole page (Markdown). */
  markdown: string;
  /** The "What it catches" section (Markdown), or the summary line when the page has none. */
  catches: string;
}

const cache = new Map<string, RuleDoc | null>();

/** The page of rule `id`, or `undefined` when the page is missing or unreadable. Cached. */
export function ruleDoc(id: string): RuleDoc | undefined {
  if (!/^[a-z0-9-]+$/.test(id)) return undefined;
  if (!cache.has(id)) {
    let doc: RuleDoc | null = null;
    try {
      const markdown = readFileSync(join(docsDirectory(), `${id}.md`), 'utf8').replace(/\r\n/g, '\n');
      doc = { markdown, catches: section(markdown, 'What it catches') ?? summaryLine(markdown) };
    } catch {
      doc = null;
    }
    cache.set(id, doc);
  }
  return cache.get(id) ?? undefined;
}

/** The body of `## <title>` up to the next `##` heading, trimmed. */
export function section(markdown: string, title: string): string | undefined {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${title}`);
  if (start < 0) return undefined;
  let end = lines.findIndex((l, i) => i > start && /^##\s/.test(l));
  if (end < 0) end = lines.length;
  return lines.slice(start + 1, end).join('\n').trim() || undefined;
}

function summaryLine(markdown: string): string {
  return markdown.split('\n').find((l, i) => i > 0 && l.trim() && !l.startsWith('#'))?.trim() ?? '';
}

/** Markdown reduced to plain text for SARIF `text` fields: links become `text (url)`, code spans and emphasis lose their marks, paragraphs are unwrapped. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, '$1 ($2)')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .split(/\n{2,}/)
    .map((p) => p.replace(/\n/g, ' ').replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n\n');
}
