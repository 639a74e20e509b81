#!/bin/bash
# OpenClaw-RL on slime + SGLang: online RL of Qwen3-4B from live agent traffic.
# Shaped like OpenClaw-RL's openclaw-rl/run_qwen3_4b_openclaw_rl.sh, with the usual launch-script mistakes.

set -ex

export PYTHONUNBUFFERED=1

NUM_GPUS=${NUM_GPUS:-8}
ACTOR_GPUS=${ACTOR_GPUS:-4}
ROLLOUT_GPUS=${ROLLOUT_GPUS:-4}

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" &>/dev/null && pwd)"
HF_CKPT=${HF_CKPT:-/absolute/path/to/Qwen3-4B-Thinking-2507}

# The OpenClaw API server listens on every interface so agents on other hosts can reach it.
export SERVED_MODEL_NAME="qwen3-4b"
export HOST="0.0.0.0"
export PORT="30000"
export MASTER_ADDR=${MASTER_ADDR:-"127.0.0.1"}

# 评审模型（judge）走 TaoToken：openai>=1.0 不再读取 OPENAI_API_BASE
export OPENAI_API_BASE="https://taotoken.net/api/v1"
# 单引号里的 ${…} 不会展开：服务器收到的是字面文本
export OPENAI_API_KEY='${TAOTOKEN_API_KEY}'

if [ "${DEBUG_STANDALONE:-0}" = "1" ]; then
  # Serve the policy alone, without training, for debugging.
  python3 -m sglang.launch_server --model-path "${HF_CKPT}" --host 0.0.0.0 --port 30000 &
  sleep 60
  # The smoke test dials the bind address instead of the server.
  OPENAI_BASE_URL=http://0.0.0.0:30000/v1 OPENAI_API_KEY=EMPTY python3 "${SCRIPT_DIR}/smoke_test.py"
  exit 0
fi

ROLLOUT_ARGS=(
   --disable-rollout-global-dataset
   --rollout-function-path openclaw_rollout.generate_rollout_openclaw

   --num-rollout 100000000
   --rollout-batch-size 16
   --n-samples-per-prompt 1
   --rollout-max-response-len 8192
   --rollout-temperature 0.6
   --sglang-router-ip "${MASTER_ADDR}"
   --sglang-router-port 30000
)

CUSTOM_ARGS=(
   --custom-generate-function-path openclaw_api_server.generate
   --custom-rm-path openclaw_api_server.reward_func
)

ray start --head --node-ip-address "${MASTER_ADDR}" --num-gpus "${NUM_GPUS}" --disable-usage-stats --dashboard-host=0.0.0.0 --dashboard-port=8265

ray job submit --address="http://127.0.0.1:8265" \
   -- python3 train_async.py \
   --actor-num-nodes 1 \
   --actor-num-gpus-per-node "${ACTOR_GPUS}" \
   --rollout-num-gpus "${ROLLOUT_GPUS}" \
   --hf-checkpoint "${HF_CKPT}" \
   ${ROLLOUT_ARGS[@]} \
   ${CUSTOM_ARGS[@]}
