import { compileGlob } from '../glob';
import type { LintConfig } from '../config/config';
import type { Format, Severity } from '../model/types';
import { isExampleFile } from '../rules/util';
import { templateSyntax, type TemplateSyntax } from './template';

/**
 * What kind of file a document is, for the evidence model:
 * - `test`: test, fixture or mock code (`config.testGlobs`, e.g. `tests/**`, `test_*.py`,
 *   `conftest.py`, `cassettes/**`); its keys, URLs and requests are fake on purpose;
 * - `template`: `.env.example`, `*.sample.*`, `*.template.*`: placeholders are the point;
 * - `tutorial`: a file a reader copies and fills in: anything in an `examples/`, `samples/`, `docs/`,
 *   `cookbook(s)/`, `tutorial(s)/`, `notebooks/`, `demos/` or `quickstart/` folder (tutorial and
 *   cookbook notebooks included); a `.env` itself is never one (its loader reads it as it is);
 * - `source`: everything else.
 * `glob` is the test glob that matched; `templated` is set when a template engine renders the file
 * before any loader reads it (Helm, Jinja, cookiecutter: see `templateSyntax`), whatever its kind.
 */
export interface FileEvidence {
  kind: 'test' | 'template' | 'tutorial' | 'source';
  glob?: string;
  templated?: TemplateSyntax;
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

/** Folders whose files are teaching material or samples the reader fills in. */
const TUTORIAL_FOLDER = /(^|\/)(examples?|samples?|docs?|cookbooks?|tutorials?|notebooks?|demos?|quickstarts?)\//i;

/** True when `path` is a file a reader copies and fills in (see `FileEvidence`). */
export function isTutorialPath(path: string): boolean {
  const name = path.split('/').pop() ?? path;
  if (/^\.env(\.|$)/i.test(name) && !isExampleFile(path)) return false;
  return TUTORIAL_FOLDER.test(path);
}

/**
 * Classifies `path` (workspace-relative, `/`-separated; absolute paths match `**` globs too). With
 * `text` and `format`, also says whether a template engine renders the file (`templateSyntax`).
 */
export function fileEvidence(path: string, config: LintConfig, text?: string, format?: Format): FileEvidence {
  const templated = text !== undefined && format !== undefined ? templateSyntax(path, text, format) : undefined;
  const glob = config.testGlobs.find((g) => matcher(g)(path));
  const kind = glob ? 'test' : isExampleFile(path) ? 'template' : isTutorialPath(path) ? 'tutorial' : 'source';
  return { kind, ...(glob ? { glob } : {}), ...(templated ? { templated } : {}) };
}

/**
 * Rules whose finding is "this value is still the text a reader must replace": in a tutorial a
 * placeholder is the point, so they are hints there at most (issue 23, kind 3).
 */
const FILL_IN_RULES = new Set(['api-key-placeholder', 'base-url-placeholder', 'model-placeholder', 'api-key-empty', 'base-url-empty', 'dotenv-duplicate-key']);

/** The highest severity the kind of file allows for a rule's finding, or `undefined` for no cap. */
export function fileSeverityCap(file: FileEvidence, ruleId: string): Severity | undefined {
  return file.kind === 'tutorial' && FILL_IN_RULES.has(ruleId) ? 'hint' : undefined;
}
