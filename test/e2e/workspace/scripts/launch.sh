#!/usr/bin/env bash
# Launches OpenClaw-RL training against the TaoToken endpoint.
set -euo pipefail

export OPENAI_BASE_URL=https://taotoken.net/api/v1/
export OPENAI_API_KEY=YOUR_API_KEY

python3 train_async.py \
  --rollout-batch-size 16 \
  --n-samples-per-prompt 8 \
  --sglang-router-ip 127.0.0.1 \
  --sglang-router-port 30000
