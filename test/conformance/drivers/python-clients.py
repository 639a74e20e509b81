"""Drives Debian's python3-requests, python3-httpx and python3-dotenv for the conformance suite.

Input: a JSON file of jobs {id, client, base?, dotenv?, envName?, path?}; each sends one POST and
ignores the answer (the recording server keeps what was sent).

openai-python and anthropic-python cannot be installed here (no PyPI). Their rows use their join rule
on the real httpx: `BaseClient._enforce_trailing_slash` (raw_path + "/" unless it ends with "/") and
`_prepare_url` (base raw_path + the relative path with its leading "/" stripped), from
openai-python src/openai/_base_client.py (anthropic-sdk-python has the same Stainless base client);
`OpenAI.__init__` reads `os.environ.get("OPENAI_BASE_URL")` without stripping (src/openai/_client.py).
"""
import io
import json
import sys

import httpx
import requests
from dotenv import dotenv_values


def sdk_url(base, path):
    url = httpx.URL(base)
    if not url.raw_path.endswith(b"/"):
        url = url.copy_with(raw_path=url.raw_path + b"/")
    return url.copy_with(raw_path=url.raw_path + path.encode().lstrip(b"/"))


def run(job):
    base = job.get("base")
    if job.get("dotenv") is not None:
        base = dotenv_values(stream=io.StringIO(job["dotenv"])).get(job["envName"])
        if base is None:
            return
    client = job["client"]
    if client in ("openai-python", "anthropic-python"):
        url = sdk_url(base, job.get("path") or ("/v1/messages" if client == "anthropic-python" else "/chat/completions"))
        with httpx.Client(timeout=5) as c:
            c.post(url, json={"model": "m"})
    elif client == "requests":
        requests.post(base + job["path"], json={"model": "m"}, timeout=5)
    elif client == "httpx":
        httpx.post(base + job["path"], json={"model": "m"}, timeout=5)
    else:
        raise ValueError(client)


for job in json.load(open(sys.argv[1])):
    try:
        run(job)
    except Exception as error:  # the case asserts on what arrived (possibly nothing)
        if "--debug" in sys.argv:
            print(job["id"], repr(error)[:200], file=sys.stderr)
