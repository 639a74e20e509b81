import { globMatcher } from './glob';
import type { Format } from './model/types';
import type { LintConfig } from './config/config';

/** VS Code language ids → formats. */
const LANGUAGE_FORMATS: Record<string, Format> = {
  dotenv: 'dotenv',
  properties: 'dotenv',
  yaml: 'yaml',
  'docker-compose': 'yaml',
  json: 'json',
  jsonc: 'json',
  python: 'python',
  shellscript: 'shell',
  toml: 'toml',
  javascript: 'javascript',
  javascriptreact: 'javascript',
  typescript: 'javascript',
  typescriptreact: 'javascript',
};

/** JavaScript and TypeScript sources (declaration files `.d.ts` included; `isExcludedByName` rules them out). */
const JAVASCRIPT = /\.(js|mjs|cjs|jsx|ts|mts|cts|tsx)$/;

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/**
 * The format of a file from its name (and the editor's language id when given), or `undefined`
 * when Rollout Lint does not read such files. `.env`, `.env.*`, `*.env` are dotenv; `.json5` is JSON
 * (read with the JSON5 extractor, as `openclaw.json` is); `.ipy` (IPython) is Python; `.ipynb` is a notebook.
 */
export function formatOf(path: string, languageId?: string): Format | undefined {
  const name = baseName(path).toLowerCase();
  if (name === '.env' || name.startsWith('.env.') || name.endsWith('.env')) return 'dotenv';
  if (/\.ya?ml$/.test(name)) return 'yaml';
  if (/\.json[c5]?$/.test(name)) return 'json';
  if (/\.pyi?$|\.ipy$/.test(name)) return 'python';
  if (/\.(sh|bash)$/.test(name)) return 'shell';
  if (name.endsWith('.toml')) return 'toml';
  if (name.endsWith('.ipynb')) return 'notebook';
  if (JAVASCRIPT.test(name)) return 'javascript';
  return languageId ? LANGUAGE_FORMATS[languageId] : undefined;
}

/**
 * Whether Python text at `path` is IPython (a `.ipy` file, or a notebook's cells, whose path is the
 * `.ipynb`): line magics (`%env K=V`) and `!` shell escapes are read, not parsed as Python.
 */
export function isIpythonPath(path: string): boolean {
  return /\.(ipy|ipynb)$/i.test(path);
}

/**
 * JavaScript/TypeScript that is not source a person keeps, by path: anything under `node_modules`,
 * build output folders (`dist`, `build`, `out`, `.next`, `coverage`, …), declaration files and
 * bundles (`.d.ts`, `.min.js`, `.bundle.js`). Never read, indexed or reported.
 */
export function isGeneratedJavaScriptPath(relPath: string): boolean {
  const lower = relPath.toLowerCase();
  return /(^|\/)(node_modules|bower_components|jspm_packages|dist|build|out|\.next|\.nuxt|\.output|\.svelte-kit|\.vercel|\.turbo|\.cache|coverage|storybook-static)\//.test(lower) || /\.d\.(m|c)?ts$|[.-](min|bundle)\.(m|c)?js$/.test(lower);
}

/** The text a JavaScript/TypeScript file needs before it is parsed at all: it reads the environment. */
const PROCESS_ENV = /\bprocess\??\.env\b/;

/** Whether JavaScript/TypeScript text at `relPath` may hold env reads (`process.env`) and is kept source. */
export function mayReadEnvJavaScript(relPath: string, text: string): boolean {
  return !isGeneratedJavaScriptPath(relPath) && text.includes('process') && PROCESS_ENV.test(text);
}

/** Tokens whose presence makes a Python, shell or TOML file worth linting (DESIGN "Files"); `-` spellings are flags and TOML keys (`--base-url`, `api-key = …`). */
export const TRIGGER_TOKENS = /base[_-]?url|ChatOpenAI\b|api[_-]base|api[_-]key|azure_endpoint|openai_api_version|apikey|auth_token|openai_key|logprob|router[_-]ip|server_host|no_proxy|_proxy=|chat\/completions|\/v1\b/i;

/**
 * Tokens that mark a line as holding a setting, for `parse-error` (is a parse problem hiding one?): the
 * `_` spellings only, since a `-` spelling is as often prose ("API-key" in a comment) as a key.
 */
export const SETTING_LINE_TOKENS = /base_?url|api_base|api_key|azure_endpoint|openai_api_version|apikey|auth_token|openai_key|logprob|router[_-]ip|server_host|no_proxy|_proxy=|chat\/completions|\/v1\b/i;

/**
 * Whether the walker lints a file (DESIGN "Files"): dotenv and YAML always; JSON only
 * `openclaw.json`, `*.json5` with a trigger token, `*settings.json`/`settings.local.json` (Claude Code) with an `env` key,
 * a config-named JSON (`configs/models.json`) with an endpoint-shaped key, or `config.jsonGlobs`; Python, shell, TOML
 * (Codex `config.toml`, `pyproject.toml`) and notebooks when their text has a trigger token;
 * JavaScript/TypeScript when it reads `process.env` and has a trigger token, outside build output. `relPath` is workspace-relative with `/` separators.
 */
export function isCandidate(relPath: string, text: string, config: LintConfig): boolean {
  const format = formatOf(relPath);
  const name = baseName(relPath).toLowerCase();
  switch (format) {
    case 'dotenv':
    case 'yaml':
      return true;
    case 'json':
      if (name === 'openclaw.json') return true;
      if (name.endsWith('.json5')) return TRIGGER_TOKENS.test(text);
      if (SETTINGS_JSON.test(name) && /"env"\s*:/.test(text)) return true;
      if (isConfigJsonName(relPath) && ENDPOINT_KEY_JSON.test(text)) return true;
      return jsonGlobbed(relPath, config);
    case 'python':
    case 'shell':
    case 'toml':
    case 'notebook':
      return TRIGGER_TOKENS.test(text);
    case 'javascript':
      // only for its env reads, and only where one can flow into a base URL (a trigger token)
      return mayReadEnvJavaScript(relPath, text) && TRIGGER_TOKENS.test(text);
    default:
      return false;
  }
}

const SETTINGS_JSON = /settings(\.local)?\.json$/;

/**
 * JSON files whose name or folder says they configure models or endpoints (`configs/models.json`,
 * `llm_config.json`, `providers.json`, `model_endpoints.json`): read, and linted when they hold an
 * endpoint-shaped key (`ENDPOINT_KEY_JSON`). Other JSON (data sets, lock files, `tsconfig.json`) is
 * never read: a repository may hold thousands of data files.
 */
const CONFIG_JSON_NAME = /(^|[._-])(config|configs|conf|settings|models?|providers?|endpoints?|llms?|apis?|clients?|agents?)([._-]|$)/i;
const CONFIG_JSON_DIR = /(^|\/)(config|configs|conf|settings)\//i;
/** A JSON key that holds an endpoint base URL: `"base_url"`, `"baseURL"`, `"api_base"`, `"apiBaseUrl"`, `"OPENAI_BASE_URL"`. */
const ENDPOINT_KEY_JSON = /"(?:\w+[_-])?(?:base_?url|api_?base(?:_?url)?)"\s*:/i;

/**
 * Folders of data, not configuration: a gateway's provider catalogue (`src/data/providers.json`, served
 * as a listing), web assets, recorded outputs. Their JSON is never read as config.
 */
const DATA_JSON_DIR = /(^|\/)(data|datasets?|assets|static|public|web|frontend|ui|i18n|locales?|results?|outputs?|logs?|node_modules)\//i;

/** Whether a JSON file's name or folder says it configures models or endpoints (see `CONFIG_JSON_NAME`), outside data folders. */
function isConfigJsonName(relPath: string): boolean {
  if (DATA_JSON_DIR.test(relPath)) return false;
  const stem = baseName(relPath).replace(/\.json[c5]?$/i, '');
  return CONFIG_JSON_NAME.test(stem) || CONFIG_JSON_DIR.test(relPath);
}

const jsonGlobMatchers = new WeakMap<readonly string[], (path: string) => boolean>();

/** Whether `config.jsonGlobs` matches the path (the matcher compiled once per globs array). */
function jsonGlobbed(relPath: string, config: LintConfig): boolean {
  if (config.jsonGlobs.length === 0) return false;
  let matcher = jsonGlobMatchers.get(config.jsonGlobs);
  if (!matcher) {
    matcher = globMatcher(config.jsonGlobs);
    jsonGlobMatchers.set(config.jsonGlobs, matcher);
  }
  return matcher(relPath);
}

/**
 * Whether the file's name alone rules it out as a candidate (`isCandidate` would be false whatever
 * its text), so it need not be read: a JSON file that is not `openclaw.json` or `*.json5`, not a Claude Code
 * `settings.json`/`settings.local.json`, not config-named (`isConfigJsonName`), and not matched by `config.jsonGlobs`; JavaScript/TypeScript build output (`isGeneratedJavaScriptPath`).
 */
export function isExcludedByName(relPath: string, config: LintConfig): boolean {
  const format = formatOf(relPath);
  if (format === 'javascript') return isGeneratedJavaScriptPath(relPath);
  if (format !== 'json') return false;
  const name = baseName(relPath).toLowerCase();
  return name !== 'openclaw.json' && !name.endsWith('.json5') && !SETTINGS_JSON.test(name) && !isConfigJsonName(relPath) && !jsonGlobbed(relPath, config);
}

/** Config files that are linted even when git-ignored (`.env` usually is). */
export function isAlwaysLinted(relPath: string): boolean {
  const format = formatOf(relPath);
  return format === 'dotenv' || format === 'yaml' || baseName(relPath).toLowerCase() === 'openclaw.json';
}

/** Whether a path matches the configured rollout globs (DESIGN "Rollout requests"). */
export function isRolloutPath(relPath: string, config: LintConfig): boolean {
  return config.rolloutGlobs.length > 0 && globMatcher(config.rolloutGlobs)(relPath);
}
