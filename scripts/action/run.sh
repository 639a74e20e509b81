#!/usr/bin/env bash
# Step 2 of action.yml: lints INPUT_PATHS with INPUT_ARGS. Prints the text report to the log, the
# workflow-command annotations (INPUT_ANNOTATE=true) and writes SARIF to INPUT_SARIF_FILE (when set).
# Writes `exit-code` (the text run's) and `sarif-file` to $GITHUB_OUTPUT; exits 0 itself so that the
# SARIF upload still runs, and the action's last step fails the job.
set -uo pipefail
read -ra paths <<< "${INPUT_PATHS:-.}"
read -ra extra <<< "${INPUT_ARGS:-}"
[[ ${#paths[@]} -eq 0 ]] && paths=(.)
lint() { node "$INPUT_CLI" "${extra[@]}" "$@" -- "${paths[@]}"; }

# The text report holds file names and values from the repository: between `::stop-commands::` and a
# random end token (GitHub "Stopping and starting workflow commands") no line of it can act as a
# workflow command, even if a name or value starts one (the CLI escapes newlines in them too).
token="rollout-lint-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
echo "::stop-commands::$token"
lint --format text --color
status=$?
echo "::$token::"
if [[ "${INPUT_ANNOTATE:-true}" == "true" && $status -ne 2 ]]; then
  lint --format github --exit-zero
fi
sarif=""
if [[ -n "${INPUT_SARIF_FILE:-}" && $status -ne 2 ]]; then
  if lint --format sarif --exit-zero --output-file "$INPUT_SARIF_FILE"; then sarif="$INPUT_SARIF_FILE"; fi
fi
{
  echo "exit-code=$status"
  echo "sarif-file=$sarif"
} >> "$GITHUB_OUTPUT"
