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
export const RUNTIME: Record<Client, 'node24' | 'python' | 'curl' | 'claude' | 'codex' | 'openclaw'> = {
  openai: 'node24',
  anthropic: 'node24',
  langchain: 'node24',
  'openai-python': 'python',
  'anthropic-python': 'python',
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
    ...dotenvCases('openai-python', 'OPENAI_BASE_URL', 'openai-sdk', 'pythonDotenv', ['unquoted', 'double', 'single', 'comment']),
    ...perBase('openai-python', (base) => ({
      consumer: 'openai-sdk',
      file: { path: 'client.py', text: `from openai import OpenAI\n\nclient = OpenAI(base_url=${py(base)})\n` },
      job: { base, path: '/chat/completions' },
    })).map((c) => ({ ...c, id: c.id.replace('openai-python ·', 'openai-python · OpenAI(base_url=…) ·') })),
    ...perBase('anthropic-python', (base) => ({
      consumer: 'anthropic',
      file: { path: 'client.py', text: `from anthropic import Anthropic\n\nclient = Anthropic(base_url=${py(base)})\n` },
      job: { base, path: '/v1/messages' },
    })),
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
