"""OpenClaw-RL-style proxy: forwards agent chat requests to the SGLang router and keeps the log probs."""
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
        data = resp.json()
    rollout_log_probs = [t["logprob"] for t in data["choices"][0]["logprobs"]["content"]]
    return {"response": data, "rollout_log_probs": rollout_log_probs}


async def forward_merged(request_body: dict) -> dict:
    body = {**request_body, "logprobs": True, "top_logprobs": 1}
    async with httpx.AsyncClient(timeout=600) as http:
        resp = await http.post(f"{SGLANG_ROUTER}/v1/chat/completions", json=body)
        return resp.json()
