"""Policy serving for the rollout workers: forwards chat requests to the SGLang router."""
import os

import requests
from openai import OpenAI

# The SGLang router serves the OpenAI-compatible API under /v1.
ROUTER_BASE = "http://127.0.0.1:30000/v1"

client = OpenAI(
    base_url=os.getenv("OPENAI_BASE_URL", "https://taotoken.net/api/v1"),
    api_key=os.getenv("OPENAI_API_KEY", "EMPTY"),
)


def generate_rollout(prompt: str) -> dict:
    body = {
        "model": "policy",
        "messages": [{"role": "user", "content": prompt}],
        "max_tokens": 1024,
        "logprobs": True,
        "top_logprobs": 1,
    }
    # The router path already contains /v1: this joins to /v1/v1/chat/completions.
    resp = requests.post(f"{ROUTER_BASE}/v1/chat/completions", json=body, timeout=600)
    resp.raise_for_status()
    return resp.json()
