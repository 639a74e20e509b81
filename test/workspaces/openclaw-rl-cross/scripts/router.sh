#!/bin/bash
# OpenClaw-RL terminal-rl shape: the router's listen address, used only as --host
ROUTER_HOST="${ROUTER_HOST:-0.0.0.0}"
ROUTER_PORT="${ROUTER_PORT:-18080}"
# the same default, but a client dials it too: a destination
ENV_SERVER_HOST="${ENV_SERVER_HOST:-0.0.0.0}"

start_router() {
  "${CONDA_ENV}/bin/python" -m terminal-rl.router_server \
    --host "${ROUTER_HOST}" --port "${ROUTER_PORT}" &
  python3 -m sglang.launch_server --host "${ENV_SERVER_HOST}" --port 30000 &
  curl "http://${ENV_SERVER_HOST}:30000/health"
}
