import os

import requests
from openai import OpenAI

client = OpenAI(base_url=os.getenv("OPENAI_BASE_URL"))
ROLLOUT = os.environ.get("ROLLOUT_BASE_URL")


def rollout(messages):
    return requests.post(ROLLOUT + "/v1/chat/completions", json={"model": "m", "messages": messages, "logprobs": True})
