import os
import requests

# 中文：从环境变量读取策略服务地址
base = os.getenv("POLICY_BASE_URL")


def rollout_request(prompt):
    return requests.post(f"{base}/v1/chat/completions", json={"model": "qwen3-4b", "messages": prompt, "logprobs": True})
