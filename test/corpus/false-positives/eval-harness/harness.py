"""An OpenAI eval harness: exact-match accuracy, no log probs requested or read."""
from dataclasses import dataclass

from openai import OpenAI


@dataclass
class Example:
    question: str
    answer: str


class Evaluator:
    def __init__(self, base_url: str = "https://api.openai.com/v1", model: str = "gpt-4o-mini"):
        self.client = OpenAI(base_url=base_url)
        self.model = model

    def generate(self, question: str) -> str:
        resp = self.client.chat.completions.create(
            model=self.model,
            messages=[{"role": "user", "content": question}],
            max_tokens=64,
            temperature=0,
        )
        return resp.choices[0].message.content.strip()

    def run(self, examples: list[Example]) -> float:
        hits = sum(self.generate(e.question) == e.answer for e in examples)
        return hits / max(len(examples), 1)
