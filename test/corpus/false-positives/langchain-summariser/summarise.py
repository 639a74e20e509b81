"""Summarises documents with LangChain's ChatOpenAI."""
from langchain_core.prompts import ChatPromptTemplate
from langchain_openai import ChatOpenAI

llm = ChatOpenAI(model="gpt-4o-mini", base_url="https://api.openai.com/v1", temperature=0)
prompt = ChatPromptTemplate.from_messages([("system", "Summarise in three sentences."), ("user", "{text}")])
chain = prompt | llm


def summarise(text: str) -> str:
    return chain.invoke({"text": text}).content
