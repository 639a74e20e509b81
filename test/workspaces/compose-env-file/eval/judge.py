import os

import requests

JUDGE = os.getenv("JUDGE_BASE_URL")


def judge(messages):
    return requests.post(f"{JUDGE}/v1/chat/completions", json={"model": os.getenv("JUDGE_MODEL"), "messages": messages})
