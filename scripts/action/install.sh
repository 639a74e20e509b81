#!/usr/bin/env bash
# Step 1 of action.yml: installs the packed CLI (one npm package: no dependencies, no install
# scripts; `--ignore-scripts` all the same) into a prefix under RUNNER_TEMP and writes
# `cli=<path to dist/cli.js>` to $GITHUB_OUTPUT. Never builds this repository (no `npm ci`).
#   INPUT_TARBALL  a path to a packed tarball (`npm run pack:cli`), e.g. committed to the repository
#   INPUT_VERSION  an npm version or range of `rollout-lint`; empty: the action's own version
set -euo pipefail
node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error(`rollout-lint needs Node.js >= 20.19; this runner has ${process.version} (add actions/setup-node)`); process.exit(1) }'
if [[ -n "${INPUT_TARBALL:-}" ]]; then
  spec="$INPUT_TARBALL"
else
  version="${INPUT_VERSION:-}"
  if [[ -z "$version" ]]; then
    version="$(node -p 'require(process.argv[1]).version' "$GITHUB_ACTION_PATH/server/package.json")"
  fi
  spec="rollout-lint@$version"
fi
prefix="${RUNNER_TEMP:-/tmp}/rollout-lint-cli"
npm install --global --prefix "$prefix" --ignore-scripts --no-audit --no-fund --no-update-notifier "$spec" >&2
cli="$prefix/lib/node_modules/rollout-lint/dist/cli.js"
node "$cli" --version
echo "cli=$cli" >> "$GITHUB_OUTPUT"
