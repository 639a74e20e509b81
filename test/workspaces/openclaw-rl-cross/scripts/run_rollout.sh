#!/bin/bash
# OpenClaw-RL style launch script
export POLICY_BASE_URL=http://127.0.0.1:30000/v1
export SGLANG_SERVER_HOST=0.0.0.0
export HOST="0.0.0.0"
export PORT="30000"

python3 -m sglang.launch_server --model-path Qwen/Qwen3-4B \
  --host $SGLANG_SERVER_HOST --port 30000 &

python3 openclaw_api_server.py
