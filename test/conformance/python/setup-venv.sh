#!/bin/bash
# Makes the two venvs the conformance suite runs the real Python clients in, under $1 (a cache folder):
#   $1/py3: requirements.txt (+ requirements-nodeps.txt without dependencies), openai-python 3.x;
#   $1/py2: requirements-openai2.txt, openai-python 2.x.
# pip uses the configured indexes (on this project's machines a local mirror); with no retries, so an
# unreachable default index costs one failed lookup per package, not minutes. langchain-core 1.6 imports
# `langchain_protocol.protocol` for type names only; where no index has langchain-protocol a stand-in
# module answering every name with a dict subclass is written (it does not touch the request path).
# Prints nothing and exits 0 when both are ready; exits 3 with the reason when not.
set -u
DIR=$1
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-python3}
Q="--retries 0 --timeout 15 --disable-pip-version-check -q"
LOG="$DIR/pip.log"
mkdir -p "$DIR"
: >"$LOG"
fail() { echo "$1: $(grep -m1 -E 'ERROR|No matching' "$LOG" | cut -c1-240)"; exit 3; }
make_venv() { [ -x "$1/bin/pip" ] || "$PY" -m venv "$1" >>"$LOG" 2>&1 || { echo "cannot create a venv with $PY (python3-venv missing?)"; exit 3; }; }

make_venv "$DIR/py3"
# shellcheck disable=SC2086
"$DIR/py3/bin/pip" install $Q -r "$HERE/requirements.txt" >>"$LOG" 2>&1 || fail "pip install -r requirements.txt failed"
# shellcheck disable=SC2086
"$DIR/py3/bin/pip" install $Q --no-deps -r "$HERE/requirements-nodeps.txt" >>"$LOG" 2>&1 || fail "pip install langchain-core/langchain-openai failed"
if ! "$DIR/py3/bin/python" -c 'import langchain_protocol.protocol' >/dev/null 2>&1; then
  # shellcheck disable=SC2086
  if ! "$DIR/py3/bin/pip" install $Q 'langchain-protocol>=0.0.17' >>"$LOG" 2>&1; then
    SP=$("$DIR/py3/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    mkdir -p "$SP/langchain_protocol"
    printf '"""Stand-in for langchain-protocol (no index here has it): langchain-core imports type names from it."""\n' >"$SP/langchain_protocol/__init__.py"
    printf '"""Stand-in: every name is a dict subclass (the real ones are TypedDicts)."""\n\n\ndef __getattr__(name):\n    return type(name, (dict,), {})\n' >"$SP/langchain_protocol/protocol.py"
  fi
fi
"$DIR/py3/bin/python" -c 'import openai, anthropic, dotenv, httpx; from langchain_openai import ChatOpenAI' >>"$LOG" 2>&1 || { echo "the py3 venv does not import its clients: $(tail -1 "$LOG")"; exit 3; }

make_venv "$DIR/py2"
# shellcheck disable=SC2086
"$DIR/py2/bin/pip" install $Q -r "$HERE/requirements-openai2.txt" >>"$LOG" 2>&1 || fail "pip install -r requirements-openai2.txt failed"
"$DIR/py2/bin/python" -c 'import openai, dotenv' >>"$LOG" 2>&1 || { echo "the py2 venv does not import openai: $(tail -1 "$LOG")"; exit 3; }
exit 0
