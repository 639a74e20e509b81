import os

from langchain_openai import ChatOpenAI
from openai import OpenAI

llm = ChatOpenAI(openai_api_base=os.getenv("OPENAI_API_BASE"), model="qwen3-4b")
client = OpenAI(base_url=os.environ["OPENAI_BASE_URL"], api_key=os.environ["OPENAI_API_KEY"])
