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
};

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/**
 * The format of a file from its name (and the editor's language id when given), or `undefined`
 * when Rollout Lint does not read such files. `.env`, `.env.*`, `*.env` are dotenv.
 */
export function formatOf(path: string, languageId?: string): Format | undefined {
  const name = baseName(path).toLowerCase();
  if (name === '.env' || name.startsWith('.env.') || name.endsWith('.env')) return 'dotenv';
  if (/\.ya?ml$/.test(name)) return 'yaml';
  if (/\.jsonc?$/.test(name)) return 'json';
  if (/\.pyi?$/.test(name)) return 'python';
  if (/\.(sh|bash)$/.test(name)) return 'shell';
  return languageId ? LANGUAGE_FORMATS[languageId] : undefined;
}

/** Tokens whose presence makes a Python or shell file worth linting (DESIGN "Files"). */
export const TRIGGER_TOKENS = /base_?url|api_base|api_key|apikey|auth_token|openai_key|logprob|router[_-]ip|server_host|no_proxy|_proxy=|chat\/completions|\/v1\b/i;

/**
 * Whether the walker lints a file (DESIGN "Files"): dotenv and YAML always; JSON only
 * `openclaw.json`, `*settings.json`/`settings.local.json` (Claude Code) with an `env` key, or `config.jsonGlobs`; Python and shell when
 * their text has a trigger token. `relPath` is workspace-relative with `/` separators.
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
      if (/settings(\.local)?\.json$/.test(name) && /"env"\s*:/.test(text)) return true;
      return config.jsonGlobs.length > 0 && globMatcher(config.jsonGlobs)(relPath);
    case 'python':
    case 'shell':
      return TRIGGER_TOKENS.test(text);
    default:
      return false;
  }
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
