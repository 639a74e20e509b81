import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Finding } from '../../server/src/core/model/types';
import type { LintConfig } from '../../server/src/core/config/config';
import { DEFAULT_CONFIG } from '../../server/src/core/config/config';
import { loadGrammars } from '../../server/src/node/grammars';
import { NodeWorkspaceFacts } from '../../server/src/node/facts';
import { lintFile, type FileResult } from '../../server/src/node/lint-file';
import { LineIndex } from '../../server/src/core/positions';
import type { Locale } from '../../server/src/core/messages/locale';
import { walk } from '../../server/src/node/walk';
import { indexFiles } from '../../server/src/node/env-index';

/**
 * Copies `dir` into a fresh temp folder outside any git repository, so git facts come only from the
 * fixture's own `.gitignore` files (the project repo tracks every fixture). Returns the copy's path
 * and a cleanup function.
 */
export function isolatedCopy(dir: string): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'rollout-lint-test-'));
  cpSync(dir, root, { recursive: true });
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * Lints one file of a workspace rooted at `root` as the CLI would (forced: no candidate check). With
 * `index`, the workspace env index of every file under `root` is built first, as `rollout-lint` run
 * in `root` builds it (cross-file facts: env definitions, server launches).
 */
export async function lintInWorkspace(root: string, relPath: string, options: { config?: LintConfig; locale?: Locale; fix?: 'safe' | 'unsafe'; index?: boolean } = {}): Promise<FileResult> {
  const grammars = await loadGrammars();
  const config = options.config ?? DEFAULT_CONFIG;
  const facts = new NodeWorkspaceFacts(root);
  const env = options.index ? indexFiles(walk(['.'], root, facts, { noIgnore: false, config }).files, grammars, () => config).viewFor(relPath) : undefined;
  return lintFile(join(root, relPath), relPath, { grammars, config, facts, locale: options.locale, force: true, maxFileBytes: config.maxFileBytes, fix: options.fix, env });
}

/** One expectation line in actionlint form: `line:col: [rule-id] severity` (1-based). */
export function expectationLine(f: Finding, index: LineIndex): string {
  const p = index.positionAt(f.range.start);
  return `${p.line + 1}:${p.character + 1}: [${f.ruleId}] ${f.severity}`;
}

/** True when goldens should be rewritten instead of compared (`UPDATE_GOLDENS=1 npm test`). */
export const UPDATE_GOLDENS = process.env.UPDATE_GOLDENS === '1';
