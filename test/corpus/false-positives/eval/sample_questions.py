"""Samples a few questions from a dataset and asks the model to answer them (offline eval)."""
import json
import random

from openai import OpenAI

client = OpenAI(base_url="http://127.0.0.1:8000/v1", api_key="EMPTY")


def sample(questions, k=20):
    picked = random.sample(questions, k)
    answers = []
    for q in picked:
        out = client.chat.completions.create(model="qwen3-4b-instruct", messages=[{"role": "user", "content": q}])
        answers.append(out.choices[0].message.content)
    return answers


if __name__ == "__main__":
    with open("questions.json") as f:
        print(json.dumps(sample(json.load(f)), ensure_ascii=False))
