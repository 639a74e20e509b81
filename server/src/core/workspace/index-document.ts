import type { Format } from '../model/types';
import { emptyExtraction, type Extraction } from '../model/types';
import type { LintConfig } from '../config/config';
import { DEFAULT_CONFIG } from '../config/config';
import type { Grammars } from '../formats/treesitter';
import { extract } from '../formats/index';
import { formatOf, isCandidate, mayReadEnvJavaScript } from '../files';
import { stripBom } from '../lint';
import { resolve } from '../resolve/resolve';
import { envFactsOf, type FileEnv } from './env-facts';
import { LAUNCH_TOKEN } from './servers';
import { BudgetExceeded, DEFAULT_BUDGET, spend, withBudget, type BudgetSpent, type LintBudget } from '../budget';
import { blankTemplateActions, certainPartOfTemplate, templateSyntax } from '../evidence/template';
import { notebookSource, toNotebookExtraction } from '../formats/notebook';
import { yamlMayMatter } from './yaml-evidence';

/**
 * The env index facts of one document: extraction and resolution only, no rules (so a whole
 * workspace can be indexed before any file is linted). `path` is workspace-relative; `text` may
 * start with a BOM. Never throws for any content; a file with no known format, or over `budget`
 * (default `DEFAULT_BUDGET`; the language server indexes under `INDEX_ON_MAIN_THREAD`), yields no facts.
 */
export function indexDocument(input: { path: string; text: string; format?: Format }, grammars: Grammars, config: LintConfig = DEFAULT_CONFIG, budget: LintBudget = DEFAULT_BUDGET): FileEnv {
  return indexAndExtract(input, grammars, config, budget).env;
}

/**
 * `indexDocument` that also returns the extraction it made (BOM-less `text` and the raw extraction
 * before any cross-file import), so a lint of the same text can reuse it (`LintOptions.reuse`).
 */
export function indexAndExtract(input: { path: string; text: string; format?: Format }, grammars: Grammars, config: LintConfig = DEFAULT_CONFIG, budget: LintBudget = DEFAULT_BUDGET): { env: FileEnv; text?: string; extraction?: Extraction; spent?: BudgetSpent } {
  const path = input.path.replace(/\\/g, '/');
  const format = input.format ?? formatOf(path);
  if (!format) return { env: { path, definitions: [], reads: [] } };
  const { text } = stripBom(input.text);
  const spent: BudgetSpent = { timeMs: 0, nodes: 0 };
  // YAML without any evidence the extractor and the rules read (`yamlMayMatter`): no facts, nothing to parse (its lint skips it too)
  if (format === 'yaml' && !yamlMayMatter(text, config)) return { env: { path, definitions: [], reads: [] }, text, spent };
  try {
    // the file's one budget, shared with its lint (`LintOptions.spent`): a pathological file yields no facts instead of a hang
    return withBudget(budget, () => {
      if (format === 'notebook') {
        const env = notebookEnv(path, text, grammars, config);
        spend(0, true);
        return { env, text, spent };
      }
      let extraction: Extraction;
      // a templated file (Helm, Jinja, cookiecutter) is indexed as `lintDocument` reads it: only what is certain
      const templated = templateSyntax(path, text, format);
      try {
        extraction = extract(format, templated ? blankTemplateActions(text, templated.actions) : text, path, grammars);
        if (templated) extraction = certainPartOfTemplate(extraction, templated.actions);
      } catch (error) {
        if (error instanceof BudgetExceeded) throw error;
        extraction = emptyExtraction();
      }
      const resolution = resolve(extraction, config);
      const env = envFactsOf(path, text, extraction, resolution.baseUrls);
      spend(0, true); // a file whose index pass ended over budget yields no facts, like one stopped midway
      return { env, text, ...(templated ? {} : { extraction }), spent };
    }, undefined, spent);
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    return { env: { path, definitions: [], reads: [] }, text, spent };
  }
}

/**
 * What a notebook gives the index: only the literal base URLs of its code cells (at notebook-JSON
 * offsets, as `lintDocument` reports a notebook), so the connection test's pick lists a closed
 * notebook's endpoints. Its `%env` lines and environment reads stay out: they set and read the
 * kernel's own environment, not the one other files run in. No facts for malformed JSON or a
 * kernel that is not Python.
 */
function notebookEnv(path: string, text: string, grammars: Grammars, config: LintConfig): FileEnv {
  const read = notebookSource(text);
  if (!('source' in read)) return { path, definitions: [], reads: [] };
  let extraction: Extraction;
  try {
    extraction = extract('python', read.source.text, path, grammars);
  } catch (error) {
    if (error instanceof BudgetExceeded) throw error;
    return { path, definitions: [], reads: [] };
  }
  toNotebookExtraction(read.source, extraction);
  const { endpoints } = envFactsOf(path, text, extraction, resolve(extraction, config).baseUrls);
  return { path, definitions: [], reads: [], ...(endpoints ? { endpoints } : {}) };
}

/**
 * Files that feed the index beyond the linted ones. `lint` (the CLI): launch scripts that start a
 * vLLM/SGLang server (their served model names, `servers.ts`); no other — every read that can change
 * a finding is in a linted file (a consumer needs a trigger token), and parsing more would slow every
 * run. `navigation` (the language server, built in the background): also launch scripts, Python that touches the
 * environment and shell scripts that export or expand variables, so definition and references see all.
 */
const ENV_TOKENS: Record<'lint' | 'navigation', Partial<Record<Format, RegExp>>> = {
  lint: { shell: LAUNCH_TOKEN },
  navigation: { python: /\b(getenv|environ|load_dotenv)\b/, shell: new RegExp(`\\bexport\\b|--host\\b|\\$\\{?[A-Za-z_]|${LAUNCH_TOKEN.source}`), javascript: /\bprocess\??\.env\b/ },
};

/**
 * Whether a file feeds the env index for `purpose` (see `ENV_TOKENS`): a lint candidate, or a file
 * whose text reads or sets the environment. JavaScript/TypeScript build output never does.
 */
export function isIndexCandidate(relPath: string, text: string, config: LintConfig, purpose: 'lint' | 'navigation' = 'lint'): boolean {
  const format = formatOf(relPath);
  if (!format) return false;
  if (format === 'javascript' && !mayReadEnvJavaScript(relPath, text)) return false;
  return isCandidate(relPath, text, config) || (ENV_TOKENS[purpose][format]?.test(text) ?? false);
}

/**
 * The budget of (re)indexing one file on the language server's main thread (issue 29 item 7: it never
 * blocks more than 200 ms on indexing): a file that needs more yields no cross-file facts in the editor
 * (its own lint still runs, in the worker when big).
 */
export const INDEX_ON_MAIN_THREAD: LintBudget = { timeMs: 200, maxNodes: DEFAULT_BUDGET.maxNodes };
