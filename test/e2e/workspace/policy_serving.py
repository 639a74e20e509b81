"""Policy serving for OpenClaw-RL rollouts: asks the endpoint for the sampled tokens' log probs."""
import os

from openai import OpenAI

client = OpenAI(
    base_url="https://taotoken.net/api/v1?utm_source=newsletter",
    api_key=os.getenv("OPENAI_API_KEY", ""),
)


def rollout_step(messages):
    response = client.chat.completions.create(
        model=os.getenv("ROLLOUT_MODEL", "qwen3-4b-instruct"),
        messages=messages,
        logprobs=True,
        top_logprobs=1,
    )
    return response.choices[0].logprobs
