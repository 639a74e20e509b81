"""A small Flask chatbot: one chat completion per message, no log probs needed."""
import os

from flask import Flask, jsonify, request
from openai import OpenAI

app = Flask(__name__)
client = OpenAI(api_key=os.environ.get("OPENAI_API_KEY"))


def generate_reply(message: str) -> str:
    resp = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": message}],
        temperature=0.7,
    )
    return resp.choices[0].message.content


@app.post("/chat")
def chat():
    return jsonify({"reply": generate_reply(request.json["message"])})
