import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { Language, Parser } from 'web-tree-sitter';
import { extractPython } from '../../../server/src/core/formats/python';
import type { Extraction, Range, RequestSite, Setting } from '../../../server/src/core/model/types';
import { loadGrammars } from '../../../server/src/node/grammars';

let python: Language;

/**
 * The grammar the CLI and server use (`loadGrammars`, needs `npm run build`), else straight from
 * node_modules; web-tree-sitter is initialised at most once (a second init invalidates loaded grammars).
 */
async function loadPython(): Promise<Language> {
  try {
    return (await loadGrammars()).python;
  } catch {
    try {
      new Parser().delete();
    } catch {
      await Parser.init();
    }
    return Language.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm'));
  }
}

const extract = (text: string): Extraction => extractPython(text, python);
const slice = (text: string, r: Range): string => text.slice(r.start, r.end);

function find(x: Extraction, key: string, kind?: Setting['kind']): Setting {
  const s = x.settings.find((t) => t.key === key && (kind === undefined || t.kind === kind));
  assert.ok(s, `no ${kind ?? ''} setting ${key} in ${x.settings.map((t) => `${t.kind}:${t.key}`).join(', ')}`);
  return s;
}

function onlySite(x: Extraction): RequestSite {
  assert.equal(x.requestSites.length, 1, `sites: ${JSON.stringify(x.requestSites.map((s) => s.apiKind))}`);
  return x.requestSites[0];
}

/** Applies a site's insertion point with `item` and returns the new text. */
function insert(text: string, site: RequestSite, item: string): string {
  assert.ok(site.insertion, 'site has no insertion point');
  const { offset, prefix, suffix } = site.insertion;
  return text.slice(0, offset) + prefix + item + suffix + text.slice(offset);
}

describe('python extractor', () => {
  before(async () => {
    python = await loadPython();
  });

  describe('keyword arguments', () => {
    it('reads OpenAI(...) kwargs with exact ranges, callee, group and path', () => {
      const text = 'client = OpenAI(base_url="http://x/v1", api_key="sk-test-000")\n';
      const x = extract(text);
      const base = find(x, 'base_url');
      assert.equal(base.kind, 'kwarg');
      assert.equal(base.format, 'python');
      assert.equal(base.callee, 'OpenAI');
      assert.equal(base.path, 'OpenAI.base_url');
      assert.equal(base.group, `call@${text.indexOf('OpenAI')}`);
      assert.equal(base.value, 'http://x/v1');
      assert.equal(base.valueType, 'string');
      assert.equal(base.quote, '"');
      assert.equal(base.raw, '"http://x/v1"');
      assert.equal(slice(text, base.valueRange), '"http://x/v1"');
      assert.equal(slice(text, base.contentRange), 'http://x/v1');
      assert.equal(slice(text, base.keyRange), 'base_url');
      assert.equal(slice(text, base.statementRange), 'base_url="http://x/v1"');
      assert.equal(find(x, 'api_key').group, base.group);
      assert.deepEqual(x.parseProblems, []);
    });

    it('keeps the callee as written for dotted constructors and single quotes', () => {
      const text = "c = openai.AsyncOpenAI(base_url='http://x/v1')\n";
      const s = find(extract(text), 'base_url');
      assert.equal(s.callee, 'openai.AsyncOpenAI');
      assert.equal(s.quote, "'");
      assert.equal(slice(text, s.contentRange), 'http://x/v1');
    });

    it('decodes raw, triple-quoted and escaped strings like CPython', () => {
      const text = [
        'a = Anthropic(base_url=r"C:\\new\\v1", api_key="""sk-test-\\',
        'abc""", default_headers=None)',
        'f(k="a\\tb\\x41\\u00e9\\101\\q", b=b"\\x41\\u00e9", u=u"x\\"y", n=\'it\\\'s\')',
        '',
      ].join('\n');
      const x = extract(text);
      const base = find(x, 'base_url');
      assert.equal(base.value, 'C:\\new\\v1');
      assert.equal(slice(text, base.contentRange), 'C:\\new\\v1');
      assert.equal(find(x, 'api_key').value, 'sk-test-abc');
      assert.equal(find(x, 'default_headers').valueType, 'null');
      assert.equal(find(x, 'k').value, 'a\tbAéA\\q');
      assert.equal(find(x, 'b').value, 'A\\u00e9');
      assert.equal(find(x, 'u').value, 'x"y');
      assert.equal(find(x, 'n').value, "it's");
      assert.equal(find(x, 'n').quote, "'");
    });

    it('types numbers, booleans, None, f-strings, concatenations and names', () => {
      const text = 'f(a=-1_000, b=0.5, c=True, d=False, e=None, g=f"{H}/v1", h=f"x{{y}}", i="a" "b", j=name, k=call(), l=[1], m={"k": 1})\n';
      const x = extract(text);
      const v = (k: string) => [find(x, k).valueType, find(x, k).value];
      assert.deepEqual(v('a'), ['number', '-1000']);
      assert.deepEqual(v('b'), ['number', '0.5']);
      assert.deepEqual(v('c'), ['boolean', 'true']);
      assert.deepEqual(v('d'), ['boolean', 'false']);
      assert.deepEqual(v('e'), ['null', 'null']);
      assert.deepEqual(v('g'), ['dynamic', undefined]);
      assert.equal(find(x, 'g').quote, '"');
      assert.deepEqual(v('h'), ['string', 'x{y}']);
      assert.deepEqual(v('i'), ['string', 'ab']);
      assert.equal(slice(text, find(x, 'i').contentRange), 'a" "b');
      assert.deepEqual(v('j'), ['dynamic', undefined]);
      assert.deepEqual(v('k'), ['dynamic', undefined]);
      assert.deepEqual(v('l'), ['list', undefined]);
      assert.deepEqual(v('m'), ['map', undefined]);
      assert.equal(find(x, 'a').raw, '-1_000');
    });

    it('reads an empty api_key string (case-21)', () => {
      const text = 'from openai import OpenAI\n\nclient = OpenAI(base_url="http://localhost:1234/v1", api_key="")\nprint(client.models.list())\n';
      const key = find(extract(text), 'api_key');
      assert.equal(key.value, '');
      assert.equal(key.valueType, 'string');
      assert.equal(slice(text, key.valueRange), '""');
      assert.equal(key.contentRange.start, key.contentRange.end);
      assert.equal(key.contentRange.start, text.indexOf('api_key=""') + 'api_key="'.length);
    });
  });

  describe('environment', () => {
    it('records os.getenv / os.environ.get / os.environ[...] reads and literal defaults', () => {
      const text = [
        'BASE = os.getenv("OPENAI_BASE_URL", "http://localhost:30000/v1")',
        'ROUTER = os.environ.get("ROUTER_URL") or "http://127.0.0.1:8000"',
        'PORT = int(getenv("PORT", 8000))',
        'HOST = os.environ["SGLANG_HOST"]',
        'KEY = os.environ.get("API_KEY")',
        '',
      ].join('\n');
      const x = extract(text);
      assert.deepEqual(
        x.envReads.map((e) => [e.name, e.defaultValue, slice(text, e.range)]),
        [
          ['OPENAI_BASE_URL', 'http://localhost:30000/v1', 'os.getenv("OPENAI_BASE_URL", "http://localhost:30000/v1")'],
          ['ROUTER_URL', 'http://127.0.0.1:8000', 'os.environ.get("ROUTER_URL")'],
          ['PORT', '8000', 'getenv("PORT", 8000)'],
          ['SGLANG_HOST', undefined, 'os.environ["SGLANG_HOST"]'],
          ['API_KEY', undefined, 'os.environ.get("API_KEY")'],
        ],
      );
      const def = find(x, 'OPENAI_BASE_URL', 'envDefault');
      assert.equal(def.envName, 'OPENAI_BASE_URL');
      assert.equal(def.value, 'http://localhost:30000/v1');
      assert.equal(slice(text, def.valueRange), '"http://localhost:30000/v1"');
      assert.equal(slice(text, def.contentRange), 'http://localhost:30000/v1');
      assert.equal(slice(text, def.keyRange), '"OPENAI_BASE_URL"');
      assert.equal(find(x, 'ROUTER_URL', 'envDefault').value, 'http://127.0.0.1:8000');
      assert.equal(find(x, 'PORT', 'envDefault').valueType, 'number');
      assert.ok(!x.settings.some((s) => s.kind === 'envDefault' && (s.key === 'API_KEY' || s.key === 'SGLANG_HOST')));
      assert.equal(find(x, 'BASE', 'assignment').envName, 'OPENAI_BASE_URL');
    });

    it('treats os.environ["K"] = "v" and os.environ.setdefault as env definitions', () => {
      const text = 'import os\nos.environ["OPENAI_API_KEY"] = "sk-test-1"\nos.environ.setdefault("OPENAI_BASE_URL", \'http://x/v1\')\n';
      const x = extract(text);
      const key = find(x, 'OPENAI_API_KEY');
      assert.equal(key.kind, 'env');
      assert.equal(key.value, 'sk-test-1');
      assert.equal(slice(text, key.keyRange), '"OPENAI_API_KEY"');
      const base = find(x, 'OPENAI_BASE_URL');
      assert.equal(base.kind, 'env');
      assert.equal(base.value, 'http://x/v1');
      assert.deepEqual(x.envReads, []);
    });

    it('a kwarg read from the environment stays a dynamic kwarg and yields client evidence', () => {
      const text = 'c = OpenAI(base_url=os.getenv("X_BASE_URL", "http://x/v1"), api_key=os.environ["X_API_KEY"])\n';
      const x = extract(text);
      const base = find(x, 'base_url', 'kwarg');
      assert.equal(base.valueType, 'dynamic');
      assert.equal(base.value, undefined);
      const def = find(x, 'X_BASE_URL', 'envDefault');
      assert.equal(def.group, base.group);
      assert.deepEqual(x.consumerEvidence.map((e) => [e.target, e.consumer.id, e.consumer.via, slice(text, e.range)]), [
        ['env:X_BASE_URL', 'openai-sdk', 'OpenAI(base_url=…)', 'base_url=os.getenv("X_BASE_URL", "http://x/v1")'],
      ]);
    });
  });

  describe('assignments and dicts', () => {
    it('reads assignments per scope and keeps the last binding', () => {
      const text = [
        'BASE_URL = "http://a/v1"',
        'class Config:',
        '    api_key: str = "sk-test-000"',
        'def run():',
        '    timeout = 30',
        '    self.base_url = "http://c/v1"',
        'BASE_URL = "http://b/v1"',
        '',
      ].join('\n');
      const x = extract(text);
      const bases = x.settings.filter((s) => s.key === 'BASE_URL');
      assert.deepEqual(bases.map((s) => [s.kind, s.value, s.group]), [
        ['assignment', 'http://a/v1', 'scope@0'],
        ['assignment', 'http://b/v1', 'scope@0'],
      ]);
      assert.equal(x.bindings.BASE_URL, bases[1]);
      const key = find(x, 'api_key');
      assert.equal(key.group, `scope@${text.indexOf('class Config')}`);
      assert.equal(slice(text, key.statementRange), 'api_key: str = "sk-test-000"');
      assert.equal(find(x, 'timeout').group, `scope@${text.indexOf('def run')}`);
      const attr = find(x, 'base_url');
      assert.equal(attr.path, 'self.base_url');
      assert.equal(x.bindings['self.base_url'], attr);
    });

    it('reads dict entries and subscript writes into the same group', () => {
      const text = 'body = {"model": "m", "logprobs": False}\nbody["logprobs"] = True\nother["top_logprobs"] = 2\n';
      const x = extract(text);
      assert.equal(x.bindings.body.valueType, 'map');
      const entries = x.settings.filter((s) => s.kind === 'dictEntry');
      const group = `dict@${text.indexOf('{')}`;
      assert.deepEqual(entries.map((s) => [s.key, s.path, s.group, s.value]), [
        ['model', 'body.model', group, 'm'],
        ['logprobs', 'body.logprobs', group, 'false'],
        ['logprobs', 'body.logprobs', group, 'true'],
        ['top_logprobs', 'other.top_logprobs', 'var:other', '2'],
      ]);
      assert.equal(slice(text, entries[0].keyRange), '"model"');
      assert.equal(slice(text, entries[0].statementRange), '"model": "m"');
      assert.equal(slice(text, entries[2].statementRange), 'body["logprobs"] = True');
    });

    it('does not treat __proto__ keys as prototypes', () => {
      const x = extract('__proto__ = "x"\nd = {"__proto__": 1, "model": "m", "prompt": "p"}\n');
      assert.equal(Object.getPrototypeOf(x.bindings), Object.prototype);
      assert.equal(onlySite(x).params.__proto__?.value, '1');
    });
  });

  describe('consumer evidence', () => {
    const evidence = (text: string) => extract(text).consumerEvidence.map((e) => [e.target, e.consumer.id, e.consumer.appendedPath, e.consumer.via]);

    it('reads f-string, +, .format and % joins onto a base', () => {
      const text = [
        'a = f"{BASE}/v1/chat/completions"',
        'b = BASE_URL + "/v1" + "/chat/completions"',
        'c = "{}/v1/completions".format(ROUTER)',
        'd = "%s/chat/completions" % (HOST,)',
        'e = f"{self.base_url.rstrip(\'/\')}/v1/models"',
        "g = f\"{os.getenv('SGLANG_URL')}/generate\"",
        '',
      ].join('\n');
      assert.deepEqual(evidence(text), [
        ['BASE', 'v1-appending', '/v1/chat/completions', 'f"{BASE}/v1/chat/completions"'],
        ['BASE_URL', 'v1-appending', '/v1/chat/completions', 'BASE_URL + "/v1" + "/chat/completions"'],
        ['ROUTER', 'v1-appending', '/v1/completions', '"{}/v1/completions".format(ROUTER)'],
        ['HOST', 'raw', '/chat/completions', '"%s/chat/completions" % (HOST,)'],
        ['self.base_url', 'v1-appending', '/v1/models', 'f"{self.base_url.rstrip(\'/\')}/v1/models"'],
        ['env:SGLANG_URL', 'raw', '/generate', "f\"{os.getenv('SGLANG_URL')}/generate\""],
      ]);
    });

    it('adds env evidence for a variable bound to an env read and shortens long via text', () => {
      const text = 'BASE = os.getenv("OPENAI_BASE_URL", "http://x")\nurl = f"{BASE}/v1/chat/completions?with=a_very_long_query_string_that_goes_on"\n';
      const x = extract(text);
      assert.deepEqual(x.consumerEvidence.map((e) => e.target), ['BASE', 'env:OPENAI_BASE_URL']);
      const via = x.consumerEvidence[0].consumer.via;
      assert.ok(via.length <= 60 && via.endsWith('…'), via);
    });

    it('reads known clients built with a non-literal base, not literal ones', () => {
      const text = [
        'a = AsyncOpenAI(base_url=BASE)',
        'b = ChatOpenAI(openai_api_base=self.api_base)',
        'c = AsyncAnthropic(base_url=os.environ["ANTHROPIC_BASE_URL"])',
        'd = OpenAI(base_url="http://literal/v1")',
        '',
      ].join('\n');
      assert.deepEqual(evidence(text), [
        ['BASE', 'openai-sdk', undefined, 'AsyncOpenAI(base_url=…)'],
        ['self.api_base', 'openai-sdk', undefined, 'ChatOpenAI(openai_api_base=…)'],
        ['env:ANTHROPIC_BASE_URL', 'anthropic', undefined, 'AsyncAnthropic(base_url=…)'],
      ]);
    });

    it('ignores joins that are not URL paths', () => {
      assert.deepEqual(evidence('a = "Bearer " + KEY\nb = name + ".json"\nc = f"{x} items"\nd = f"http://{host}:{port}/v1"\n'), []);
    });
  });

  describe('request sites', () => {
    it('reads SDK call sites of each API kind', () => {
      const text = [
        'from litellm import completion',
        'import litellm',
        'a = client.chat.completions.create(model="m", messages=m, top_logprobs=5)',
        'b = await self.client.completions.create(model="m", prompt="p")',
        'c = client.responses.create(model="m", input="hi")',
        'd = completion(model="m", messages=m)',
        'e = await litellm.acompletion(model="m", messages=m)',
        'f = client.models.list()',
        '',
      ].join('\n');
      const x = extract(text);
      assert.deepEqual(x.requestSites.map((s) => [s.apiKind, s.style, s.callee, slice(text, s.anchorRange), Object.keys(s.params).join(',')]), [
        ['chat', 'kwarg', 'client.chat.completions.create', 'create', 'model,messages,top_logprobs'],
        ['completions', 'kwarg', 'self.client.completions.create', 'create', 'model,prompt'],
        ['responses', 'kwarg', 'client.responses.create', 'create', 'model,input'],
        ['chat', 'kwarg', 'completion', 'completion', 'model,messages'],
        ['chat', 'kwarg', 'litellm.acompletion', 'acompletion', 'model,messages'],
      ]);
      const site = x.requestSites[0];
      assert.equal(slice(text, site.range), 'client.chat.completions.create(model="m", messages=m, top_logprobs=5)');
      assert.equal(site.params.top_logprobs, find(x, 'top_logprobs'));
      assert.equal(site.params.top_logprobs.value, '5');
    });

    it('reads a chat site with top_logprobs and no logprobs (case-25)', () => {
      const text = [
        'from openai import OpenAI',
        '',
        'client = OpenAI(base_url="https://api.example.com/v1", api_key="sk-test-0000000000000000000000000000")',
        'resp = client.chat.completions.create(',
        '    model="example-chat",',
        '    messages=[{"role": "user", "content": "hi"}],',
        '    top_logprobs=5,',
        ')',
        '',
      ].join('\n');
      const site = onlySite(extract(text));
      assert.equal(site.apiKind, 'chat');
      assert.equal(site.params.logprobs, undefined);
      assert.equal(site.params.top_logprobs.value, '5');
      assert.equal(insert(text, site, 'logprobs=True'), text.replace('top_logprobs=5,\n', 'top_logprobs=5,\n    logprobs=True,\n'));
    });

    it('merges **splat and extra_body dicts and skips sites with unknown splats', () => {
      const text = [
        'payload = {"model": "m", "messages": [], "logprobs": True}',
        'a = client.chat.completions.create(**payload, extra_body={"top_logprobs": 3})',
        'b = client.chat.completions.create(model="m", **unknown)',
        '',
      ].join('\n');
      const site = onlySite(extract(text));
      assert.deepEqual(Object.keys(site.params).sort(), ['extra_body', 'logprobs', 'messages', 'model', 'top_logprobs']);
      assert.equal(site.style, 'kwarg');
    });

    it('reads posts with a dict body: literal URL, f-string URL, variable body', () => {
      const text = [
        'r1 = requests.post("http://h:8000/v1/chat/completions", json={"model": "m", "messages": m})',
        'def call(base):',
        '    body = {"model": "m", "prompt": "p"}',
        '    body["logprobs"] = 1',
        '    return httpx.post(f"{base}/v1/completions", json=body)',
        'r3 = session.post(URL + "/generate", json={"text": "t", "sampling_params": {"max_new_tokens": 8}, "return_logprob": True})',
        'r4 = client.post("/health", json={"x": 1})',
        '',
      ].join('\n');
      const x = extract(text);
      assert.deepEqual(x.requestSites.map((s) => [s.apiKind, s.style, s.callee, s.endpoint, Object.keys(s.params).join(',')]), [
        ['chat', 'dict', 'requests.post', 'http://h:8000/v1/chat/completions', 'model,messages'],
        ['completions', 'dict', 'httpx.post', undefined, 'model,prompt,logprobs'],
        ['sglang-generate', 'dict', 'session.post', undefined, 'text,sampling_params,return_logprob,sampling_params.max_new_tokens'],
        ['other', 'dict', 'client.post', '/health', 'x'],
      ]);
      const body = x.requestSites[1];
      assert.equal(slice(text, body.range), '{"model": "m", "prompt": "p"}');
      assert.equal(slice(text, body.anchorRange), '{');
      assert.equal(body.params.logprobs.value, '1');
      assert.equal(slice(text, body.params.logprobs.statementRange), 'body["logprobs"] = 1');
    });

    it('finds body-shaped dicts without a post, once per dict, with mutations', () => {
      const text = [
        'def build():',
        '    req = {"model": MODEL, "messages": msgs}',
        '    req.update({"top_logprobs": 2}, temperature=0)',
        '    req["logprobs"] = True',
        '    sp = {"temperature": 0.7}',
        '    gen = {"input_ids": ids, "sampling_params": sp}',
        '    gen["sampling_params"]["max_new_tokens"] = 16',
        '    other = {"role": "user", "content": "hi"}',
        '    return req, gen',
        '',
      ].join('\n');
      const x = extract(text);
      assert.deepEqual(x.requestSites.map((s) => [s.apiKind, Object.keys(s.params).join(',')]), [
        ['chat', 'model,messages,top_logprobs,temperature,logprobs'],
        ['sglang-generate', 'input_ids,sampling_params,sampling_params.temperature,sampling_params.max_new_tokens'],
      ]);
      assert.equal(find(x, 'max_new_tokens').group, 'var:gen.sampling_params');
    });

    it('computes insertion points in the style of each site', () => {
      const cases: [string, string, string][] = [
        ['r = client.chat.completions.create(model="m", messages=m)\n', 'logprobs=True', 'r = client.chat.completions.create(model="m", messages=m, logprobs=True)\n'],
        ['r = client.chat.completions.create()\n', 'logprobs=True', 'r = client.chat.completions.create(logprobs=True)\n'],
        [
          'r = client.chat.completions.create(\n    model="m",\n    messages=m,\n)\n',
          'logprobs=True',
          'r = client.chat.completions.create(\n    model="m",\n    messages=m,\n    logprobs=True,\n)\n',
        ],
        [
          'r = client.chat.completions.create(\n    model="m",\n    messages=m\n)\n',
          'logprobs=True',
          'r = client.chat.completions.create(\n    model="m",\n    messages=m,\n    logprobs=True\n)\n',
        ],
        [
          'r = client.chat.completions.create(model="m",\n                                   messages=m)\n',
          'logprobs=True',
          'r = client.chat.completions.create(model="m",\n                                   messages=m,\n                                   logprobs=True)\n',
        ],
        [
          'r = client.chat.completions.create(\n  model="m",\n  messages=[\n    {"role": "user", "content": "hi"},\n  ],  # the prompt\n)\n',
          'logprobs=True',
          'r = client.chat.completions.create(\n  model="m",\n  messages=[\n    {"role": "user", "content": "hi"},\n  ],  # the prompt\n  logprobs=True,\n)\n',
        ],
        [
          'r = client.chat.completions.create(model="m", messages=[\n    {"role": "user", "content": "hi"},\n])\n',
          'logprobs=True',
          'r = client.chat.completions.create(model="m", messages=[\n    {"role": "user", "content": "hi"},\n], logprobs=True)\n',
        ],
        ['body = {"model": "m", "messages": m}\n', '"logprobs": True', 'body = {"model": "m", "messages": m, "logprobs": True}\n'],
        [
          'body = {\n\t"model": "m",\n\t"messages": m,\n}\n',
          '"logprobs": True',
          'body = {\n\t"model": "m",\n\t"messages": m,\n\t"logprobs": True,\n}\n',
        ],
      ];
      for (const [text, item, expected] of cases) {
        const result = insert(text, onlySite(extract(text)), item);
        assert.equal(result, expected);
        assert.deepEqual(extract(result).parseProblems, [], result);
      }
    });
  });

  describe('rollout detection', () => {
    const rollout = (text: string) => extract(text).requestSites.map((s) => [s.isRollout, s.rolloutReason]);

    it('marks sites inside rollout/policy functions and classes', () => {
      const text = [
        'async def generate_rollout(client):',
        '    return await client.chat.completions.create(model="m", messages=[])',
        'class PolicyServer:',
        '    def step(self):',
        '        return self.client.completions.create(model="m", prompt="p")',
        'def rollout_worker():',
        '    body = {"text": "t", "sampling_params": {}}',
        'def collectRollouts():',
        '    client.chat.completions.create(model="m", messages=[])',
        '',
      ].join('\n');
      assert.deepEqual(rollout(text), [
        [true, 'function generate_rollout'],
        [true, 'class PolicyServer'],
        [true, 'function rollout_worker'],
        [true, 'function collectRollouts'],
      ]);
    });

    it('marks sites whose result is read at .logprobs or ["meta_info"]', () => {
      const text = [
        'def step(client):',
        '    resp = client.chat.completions.create(model="m", messages=[])',
        '    for choice in resp.choices:',
        '        lp = choice.logprobs',
        'async def gen(session):',
        '    payload = {"text": "t", "sampling_params": {}}',
        '    async with session.post(URL + "/generate", json=payload) as r:',
        '        data = await r.json()',
        '    return data["meta_info"]',
        'def direct(client):',
        '    return client.chat.completions.create(model="m", messages=[]).choices[0].logprobs',
        '',
      ].join('\n');
      assert.deepEqual(rollout(text), [
        [true, 'result read at .logprobs'],
        [true, 'result read at ["meta_info"]'],
        [true, 'result read at .logprobs'],
      ]);
    });

    it('does not mark generate/sample helpers or words that only contain rollout', () => {
      const text = [
        '@app.route("/reply")',
        'def generate_reply():',
        '    resp = client.chat.completions.create(model="m", messages=[])',
        '    return resp.choices[0].message.content',
        'def sample_questions():',
        '    return client.completions.create(model="m", prompt="p")',
        'def enrollout_users():',
        '    client.chat.completions.create(model="m", messages=[])',
        'def generate():',
        '    other = client.chat.completions.create(model="m", messages=[])',
        'def elsewhere(other):',
        '    return other.logprobs',
        '',
      ].join('\n');
      assert.deepEqual(rollout(text), [
        [false, undefined],
        [false, undefined],
        [false, undefined],
        [false, undefined],
      ]);
    });
  });

  describe('malformed input', () => {
    it('reports an unterminated string and still extracts the rest', () => {
      const text = 'BASE_URL = "http://a/v1"\nx = "unterminated\nclient = OpenAI(base_url="http://b/v1", api_key="sk-test-000")\n';
      const x = extract(text);
      assert.equal(x.parseProblems.length, 1);
      assert.match(x.parseProblems[0].message, /unterminated string/);
      assert.equal(slice(text, x.parseProblems[0].range), '"unterminated');
      assert.equal(find(x, 'BASE_URL').value, 'http://a/v1');
      assert.equal(find(x, 'api_key').value, 'sk-test-000');
    });

    it('reports a missing paren and recovers the statements after it', () => {
      const text = [
        'BASE_URL = "http://a/v1"',
        'client = OpenAI(base_url="http://b/v1", api_key="sk-test-000"',
        'KEY = "k"',
        'resp = client.chat.completions.create(model="m", top_logprobs=2)',
        '',
      ].join('\n');
      const x = extract(text);
      assert.ok(x.parseProblems.length >= 1);
      assert.equal(x.parseProblems[0].message, 'Python syntax error: "(" was never closed');
      assert.ok(x.parseProblems.every((p) => !p.message.includes('sk-test')), 'messages never quote source text');
      assert.equal(x.parseProblems[0].range.start, text.indexOf('client'));
      assert.equal(slice(text, x.parseProblems[0].range), 'client = OpenAI(base_url="http://b/v1", api_key="sk-test-000"');
      assert.equal(find(x, 'base_url').value, 'http://b/v1');
      assert.equal(find(x, 'KEY').value, 'k');
      const site = onlySite(x);
      assert.equal(site.callee, 'client.chat.completions.create');
      assert.equal(site.params.top_logprobs.value, '2');
    });

    it('reports a missing closing paren at the end of the file', () => {
      const text = 'x = f(a=1\n';
      const x = extract(text);
      assert.ok(x.parseProblems.length >= 1);
      assert.ok(x.parseProblems.every((p) => p.range.start >= 0 && p.range.end <= text.length));
      assert.equal(find(x, 'a').value, '1');
    });

    it('never throws on arbitrary text and keeps ranges inside it', () => {
      const token = fc.constantFrom(
        'OpenAI(', 'base_url=', '"http://x/v1"', "'", '"""', ')', '(', '{', '}', '[', ']', ':', ',', '\n', '\r\n', '\r', '    ', '\t',
        '# 注释', 'f"{B}/v1"', 'rb"\\x41"', '\\', '\u0000', 'def r_rollout():', 'class PolicyX:', 'x = ', 'body', '["k"]', ' + ',
        'é', '😀', 'os.getenv("K", "d")', 'os.environ["K"]', ' or ', '"model": "m", "messages": [], ', '.chat.completions.create(',
        'requests.post(u, json=', '**kw', 'await ', '.update(', '.logprobs', '["meta_info"]', '"{}/v1".format(', ' % ', 'None', 'True', '-1',
      );
      fc.assert(
        fc.property(fc.array(token, { maxLength: 40 }), fc.string({ maxLength: 20 }), (tokens, noise) => {
          const text = tokens.join('') + noise;
          const x = extract(text);
          const ranges: Range[] = [
            ...x.settings.flatMap((s) => [s.keyRange, s.valueRange, s.contentRange, s.statementRange]),
            ...x.requestSites.flatMap((s) => [s.range, s.anchorRange]),
            ...x.consumerEvidence.map((e) => e.range),
            ...x.comments.map((c) => c.range),
            ...x.parseProblems.map((p) => p.range),
          ];
          for (const r of ranges) assert.ok(r.start >= 0 && r.start <= r.end && r.end <= text.length, JSON.stringify(r));
          for (const p of x.parseProblems) assert.doesNotMatch(p.message, /extractor failed/);
          for (const s of x.settings) assert.equal(slice(text, s.valueRange), s.raw);
          for (const site of x.requestSites) if (site.insertion) assert.ok(site.insertion.offset <= text.length);
        }),
        { numRuns: 400 },
      );
    });

    it('survives deep nesting', () => {
      const text = `x = ${'['.repeat(3000)}${']'.repeat(3000)}\ny = OpenAI(base_url="http://x/v1")\n`;
      assert.equal(find(extract(text), 'base_url').value, 'http://x/v1');
    });
  });

  describe('positions', () => {
    it('keeps exact ranges after Chinese comments and text', () => {
      const text = '# 配置：本地推理服务地址（不要加 /v1/v1）\n# 中文注释 😀\nclient = OpenAI(base_url="http://本地:30000/v1", api_key="sk-test-000")\n';
      const x = extract(text);
      assert.deepEqual(x.comments.map((c) => [c.text, slice(text, c.range)]), [
        ['# 配置：本地推理服务地址（不要加 /v1/v1）', '# 配置：本地推理服务地址（不要加 /v1/v1）'],
        ['# 中文注释 😀', '# 中文注释 😀'],
      ]);
      const base = find(x, 'base_url');
      assert.equal(slice(text, base.contentRange), 'http://本地:30000/v1');
      assert.equal(slice(text, base.keyRange), 'base_url');
      assert.equal(slice(text, find(x, 'api_key').valueRange), '"sk-test-000"');
    });

    it('handles CRLF: ranges, comments without \\r, CRLF insertions', () => {
      const text = '# base\r\nBASE = "http://a/v1"  # trailing\r\nr = client.chat.completions.create(\r\n    model="m",\r\n    messages=m,\r\n)\r\ns = """a\r\nb"""\r\n';
      const x = extract(text);
      assert.deepEqual(x.comments.map((c) => c.text), ['# base', '# trailing']);
      assert.equal(slice(text, x.comments[1].range), '# trailing');
      assert.equal(slice(text, find(x, 'BASE').valueRange), '"http://a/v1"');
      assert.equal(find(x, 's').value, 'a\nb');
      const site = onlySite(x);
      assert.equal(insert(text, site, 'logprobs=True'), text.replace('messages=m,\r\n', 'messages=m,\r\n    logprobs=True,\r\n'));
    });
  });

  describe('shared cases (optional)', () => {
    const root = '/work/shared/cases';
    it('case-21 and case-25 extract as expected when present', function () {
      if (!existsSync(`${root}/case-21/client.py`) || !existsSync(`${root}/case-25/sample.py`)) this.skip();
      const c21 = extract(readFileSync(`${root}/case-21/client.py`, 'utf8'));
      assert.equal(find(c21, 'api_key').value, '');
      const c25 = extract(readFileSync(`${root}/case-25/sample.py`, 'utf8'));
      const site = onlySite(c25);
      assert.equal(site.apiKind, 'chat');
      assert.equal(site.params.top_logprobs.value, '5');
      assert.equal(site.params.logprobs, undefined);
    });
  });
});
