import type { ConsumerId, Loader } from '../../server/src/core/model/types';

/**
 * The conformance matrix: base URLs as a user writes them × every consumer Rollout Lint models, each
 * driven by its real client. `{O}` stands for the case's own recording server (`http://127.0.0.1:<port>`).
 */

/** Base URLs as written (DESIGN "Consumers"; issue 12's list). */
export const BASES: Record<string, string> = {
  bare: '{O}',
  v1: '{O}/v1',
  'v1-slash': '{O}/v1/',
  'v1-v1': '{O}/v1/v1',
  api: '{O}/api',
  'api-v1': '{O}/api/v1',
  endpoint: '{O}/v1/chat/completions',
  utm: '{O}/v1?utm_source=x%2Fy&utm_medium=chat',
  fragment: '{O}/v1#prod',
  'leading-space': '  {O}/v1',
  'trailing-space': '{O}/v1  ',
};

/** The bases an Anthropic-style client is right with, to keep the matrix balanced (`/v1` doubles under them). */
export type Client =
  | 'openai'
  | 'openai-python-2'
  | 'langchain-python'
  | 'anthropic'
  | 'langchain'
  | 'openai-python'
  | 'anthropic-python'
  | 'requests'
  | 'httpx'
  | 'curl'
  | 'claude-code'
  | 'codex'
  | 'openclaw';

/** Which real program runs a client, for skipping a column whose program is missing. */
export const RUNTIME: Record<Client, 'node24' | 'python' | 'python-sdk' | 'python-sdk-2' | 'curl' | 'claude' | 'codex' | 'openclaw'> = {
  openai: 'node24',
  anthropic: 'node24',
  langchain: 'node24',
  'openai-python': 'python-sdk',
  'openai-python-2': 'python-sdk-2',
  'anthropic-python': 'python-sdk',
  'langchain-python': 'python-sdk',
  requests: 'python',
  httpx: 'python',
  curl: 'curl',
  'claude-code': 'claude',
  codex: 'codex',
  openclaw: 'openclaw',
};

/** One case: a document Rollout Lint lints and the client run that reads the same value. */
export interface Case {
  id: string;
  client: Client;
  /** The base URL as written, with `{O}`. */
  base: string;
  /** The file Rollout Lint lints (`{V}` = the value as written in that format). */
  file: { path: string; text: string };
  /** The consumer whose effective request URL is compared, and the `.env` loader whose value it reads. */
  consumer: ConsumerId;
  reader?: Loader;
  /** Client-driver inputs. */
  job: Record<string, unknown>;
  /** openclaw only: the provider's `api` (absent = OpenClaw's default). */
  api?: string;
  /** The request's method (default POST) and, for the Python SDK cases, the call made (default chat). */
  method?: string;
  /**
   * A project manifest beside the file that pins the client's version (`requirements.txt` with
   * `openai==2.54.0`): the lint reads it, and its rows must stand for the pinned client alone.
   */
  manifest?: { path: string; text: string };
  /** Compare the log probs the lint sees on the file's request site with the recorded body's. */
  wire?: boolean;
  /**
   * A JavaScript file beside `file` (a `.env`) that reads the value and makes the call: the lint's row for it
   * (`rollout-lint endpoints --json` over both files) must be the recorded request.
   */
  jsFile?: { path: string; text: string };
}

type DotenvForm = 'unquoted' | 'double' | 'single' | 'comment';
const DOTENV_FORMS: Record<DotenvForm, (v: string) => string> = {
  unquoted: (v) => v,
  double: (v) => `"${v}"`,
  single: (v) => `'${v}'`,
  comment: (v) => `${v} # production endpoint`,
};

function dotenvCases(client: Client, envName: string, consumer: ConsumerId, reader: Loader, forms: DotenvForm[]): Case[] {
  const out: Case[] = [];
  for (const form of forms) {
    for (const [name, base] of Object.entries(BASES)) {
      const text = `${envName}=${DOTENV_FORMS[form](base)}\n`;
      out.push({ id: `${client} · .env ${form} · ${name}`, client, base, consumer, reader, file: { path: '.env', text }, job: { dotenv: text, envName } });
    }
  }
  return out;
}

/**
 * The full chat URL a user writes for a base (curl, `requests.post("…")`): `/chat/completions` after the
 * path, before any query or fragment.
 */
function endpointUrl(base: string): string {
  const cut = base.search(/[?#]/);
  const head = cut === -1 ? base : base.slice(0, cut);
  const tail = cut === -1 ? '' : base.slice(cut);
  const trailing = /\s+$/.exec(head)?.[0] ?? '';
  return `${head.slice(0, head.length - trailing.length).replace(/\/$/, '')}/chat/completions${trailing}${tail}`;
}

/** `/v1/` gives the same full URL as `/v1`. */
const RAW_SKIP = ['v1-slash'];

function perBase(client: Client, make: (base: string, name: string) => Omit<Case, 'id' | 'client' | 'base'>, skip: string[] = []): Case[] {
  return Object.entries(BASES).filter(([name]) => !skip.includes(name)).map(([name, base]) => ({ id: `${client} · ${name}`, client, base, ...make(base, name) }));
}

const py = (s: string) => JSON.stringify(s);

/** Every case of the suite. */
export function allCases(): Case[] {
  return [
    ...dotenvCases('openai', 'OPENAI_BASE_URL', 'openai-sdk', 'nodeDotenv', ['unquoted', 'double', 'single', 'comment']),
    ...dotenvCases('langchain', 'OPENAI_BASE_URL', 'openai-sdk', 'nodeDotenv', ['unquoted', 'double']),
    ...dotenvCases('anthropic', 'ANTHROPIC_BASE_URL', 'anthropic', 'nodeDotenv', ['unquoted', 'double']),
    ...pythonSdkCases(),
    ...pythonCallCases(),
    ...pinnedCases(),
    ...langchainLogprobCases(),
    ...nodeCallCases(),
    ...perBase('requests', (base) => ({
      consumer: 'v1-appending',
      file: { path: 'chat_client.py', text: `import requests\n\nBASE = ${py(base)}\n\n\ndef call():\n    return requests.post(f"{BASE}/v1/chat/completions", json={})\n` },
      job: { base, path: '/v1/chat/completions' },
    })),
    ...perBase('httpx', (base) => ({
      consumer: 'v1-appending',
      file: { path: 'chat_client.py', text: `import httpx\n\nBASE = ${py(base)}\n\n\ndef call():\n    return httpx.post(f"{BASE}/v1/chat/completions", json={})\n` },
      job: { base, path: '/v1/chat/completions' },
    })),
    ...perBase('requests', (base) => ({
      consumer: 'raw',
      file: { path: 'probe.py', text: `import requests\n\nrequests.post(${py(endpointUrl(base))}, json={})\n` },
      job: { base: endpointUrl(base), path: '' },
    }), RAW_SKIP).map((c) => ({ ...c, id: c.id.replace('requests ·', 'requests literal URL ·') })),
    ...perBase('curl', (base) => ({
      consumer: 'raw',
      file: { path: 'probe.sh', text: `#!/usr/bin/env bash\ncurl -sS "${endpointUrl(base)}" -H "Content-Type: application/json" -d '{}'\n` },
      job: { url: endpointUrl(base) },
    }), RAW_SKIP),
    ...perBase('claude-code', (base) => ({
      consumer: 'anthropic',
      file: { path: '.claude/settings.json', text: `{\n  "env": {\n    "ANTHROPIC_BASE_URL": ${JSON.stringify(base)}\n  }\n}\n` },
      job: { env: base },
    })),
    ...perBase('codex', (base) => ({
      consumer: 'openai-responses',
      file: { path: '.codex/config.toml', text: `model_provider = "rec"\n\n[model_providers.rec]\nname = "rec"\nbase_url = ${JSON.stringify(base)}\nwire_api = "responses"\n` },
      job: { base },
    })),
    ...(['', 'openai-completions', 'openai-responses', 'anthropic-messages'] as const).flatMap((api) =>
      perBase('openclaw', (base) => ({
        consumer: api === 'openai-responses' ? 'openai-responses' : api === 'anthropic-messages' ? 'anthropic' : 'openai-sdk',
        api: api || undefined,
        file: {
          path: 'openclaw.json',
          text: `{\n  // OpenClaw reads JSON5\n  models: {\n    providers: {\n      rec: {\n        baseUrl: ${JSON.stringify(base)},\n${api ? `        api: "${api}",\n` : ''}        models: [{ id: "m1", name: "M1" }],\n      },\n    },\n  },\n}\n`,
        },
        job: { base, api },
      })).map((c) => ({ ...c, id: c.id.replace('openclaw ·', `openclaw ${api ? `api ${api}` : 'without api'} ·`) })),
    ),
  ];
}

/**
 * Base URLs for the Python SDK cases: `BASES` plus the path shapes a FastAPI/Starlette server (vLLM, SGLang)
 * answers with 404 and a value without a scheme (`{H}` = `127.0.0.1:<port>`).
 */
export const PY_BASES: Record<string, string> = { ...BASES, 'double-slash': '{O}//v1', 'upper-v1': '{O}/V1', 'no-scheme': '{H}/v1' };

type PyClient = 'openai-python' | 'openai-python-2' | 'anthropic-python' | 'langchain-python';
type PyChannel = 'arg' | 'environ' | 'dotenv-unquoted' | 'dotenv-double' | 'dotenv-single' | 'dotenv-comment' | 'export';

/** Python for one SDK call on a client named `client` (the driver's `call`), with the method it sends. */
export const PY_CALLS: Record<string, { code: string; method: string }> = {
  chat: { code: 'client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], logprobs=True, top_logprobs=1)', method: 'POST' },
  completions: { code: 'client.completions.create(model="m", prompt="hi", logprobs=5, max_tokens=1)', method: 'POST' },
  responses: { code: 'client.responses.create(model="m", input="hi")', method: 'POST' },
  embeddings: { code: 'client.embeddings.create(model="m", input="hi")', method: 'POST' },
  models: { code: 'client.models.list()', method: 'GET' },
  'async-chat': { code: 'await client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], logprobs=True, top_logprobs=1)', method: 'POST' },
  messages: { code: 'client.messages.create(model="m", max_tokens=1, messages=[{"role": "user", "content": "hi"}])', method: 'POST' },
  invoke: { code: 'client.invoke("hi")', method: 'POST' },
  'invoke-bound': { code: 'client.bind(logprobs=True, top_logprobs=5).invoke("hi")', method: 'POST' },
};

const PY_SDK: Record<PyClient, { driver: string; import: string; ctor: string; envName: string; consumer: ConsumerId; call: string; extra: string }> = {
  'openai-python': { driver: 'openai', import: 'from openai import OpenAI', ctor: 'OpenAI', envName: 'OPENAI_BASE_URL', consumer: 'openai-sdk', call: 'chat', extra: '' },
  'openai-python-2': { driver: 'openai', import: 'from openai import OpenAI', ctor: 'OpenAI', envName: 'OPENAI_BASE_URL', consumer: 'openai-sdk', call: 'chat', extra: '' },
  'anthropic-python': { driver: 'anthropic', import: 'from anthropic import Anthropic', ctor: 'Anthropic', envName: 'ANTHROPIC_BASE_URL', consumer: 'anthropic', call: 'messages', extra: '' },
  'langchain-python': { driver: 'langchain', import: 'from langchain_openai import ChatOpenAI', ctor: 'ChatOpenAI', envName: 'OPENAI_BASE_URL', consumer: 'openai-sdk', call: 'invoke', extra: 'model="m", logprobs=True' },
};

/** The Python file that makes `call` on a client built with `args` (`{}` around an async call's body). */
function pyProgram(sdk: (typeof PY_SDK)[PyClient], args: string, call: string, prelude = ''): string {
  const ctorArgs = [sdk.extra, args].filter(Boolean).join(', ');
  if (call === 'async-chat') {
    return `import asyncio\n${prelude ? 'import os\n' : ''}\nfrom openai import AsyncOpenAI\n\n${prelude}\nasync def main():\n    client = AsyncOpenAI(${ctorArgs})\n    ${PY_CALLS[call].code}\n\n\nasyncio.run(main())\n`;
  }
  return `${prelude ? 'import os\n\n' : ''}${sdk.import}\n\n${prelude}client = ${sdk.ctor}(${ctorArgs})\n${PY_CALLS[call].code}\n`;
}

/** One Python SDK case: the client, the channel the base reaches it through, the base, and the call. */
function pyCase(client: PyClient, channel: PyChannel, name: string, base: string, call?: string, envName?: string): Case {
  const sdk = PY_SDK[client];
  const what = call ?? sdk.call;
  const env = envName ?? sdk.envName;
  const job: Record<string, unknown> = { client: sdk.driver, call: what, envName: env };
  let file: Case['file'];
  let reader: Loader | undefined;
  if (channel === 'arg') {
    file = { path: 'rollout.py', text: pyProgram(sdk, `base_url=${py(base)}`, what) };
    job.channel = 'arg';
    job.base = base;
  } else if (channel === 'environ') {
    file = { path: 'rollout.py', text: pyProgram(sdk, '', what, `os.environ[${py(env)}] = ${py(base)}\n`) };
    job.channel = 'environ';
    job.base = base;
  } else if (channel === 'export') {
    file = { path: 'launch.sh', text: `#!/usr/bin/env bash\nexport ${env}="${base}"\npython rollout.py\n` };
    job.channel = 'export';
    job.text = file.text;
  } else {
    const form = channel.slice('dotenv-'.length) as DotenvForm;
    file = { path: '.env', text: `${env}=${DOTENV_FORMS[form](base)}\n` };
    reader = 'pythonDotenv';
    job.channel = 'dotenv';
    job.text = file.text;
  }
  const label = [client, channel, ...(env !== sdk.envName && channel !== 'arg' ? [env] : []), name, ...(call ? [call] : [])].join(' · ');
  return { id: label, client, base, consumer: sdk.consumer, reader, file, job, method: PY_CALLS[what].method };
}

const PY_CHANNELS: PyChannel[] = ['arg', 'environ', 'dotenv-unquoted', 'dotenv-double', 'dotenv-single', 'dotenv-comment', 'export'];

/**
 * The real Python SDKs (issue 30): every base × channel for openai-python 3, anthropic-python and
 * langchain-openai; openai-python 2 through its constructor and the environment (its join differs on a
 * query); langchain-openai reading OPENAI_API_BASE; and each call kind on a few bases.
 */
function pythonSdkCases(): Case[] {
  const out: Case[] = [];
  const bases = Object.entries(PY_BASES);
  for (const client of ['openai-python', 'anthropic-python', 'langchain-python'] as const) {
    for (const channel of PY_CHANNELS) for (const [name, base] of bases) out.push(pyCase(client, channel, name, base));
  }
  for (const channel of ['arg', 'environ'] as const) for (const [name, base] of bases) out.push(pyCase('openai-python-2', channel, name, base));
  // A .env alone does not show that ChatOpenAI reads it (env-legacy-name then warns); the workspace test does (test/unit/rules/env-legacy-langchain.test.ts).
  for (const name of ['v1', 'v1-v1']) out.push(pyCase('langchain-python', 'environ', name, PY_BASES[name], undefined, 'OPENAI_API_BASE'));
  return out;
}

/** The call-kind cases (endpoint per call), kept apart so the suite can report them on their own. */
export function pythonCallCases(): Case[] {
  const out: Case[] = [];
  for (const call of ['completions', 'responses', 'embeddings', 'models', 'async-chat']) {
    for (const name of ['v1', 'v1-slash', 'utm', 'bare']) {
      out.push(pyCase('openai-python', 'arg', name, PY_BASES[name], call));
      out.push(pyCase('openai-python', 'environ', name, PY_BASES[name], call));
    }
  }
  for (const name of ['v1', 'utm']) out.push(pyCase('langchain-python', 'arg', name, PY_BASES[name], 'invoke-bound'));
  return out;
}

/** Manifests that pin each openai-python major the suite runs (the venvs hold exactly these versions). */
const PINS: Record<'openai-python' | 'openai-python-2', { path: string; text: string }> = {
  'openai-python-2': { path: 'requirements.txt', text: 'openai==2.54.0\npython-dotenv==1.2.4\n' },
  'openai-python': { path: 'pyproject.toml', text: '[project]\nname = "rollout"\nversion = "0.1.0"\ndependencies = ["openai>=3,<4", "python-dotenv>=1.2"]\n' },
};

/**
 * A project that pins its openai version (issue 30): its rows stand for that client alone — the URL of the
 * version it runs, and no openai-node reading of its `.env` — on the bases where clients differ (a query,
 * a fragment, trailing spaces).
 */
export function pinnedCases(): Case[] {
  const out: Case[] = [];
  for (const client of ['openai-python-2', 'openai-python'] as const) {
    for (const channel of ['arg', 'dotenv-unquoted', 'dotenv-double'] as const) {
      for (const name of ['v1', 'utm', 'fragment', 'trailing-space']) {
        const c = pyCase(client, channel, name, PY_BASES[name]);
        out.push({ ...c, id: `${c.id} · pinned in ${PINS[client].path}`, manifest: PINS[client] });
      }
    }
  }
  return out;
}

/** A Python literal for a JSON-like value (`True`, `5`, `{"logprobs": True}`). */
function pyValue(v: unknown): string {
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${py(k)}: ${pyValue(x)}`).join(', ')}}`;
  return JSON.stringify(v);
}

const pyKwargs = (kw: Record<string, unknown>) => Object.entries(kw).map(([k, v]) => `${k}=${pyValue(v)}`).join(', ');

/**
 * langchain-openai log-prob parameters (issue 30): at construction (pydantic fields, `model_kwargs`), by
 * `.bind(…)`, both; the body langchain-openai 1.6.6 sends is compared with the request site the lint sees.
 */
export function langchainLogprobCases(): Case[] {
  const variants: { name: string; ctor: Record<string, unknown>; bind?: Record<string, unknown> }[] = [
    { name: 'ctor logprobs', ctor: { logprobs: true } },
    { name: 'ctor top_logprobs only', ctor: { top_logprobs: 5 } },
    { name: 'ctor both', ctor: { logprobs: true, top_logprobs: 3 } },
    { name: 'ctor model_kwargs', ctor: { model_kwargs: { logprobs: true, top_logprobs: 2 } } },
    { name: 'bind both', ctor: {}, bind: { logprobs: true, top_logprobs: 5 } },
    { name: 'bind top_logprobs only', ctor: {}, bind: { top_logprobs: 2 } },
    { name: 'ctor top_logprobs, bind logprobs', ctor: { top_logprobs: 4 }, bind: { logprobs: true } },
    { name: 'ctor logprobs, bind false', ctor: { logprobs: true }, bind: { logprobs: false } },
    { name: 'ctor false, bind logprobs', ctor: { logprobs: false }, bind: { logprobs: true } },
  ];
  const base = PY_BASES.v1;
  return variants.map(({ name, ctor, bind }) => {
    const args = [pyKwargs({ model: 'm', ...ctor }), `base_url=${py(base)}`].join(', ');
    const call = bind ? `client.bind(${pyKwargs(bind)}).invoke("hi")` : 'client.invoke("hi")';
    const text = `from langchain_openai import ChatOpenAI\n\nclient = ChatOpenAI(${args})\n${call}\n`;
    return {
      id: `langchain-python · arg · v1 · ${name}`,
      client: 'langchain-python',
      base,
      consumer: 'openai-sdk',
      file: { path: 'rollout.py', text },
      job: { client: 'langchain', call: 'invoke-kw', channel: 'arg', base, ctorKw: ctor, ...(bind ? { bindKw: bind } : {}) },
      method: 'POST',
      wire: true,
    } satisfies Case;
  });
}

/** openai-node calls and the JavaScript that makes them on a client reading OPENAI_BASE_URL. */
const JS_CALLS: Record<string, { code: string; method: string }> = {
  chat: { code: 'await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });', method: 'POST' },
  completions: { code: 'await client.completions.create({ model: "m", prompt: "hi", logprobs: 5, max_tokens: 1 });', method: 'POST' },
  responses: { code: 'await client.responses.create({ model: "m", input: "hi" });', method: 'POST' },
  embeddings: { code: 'await client.embeddings.create({ model: "m", input: "hi" });', method: 'POST' },
  models: { code: 'await client.models.list();', method: 'GET' },
};

/**
 * Endpoint per call for openai-node (issue 30): a `.env` value read by `new OpenAI({ baseURL:
 * process.env.OPENAI_BASE_URL })` and one call; the JavaScript file's row is the request openai-node sends.
 */
export function nodeCallCases(): Case[] {
  const out: Case[] = [];
  for (const [call, { code, method }] of Object.entries(JS_CALLS)) {
    for (const name of ['v1', 'v1-slash', 'utm']) {
      const text = `OPENAI_BASE_URL=${BASES[name]}\n`;
      const js = `import OpenAI from "openai";\n\nconst client = new OpenAI({ baseURL: process.env.OPENAI_BASE_URL });\n${code}\n`;
      out.push({
        id: `openai · run.mjs · ${call} · ${name}`,
        client: 'openai',
        base: BASES[name],
        consumer: 'openai-sdk',
        reader: 'nodeDotenv',
        file: { path: '.env', text },
        job: { dotenv: text, envName: 'OPENAI_BASE_URL', call },
        method,
        jsFile: { path: 'run.mjs', text: js },
      });
    }
  }
  return out;
}
