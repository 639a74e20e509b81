import os

from langchain_openai import ChatOpenAI

# LangChain reads the legacy name itself
llm = ChatOpenAI(openai_api_base=os.getenv("OPENAI_API_BASE"), model="qwen3-4b")
