"""Drives the real openai-python, anthropic-python and langchain-openai for the conformance suite.

Run with the interpreter of a venv made by test/conformance/python/setup-venv.sh. Input: a JSON file of jobs
{id, client, channel, envName, base?, text?, call, ctorKw?, bindKw?}; each makes one call and ignores the answer (the
recording server keeps what was sent). Output: one JSON line per job, {id, error} with the exception's class
and message when the call raised before or instead of an HTTP answer (the reason a row says "no request").

client: openai | anthropic | langchain. channel: how the base URL reaches the client:
  arg      the constructor argument base_url=base;
  environ  os.environ[envName] = base, the constructor without base_url;
  dotenv   python-dotenv's load_dotenv() of the .env text, the constructor without base_url;
  export   bash runs the shell text and the client reads envName from the environment bash leaves.
call: chat | completions | responses | embeddings | models | async-chat | messages | invoke | invoke-bound |
  invoke-kw (langchain: ChatOpenAI(**ctorKw), then .bind(**bindKw) when given, then invoke).
"""
import asyncio
import io
import json
import os
import subprocess
import sys

from dotenv import load_dotenv

NAMES = ("OPENAI_BASE_URL", "OPENAI_API_BASE", "ANTHROPIC_BASE_URL")
MSG = [{"role": "user", "content": "hi"}]


def client_for(job, base):
    kw = {} if base is None else {"base_url": base}
    if job["client"] == "openai":
        from openai import AsyncOpenAI, OpenAI
        cls = AsyncOpenAI if job["call"].startswith("async") else OpenAI
        return cls(api_key="sk-conformance-fake", max_retries=0, timeout=5, **kw)
    if job["client"] == "anthropic":
        from anthropic import Anthropic
        return Anthropic(api_key="sk-ant-conformance-fake", max_retries=0, timeout=5, **kw)
    if job["client"] == "langchain":
        from langchain_openai import ChatOpenAI
        ctor = job.get("ctorKw", {"logprobs": True})
        return ChatOpenAI(model="m", api_key="sk-conformance-fake", max_retries=0, timeout=5, **ctor, **kw)
    raise ValueError(job["client"])


def call(job, c):
    what = job["call"]
    if what == "chat":
        c.chat.completions.create(model="m", messages=MSG, logprobs=True, top_logprobs=1)
    elif what == "completions":
        c.completions.create(model="m", prompt="hi", logprobs=5, max_tokens=1)
    elif what == "responses":
        c.responses.create(model="m", input="hi")
    elif what == "embeddings":
        c.embeddings.create(model="m", input="hi")
    elif what == "models":
        c.models.list()
    elif what == "async-chat":
        asyncio.run(c.chat.completions.create(model="m", messages=MSG))
    elif what == "messages":
        c.messages.create(model="m", max_tokens=1, messages=MSG)
    elif what == "invoke":
        c.invoke("hi")
    elif what == "invoke-bound":
        c.bind(logprobs=True, top_logprobs=5).invoke("hi")
    elif what == "invoke-kw":
        (c.bind(**job["bindKw"]) if "bindKw" in job else c).invoke("hi")
    else:
        raise ValueError(what)


def run(job):
    for name in NAMES:
        os.environ.pop(name, None)
    channel, name = job["channel"], job.get("envName")
    base = None
    if channel == "arg":
        base = job["base"]
    elif channel == "environ":
        os.environ[name] = job["base"]
    elif channel == "dotenv":
        load_dotenv(stream=io.StringIO(job["text"]), override=True)
    elif channel == "export":
        script = job["text"] + f'\nprintf "%s" "${{{name}-__unset__}}"\n'
        value = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=10).stdout
        if value != "__unset__":
            os.environ[name] = value
    else:
        raise ValueError(channel)
    call(job, client_for(job, base))


for job in json.load(open(sys.argv[1])):
    error = None
    try:
        run(job)
    except Exception as e:  # an HTTP error answer is expected; anything else is the reason nothing was sent
        if getattr(e, "status_code", None) is None and getattr(e, "response", None) is None:
            cause = e.__cause__ or e.__context__
            error = f"{type(e).__name__}: {e}" + (f" ({type(cause).__name__}: {cause})" if cause else "")
    print(json.dumps({"id": job["id"], "error": error}), flush=True)
