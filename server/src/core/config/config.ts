import type { Role, Severity } from '../model/types';
import type { ProviderProfile } from '../providers/profiles';

/** A rule's configured level: a severity or `off`. */
export type RuleLevel = Severity | 'off';

/**
 * The effective configuration for one document, after merging (nearest `.rolloutlintrc.json` >
 * workspace-folder settings > user settings > defaults). Globs (picomatch syntax, `core/glob.ts`) are matched against
 * the workspace-relative, `/`-separated path.
 */
export interface LintConfig {
  /** Per-rule level overrides by rule id. */
  rules: Record<string, RuleLevel>;
  /** Files whose requests are rollout requests (DESIGN "Rollout requests"). */
  rolloutGlobs: string[];
  /** Extra JSON files to lint beyond `openclaw.json` and `*settings.json`. */
  jsonGlobs: string[];
  /**
   * Test, fixture and mock code (`evidence/file`): values there are fake on purpose, so value rules
   * report nothing in such files.
   */
  testGlobs: string[];
  /** Paths never linted. */
  ignore: string[];
  /** Extra key names per role, matched case/`-`/`_`-insensitively like the built-in table. */
  extraKeys: Partial<Record<Role, string[]>>;
  /** Provider profiles added by the user (restricted in untrusted workspaces). */
  extraProviders: ProviderProfile[];
  /** Files larger than this (bytes) get `skipped-file` instead of being linted. */
  maxFileBytes: number;
}

/** Defaults; `package.json` contributes the same values (a test checks they do not drift). */
export const DEFAULT_CONFIG: LintConfig = {
  rules: {},
  rolloutGlobs: ['**/*rollout*/**', '**/*rollout*.py', '**/policy_serving*.py'],
  jsonGlobs: [],
  testGlobs: [
    '**/test/**',
    '**/tests/**',
    '**/testing/**',
    '**/autotest/**',
    '**/__tests__/**',
    '**/test_*.py',
    '**/*_test.py',
    '**/*_tests.py',
    '**/conftest.py',
    '**/fixtures/**',
    '**/cassettes/**',
    '**/mocks/**',
    '**/*.test.*',
    '**/*.spec.*',
    '**/*smoke_test*',
    '**/smoke_*.{py,sh}',
    '**/*_smoke.{py,sh}',
  ],
  ignore: [],
  extraKeys: {},
  extraProviders: [],
  maxFileBytes: 5 * 1024 * 1024,
};

/** Shallow merge of partial configs, later ones win; `rules` and `extraKeys` merge per key. */
export function mergeConfig(...layers: Partial<LintConfig>[]): LintConfig {
  const out: LintConfig = structuredClone(DEFAULT_CONFIG);
  for (const layer of layers) {
    if (!layer) continue;
    if (layer.rules) out.rules = { ...out.rules, ...layer.rules };
    if (layer.extraKeys) {
      for (const [role, names] of Object.entries(layer.extraKeys)) {
        out.extraKeys[role as Role] = [...(out.extraKeys[role as Role] ?? []), ...(names ?? [])];
      }
    }
    if (layer.rolloutGlobs) out.rolloutGlobs = [...layer.rolloutGlobs];
    if (layer.jsonGlobs) out.jsonGlobs = [...layer.jsonGlobs];
    if (layer.testGlobs) out.testGlobs = [...layer.testGlobs];
    if (layer.ignore) out.ignore = [...layer.ignore];
    if (layer.extraProviders) out.extraProviders = [...out.extraProviders, ...layer.extraProviders];
    if (typeof layer.maxFileBytes === 'number') out.maxFileBytes = layer.maxFileBytes;
  }
  return out;
}
