import { compileGlob } from '../glob';
import type { LintConfig } from '../config/config';
import { isExampleFile } from '../rules/util';

/**
 * What kind of file a document is, for the evidence model:
 * - `test`: test, fixture or mock code (`config.testGlobs`, e.g. `tests/**`, `test_*.py`,
 *   `conftest.py`, `cassettes/**`); its keys, URLs and requests are fake on purpose;
 * - `template`: `.env.example`, `*.sample.*`, `*.template.*`: placeholders are the point;
 * - `source`: everything else.
 * `glob` is the test glob that matched.
 */
export interface FileEvidence {
  kind: 'test' | 'template' | 'source';
  glob?: string;
}

const matchers = new Map<string, (path: string) => boolean>();

function matcher(glob: string): (path: string) => boolean {
  let m = matchers.get(glob);
  if (!m) {
    const compiled = compileGlob(glob, { nocase: true });
    m = compiled.ok ? compiled.test : () => false;
    matchers.set(glob, m);
  }
  return m;
}

/** Classifies `path` (workspace-relative, `/`-separated; absolute paths match `**` globs too). */
export function fileEvidence(path: string, config: LintConfig): FileEvidence {
  const glob = config.testGlobs.find((g) => matcher(g)(path));
  if (glob) return { kind: 'test', glob };
  if (isExampleFile(path)) return { kind: 'template' };
  return { kind: 'source' };
}
