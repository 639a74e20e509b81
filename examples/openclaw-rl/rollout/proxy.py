"""OpenClaw-RL-style proxy: forwards agent traffic to the policy and records log probs."""
import os

import httpx

SGLANG_ROUTER = os.getenv("SGLANG_ROUTER_URL", "http://127.0.0.1:30000")


async def forward(request_body: dict) -> dict:
    forward_body = dict(request_body)
    forward_body["logprobs"] = True
    forward_body["top_logprobs"] = 1
    async with httpx.AsyncClient(timeout=600) as http:
        resp = await http.post(f"{SGLANG_ROUTER}/v1/chat/completions", json=forward_body)
        resp.raise_for_status()
        return resp.json()
