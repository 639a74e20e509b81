import type { Format } from '../model/types';
import { emptyExtraction, type Extraction } from '../model/types';
import type { LintConfig } from '../config/config';
import { DEFAULT_CONFIG } from '../config/config';
import type { Grammars } from '../formats/treesitter';
import { extract } from '../formats/index';
import { formatOf, isCandidate } from '../files';
import { stripBom } from '../lint';
import { resolve } from '../resolve/resolve';
import { envFactsOf, type FileEnv } from './env-facts';

/**
 * The env index facts of one document: extraction and resolution only, no rules (so a whole
 * workspace can be indexed before any file is linted). `path` is workspace-relative; `text` may
 * start with a BOM. Never throws for any content; a file with no known format yields no facts.
 */
export function indexDocument(input: { path: string; text: string; format?: Format }, grammars: Grammars, config: LintConfig = DEFAULT_CONFIG): FileEnv {
  const path = input.path.replace(/\\/g, '/');
  const format = input.format ?? formatOf(path);
  if (!format) return { path, definitions: [], reads: [] };
  const { text } = stripBom(input.text);
  let extraction: Extraction;
  try {
    extraction = extract(format, text, path, grammars);
  } catch {
    extraction = emptyExtraction();
  }
  const resolution = resolve(extraction, config);
  return envFactsOf(path, text, extraction, resolution.baseUrls);
}

/** Python code that reads or writes the environment; shell that exports or launches a server with `--host`. */
const ENV_TOKENS: Partial<Record<Format, RegExp>> = {
  python: /\b(getenv|environ|load_dotenv)\b/,
  shell: /\bexport\b|--host\b|\$\{?[A-Za-z_]/,
};

/**
 * Whether a file feeds the env index: every file the walker lints (`isCandidate`), plus Python and
 * shell files that touch the environment without a trigger token (`os.getenv("ROUTER_IP")`).
 */
export function isIndexCandidate(relPath: string, text: string, config: LintConfig): boolean {
  const format = formatOf(relPath);
  if (!format) return false;
  return isCandidate(relPath, text, config) || (ENV_TOKENS[format]?.test(text) ?? false);
}
