#!/usr/bin/env bash
# Step 1 of action.yml: makes the CLI available and writes `cli=<path to cli.js>` to $GITHUB_OUTPUT.
# INPUT_VERSION set: that version from npm (the published package has no dependencies and no install
# scripts); empty: the CLI built from the action's own checkout ($GITHUB_ACTION_PATH).
set -euo pipefail
if [[ -n "${INPUT_VERSION:-}" ]]; then
  prefix="${RUNNER_TEMP:-/tmp}/rollout-lint-$INPUT_VERSION"
  npm install --global --prefix "$prefix" --no-audit --no-fund "rollout-lint@$INPUT_VERSION"
  cli="$prefix/lib/node_modules/rollout-lint/dist/cli.js"
else
  cli="$GITHUB_ACTION_PATH/server/dist/cli.js"
  if [[ ! -f "$cli" ]]; then
    (cd "$GITHUB_ACTION_PATH" && npm ci --no-audit --no-fund)
  fi
fi
node "$cli" --version
echo "cli=$cli" >> "$GITHUB_OUTPUT"
