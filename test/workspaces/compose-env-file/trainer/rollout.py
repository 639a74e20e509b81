import os

import requests

POLICY = os.environ["POLICY_BASE_URL"]


def rollout(messages):
    return requests.post(POLICY + "/v1/chat/completions", json={"model": "policy", "messages": messages, "logprobs": True})
