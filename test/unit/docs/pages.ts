import { walk } from '../../../server/src/node/walk';
import { indexFiles } from '../../../server/src/node/env-index';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Finding } from '../../../server/src/core/model/types';
import { invalidate, loadConfigFor } from '../../../server/src/node/config';
import { NodeWorkspaceFacts } from '../../../server/src/node/facts';
import { loadGrammars } from '../../../server/src/node/grammars';
import { lintFile } from '../../../server/src/node/lint-file';
import { writeFiles } from '../cli/helpers';

/**
 * A fenced block of a rule page whose info string names a file:
 * ```` ```<lang> title="<path>" wrong|right|context ````
 * `wrong` must yield the page's rule only, `right` nothing; `context` files (a `.gitignore`, a
 * `.rolloutlintrc.json`) are written beside every example of the page.
 */
export interface Example {
  kind: 'wrong' | 'right' | 'context';
  title: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** The fixed `##` sections of a rule page, in order. */
export const SECTIONS = ['What it catches', 'Why it breaks a rollout', 'Examples', 'Fix', 'Options'] as const;

/** Fenced blocks with a `title="…"` and one of the kinds; other blocks are illustration only. */
export function parseExamples(markdown: string): Example[] {
  const out: Example[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\S*)(.*)$/.exec(lines[i]);
    if (!open) continue;
    const fence = open[1];
    let end = i + 1;
    while (end < lines.length && !lines[end].startsWith(fence)) end++;
    const title = /\btitle="([^"]+)"/.exec(open[3])?.[1];
    const kind = /(?:^|\s)(wrong|right|context)(?=\s|$)/.exec(open[3].replace(/title="[^"]*"/, ''))?.[1] as Example['kind'] | undefined;
    if (title && kind) out.push({ kind, title, code: lines.slice(i + 1, end).join('\n') + '\n', line: i + 1 });
    i = end;
  }
  return out;
}

/** `##` headings in order. */
export function sectionsOf(markdown: string): string[] {
  return markdown.split('\n').filter((l) => l.startsWith('## ')).map((l) => l.slice(3).trim());
}

/** The body of one `##` section (up to the next `##`). */
export function sectionText(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) return '';
  const next = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, next < 0 ? undefined : next);
}

/**
 * Lints `example` as the CLI would (an explicit file argument, its nearest config, unused
 * directives reported) in a fresh temp workspace holding the page's `context` files; with `index`,
 * after building the workspace env index of those files (rules whose finding needs another file).
 */
export async function lintExample(example: Example, context: readonly Example[], index = false): Promise<Finding[]> {
  const root = mkdtempSync(join(tmpdir(), 'rollout-lint-docs-'));
  try {
    writeFiles(root, Object.fromEntries([...context.map((c) => [c.title, c.code]), [example.title, example.code]]));
    invalidate();
    const abs = join(root, example.title);
    const { config } = loadConfigFor(abs, root);
    const grammars = await loadGrammars();
    const facts = new NodeWorkspaceFacts(root);
    const env = index ? indexFiles(walk(['.'], root, facts, { noIgnore: false, config }).files, grammars, () => config).viewFor(example.title) : undefined;
    const result = lintFile(abs, example.title, {
      env,
      grammars,
      config,
      facts,
      force: true,
      maxFileBytes: config.maxFileBytes,
      reportUnusedDisableDirectives: true,
    });
    if (result.failures.length) throw new Error(`lint failed: ${result.failures.map((f) => `${f.ruleId}: ${f.error}`).join('; ')}`);
    return result.findings;
  } finally {
    invalidate();
    rmSync(root, { recursive: true, force: true });
  }
}
