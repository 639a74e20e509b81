import assert from 'node:assert/strict';
import { extractPython } from '../../../server/src/core/formats/python';
import { loadGrammars } from '../../../server/src/node/grammars';
import type { Grammars } from '../../../server/src/core/formats/treesitter';

let grammars: Grammars;
before(async () => {
  grammars = await loadGrammars();
});

/** The endpoint of each request site in `text`, in document order. */
function endpoints(text: string): (string | undefined)[] {
  return extractPython(text, grammars.python).requestSites.map((s) => s.endpoint);
}

describe('python request sites: endpoint (for hover)', () => {
  it('an SDK call on a client built with a literal base_url', () => {
    const text = 'from openai import OpenAI\nclient = OpenAI(base_url="http://127.0.0.1:30000/v1", api_key="EMPTY")\nr = client.chat.completions.create(model="m", messages=[])\nc = client.completions.create(model="m", prompt="p")\n';
    assert.deepEqual(endpoints(text), ['http://127.0.0.1:30000/v1/chat/completions', 'http://127.0.0.1:30000/v1/completions']);
  });

  it('follows a base_url bound to a module constant, and self.client set in __init__', () => {
    const text = [
      'BASE = "https://api.example.com/v1/"',
      'class Worker:',
      '    def __init__(self):',
      '        self.client = AsyncOpenAI(base_url=BASE)',
      '    async def go(self):',
      '        return await self.client.chat.completions.create(model="m", messages=[])',
      '',
    ].join('\n');
    assert.deepEqual(endpoints(text), ['https://api.example.com/v1/chat/completions']);
  });

  it('is absent when the base comes from the environment or the client is unknown', () => {
    const text = 'import os\nclient = OpenAI(base_url=os.getenv("OPENAI_BASE_URL"))\nr = client.chat.completions.create(model="m", messages=[])\nother.chat.completions.create(model="m", messages=[])\n';
    assert.deepEqual(endpoints(text), [undefined, undefined]);
  });

  it('joins f-strings and + on a literal-bound name, as written (no normalisation)', () => {
    const text = [
      'import requests',
      'ROUTER = "http://127.0.0.1:30000/v1"',
      'def go(p):',
      '    body = {"model": "m", "messages": [], "logprobs": True}',
      '    requests.post(f"{ROUTER}/v1/chat/completions", json=body)',
      '    other = {"model": "m", "messages": [], "logprobs": True}',
      '    requests.post(ROUTER + "/chat/completions", json=other)',
      '',
    ].join('\n');
    assert.deepEqual(endpoints(text), ['http://127.0.0.1:30000/v1/v1/chat/completions', 'http://127.0.0.1:30000/v1/chat/completions']);
  });
});
