import { join } from 'node:path';

/**
 * The user's cache folder of Rollout Lint: `$ROLLOUT_LINT_CACHE_DIR`, else `$XDG_CACHE_HOME/rollout-lint`,
 * else `$HOME/.cache/rollout-lint` (`%USERPROFILE%` on Windows); `undefined` when the environment names
 * none of them (then nothing is kept there). It holds the `/models` lists of `ping`, the lint cache's
 * signing key and the CLI's V8 code cache; never a linted repository's files. Node built-ins only: the
 * CLI launcher (cli/launch.ts) imports it before the bundle is loaded.
 */
export function userCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.ROLLOUT_LINT_CACHE_DIR) return env.ROLLOUT_LINT_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'rollout-lint');
  const home = env.HOME || env.USERPROFILE;
  return home ? join(home, '.cache', 'rollout-lint') : undefined;
}
