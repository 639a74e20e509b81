from openai import OpenAI

# openai >= 1.0 reads OPENAI_BASE_URL only
client = OpenAI()
