"""Drives Debian's python3-requests, python3-httpx and python3-dotenv for the conformance suite.

Input: a JSON file of jobs {id, client, base?, dotenv?, envName?, path?}; each sends one POST and
ignores the answer (the recording server keeps what was sent).

The real openai-python, anthropic-python and langchain-openai run in python-sdks.py (a venv).
"""
import io
import json
import sys

import httpx
import requests
from dotenv import dotenv_values


def run(job):
    base = job.get("base")
    if job.get("dotenv") is not None:
        base = dotenv_values(stream=io.StringIO(job["dotenv"])).get(job["envName"])
        if base is None:
            return
    client = job["client"]
    if client == "requests":
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
