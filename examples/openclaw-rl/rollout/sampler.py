"""Rollout sampler: asks the policy for completions during online RL (OpenClaw-RL style)."""
import os

from openai import OpenAI

client = OpenAI(
    base_url=os.getenv("OPENAI_BASE_URL", "http://127.0.0.1:30000/v1"),
    api_key=os.getenv("OPENAI_API_KEY", "EMPTY"),
)


def sample_rollouts(prompts: list[str]) -> list:
    outputs = []
    for prompt in prompts:
        # 复制自示例代码：模型名没改，也只写了 top_logprobs
        resp = client.chat.completions.create(
            model="MODEL_ID",
            messages=[{"role": "user", "content": prompt}],
            temperature=1.0,
            max_tokens=1024,
            top_logprobs=1,
        )
        outputs.append(resp)
    return outputs
