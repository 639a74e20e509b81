import { join } from 'node:path';
import type { Finding } from '../../core/model/types';
import type { FileResult } from '../../node/lint-file';
import { rootRelativePath } from './types';

/** One `Finding.related` place as CI formats name it: `path` relative to the repository root, 1-based line and column (UTF-16), end column just past the span. */
export interface RelatedPlace {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
}

/**
 * The related places of `finding` (reported in `result`'s file), with paths re-based from the
 * project root the rules saw (`result.absPath` minus `result.lintPath`) onto `root` (`FormatInput.root`).
 * Without `lintPath`, related paths are taken as relative to `root` itself.
 */
export function relatedPlaces(result: Pick<FileResult, 'absPath' | 'lintPath'>, finding: Finding, root: string): RelatedPlace[] {
  if (!finding.related?.length) return [];
  const abs = result.absPath.replace(/\\/g, '/');
  const projectRoot = result.lintPath !== undefined && abs.endsWith(`/${result.lintPath}`) ? result.absPath.slice(0, abs.length - result.lintPath.length - 1) : root;
  return finding.related.map((r) => ({
    path: rootRelativePath({ absPath: join(projectRoot, r.location.path) }, root),
    line: r.location.start.line + 1,
    column: r.location.start.character + 1,
    endLine: r.location.end.line + 1,
    endColumn: r.location.end.character + 1,
    message: r.message,
  }));
}

/**
 * `message` followed by the related places it does not name yet (`message (.env:2: OPENAI_BASE_URL is defined here)`),
 * for formats whose shape has no field for them (ESLint's `LintMessage`, GitHub annotations, GitLab Code Quality).
 */
export function messageWithRelated(message: string, places: readonly RelatedPlace[]): string {
  const missing = places.filter((p) => !message.includes(`${p.path}:${p.line}`));
  if (missing.length === 0) return message;
  return `${message} (${missing.map((p) => `${p.path}:${p.line}: ${p.message}`).join('; ')})`;
}
