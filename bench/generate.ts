/**
 * Seeded generator of benchmark inputs (issue 16 item 4): a workspace tree shaped like an RL code base
 * (per 100 files about 40 Python, 35 JSON data, 10 YAML, 8 shell, 1 `.env`, 6 others; a minority
 * with trigger tokens, as in OpenClaw-RL), and 1,000-line documents per format for the engine and the
 * language server. The same seed gives the same bytes on every machine.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** mulberry32: a small, fast 32-bit PRNG; returns floats in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FAKE_KEY = 'sk-test-0000000000000000000000000000';

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

function pythonPlain(r: Rand, lines: number): string {
  let out = 'import os\nimport torch\n\n';
  for (let i = 0; out.split('\n').length < lines; i++) {
    out += `\ndef step_${i}(batch, lr=${(r() / 100).toFixed(5)}):\n    """Update ${i}."""\n    loss = batch["x"] * ${int(r, 1, 9)} + torch.ones(${int(r, 1, 64)})\n    for j in range(${int(r, 2, 20)}):\n        loss = loss - lr * j\n    return {"loss": loss, "step": ${i}}\n`;
  }
  return out;
}

/** Picks a correct value most of the time and a mistake in about one block in `1 / bad`. */
const mostly = <T>(r: Rand, good: readonly T[], bad: readonly T[], rate = 0.05): T => (r() < rate ? pick(r, bad) : pick(r, good));

function pythonClient(r: Rand, lines: number): string {
  let out = 'import os\nfrom openai import OpenAI\n\n';
  for (let i = 0; out.split('\n').length < lines; i++) {
    const base = mostly(r, ['http://127.0.0.1:30000/v1', 'https://taotoken.net/api/v1', 'os.environ.get("OPENAI_BASE_URL")'], ['http://localhost:8000/v1/v1']);
    const quoted = base.startsWith('os.') ? base : `"${base}"`;
    out += `\ndef rollout_${i}(prompt):\n    client = OpenAI(base_url=${quoted}, api_key=os.getenv("OPENAI_API_KEY", "EMPTY"))\n    out = client.chat.completions.create(model="policy-${i}", messages=[{"role": "user", "content": prompt}], logprobs=True, top_logprobs=${mostly(r, [0, 1, 5, 20], [25])})\n    return out.choices[0].logprobs\n`;
  }
  return out;
}

function yamlPlain(r: Rand, lines: number): string {
  let out = '';
  for (let i = 0; out.split('\n').length < lines; i++) out += `layer_${i}:\n  hidden: ${int(r, 64, 8192)}\n  dropout: ${r().toFixed(2)}\n  names: [a${i}, b${i}]\n`;
  return out;
}

function yamlEndpoint(r: Rand, lines: number): string {
  let out = '';
  for (let i = 0; out.split('\n').length < lines; i++) {
    out += `worker_${i}:\n  base_url: ${mostly(r, ['http://10.0.0.1:30000/v1', 'https://taotoken.net/api/v1'], ['https://taotoken.net/api/v1/', 'http://localhost:8000/v1/v1'])}\n  api_key: ${mostly(r, ['${OPENAI_API_KEY}', 'EMPTY'], [FAKE_KEY])}\n  sampling:\n    logprobs: ${mostly(r, ['true', 'false'], ['"true"'])}\n    top_logprobs: ${mostly(r, [0, 1, 5], [25])}\n`;
  }
  return out;
}

function shellScript(r: Rand, lines: number, trigger: boolean): string {
  let out = '#!/bin/bash\nset -euo pipefail\n';
  for (let i = 0; out.split('\n').length < lines; i++) {
    if (trigger) out += `export SVC${i}_BASE_URL=http://127.0.0.1:${8000 + int(r, 0, 99)}/v1\npython3 train.py \\\n  --rollout-batch-size ${int(r, 1, 64)} \\\n  --sglang-router-ip ${mostly(r, ['10.0.0.2', '${ROUTER_IP}'], ['0.0.0.0'])} --top_logprobs ${int(r, 0, 9)}\n`;
    else out += `echo "stage ${i}"\nfor f in data/*.bin; do cp "$f" out/${i}/; done\nNUM_GPUS=${int(r, 1, 8)}\n`;
  }
  return out;
}

function dotenvFile(r: Rand, lines: number): string {
  let out = '';
  for (let i = 0; out.split('\n').length < lines; i++) out += `# service ${i}\nSVC${i}_BASE_URL=${mostly(r, ['http://10.0.0.1:8000/v1', 'https://taotoken.net/api/v1', 'http://localhost:30000/v1'], ['http://10.0.0.1:8000/v1/', 'https://taotoken.net/api'])}\nSVC${i}_API_KEY=${mostly(r, ['${TAOTOKEN_API_KEY}', 'EMPTY'], ['your-api-key-here', ' sk-spaced '])}\nSVC${i}_MODEL=policy-${i}\n`;
  return out;
}

function jsonData(r: Rand, bytes: number): string {
  const rows: string[] = [];
  for (let n = 0; n < bytes; ) {
    const row = `{"id": ${int(r, 0, 1e6)}, "prompt": "question ${int(r, 0, 1e6)}", "reward": ${r().toFixed(4)}}`;
    rows.push(row);
    n += row.length + 2;
  }
  return `[\n${rows.join(',\n')}\n]\n`;
}

function openclawJson(r: Rand): string {
  return `${JSON.stringify({ models: { providers: { tao: { baseUrl: pick(r, ['https://taotoken.net/api/v1', 'https://taotoken.net/api/v1/chat/completions']), apiKey: '${TAOTOKEN_API_KEY}', api: 'openai-completions', models: [{ id: 'qwen3', name: 'Qwen3' }] } } } }, null, 2)}\n`;
}

/**
 * A 1,000-line document of `format` dense with settings the rules read, as a user's big config is:
 * mostly correct, a mistake in about one block in twenty (engine and server benchmarks).
 */
export function documentOf(format: 'dotenv' | 'yaml' | 'json' | 'python' | 'shell' | 'toml' | 'notebook', seed = 16): { name: string; text: string } {
  const r = rng(seed);
  switch (format) {
    case 'dotenv':
      return { name: '.env', text: dotenvFile(r, 1000) };
    case 'yaml':
      return { name: 'rollout.yaml', text: yamlEndpoint(r, 1000) };
    case 'python':
      return { name: 'policy_serving.py', text: pythonClient(r, 1000) };
    case 'shell':
      return { name: 'run.sh', text: shellScript(r, 1000, true) };
    case 'toml': {
      let text = '';
      for (let i = 0; text.split('\n').length < 1000; i++) text += `[model_providers.p${i}]\nname = "P${i}"\nbase_url = "${mostly(r, ['http://10.0.0.1:8000/v1', 'https://taotoken.net/api/v1'], ['http://10.0.0.1:8000/v1/v1'])}"\nenv_key = "P${i}_API_KEY"\nwire_api = "chat"\n\n`;
      return { name: 'config.toml', text };
    }
    case 'notebook': {
      const source = pythonClient(r, 1000).split(/(?<=\n)/);
      const cells = [];
      for (let i = 0; i < source.length; i += 50) cells.push({ cell_type: 'code', metadata: {}, execution_count: null, outputs: [], source: source.slice(i, i + 50) });
      return { name: 'rollout.ipynb', text: `${JSON.stringify({ cells, metadata: { kernelspec: { language: 'python' } }, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n` };
    }
    case 'json': {
      const providers: Record<string, unknown> = {};
      for (let i = 0; i < 110; i++) providers[`p${i}`] = { baseUrl: mostly(r, ['https://api.example.com/v1', 'https://taotoken.net/api/v1'], ['https://api.example.com/v1/']), apiKey: '${TAOTOKEN_API_KEY}', api: 'openai-completions' };
      return { name: 'openclaw.json', text: `${JSON.stringify({ models: { providers } }, null, 2)}\n` };
    }
  }
}

/** One file of a generated tree: its path (`/`-separated, relative) and its text. */
export interface GeneratedFile {
  path: string;
  text: string;
}

/** The files of a generated tree of `count` files (deterministic for `seed`). */
export function treeFiles(count: number, seed = 16): GeneratedFile[] {
  const r = rng(seed ^ count);
  const files: GeneratedFile[] = [];
  let dir = 'pkg0';
  for (let i = 0; i < count; i++) {
    if (i % 20 === 0) dir = `${pick(r, ['examples', 'recipes', 'src', 'tools', 'configs'])}/${pick(r, ['grpo', 'ppo', 'opd', 'rl', 'sft'])}_${Math.floor(i / 200)}/part_${Math.floor(i / 20) % 10}`;
    const slot = i % 100;
    const lines = int(r, 20, 160);
    let file: GeneratedFile;
    if (slot < 40) file = { path: `${dir}/mod_${i}.py`, text: r() < 0.15 ? pythonClient(r, lines) : pythonPlain(r, lines) };
    else if (slot < 75) file = { path: `${dir}/data_${i}.json`, text: jsonData(r, int(r, 500, 30_000)) };
    else if (slot === 75) file = { path: `${dir}/openclaw.json`, text: openclawJson(r) };
    else if (slot < 86) file = { path: `${dir}/conf_${i}.${r() < 0.8 ? 'yaml' : 'yml'}`, text: r() < 0.1 ? yamlEndpoint(r, lines / 2) : yamlPlain(r, lines) };
    else if (slot < 94) file = { path: `${dir}/run_${i}.sh`, text: shellScript(r, lines / 2, r() < 0.3) };
    else if (slot === 94) file = { path: `${dir}/.env.example`, text: dotenvFile(r, 12) };
    else if (slot === 95) file = { path: `${dir}/.gitignore`, text: '__pycache__/\n*.log\nout/\n' };
    else file = { path: `${dir}/NOTES_${i}.md`, text: `# notes ${i}\n\n${'lorem ipsum '.repeat(int(r, 5, 50))}\n` };
    files.push(file);
  }
  return files;
}

/** Writes `files` under `root` and makes it a git checkout with everything committed (as a user's clone). */
export function writeCheckout(root: string, files: readonly GeneratedFile[]): void {
  for (const f of files) {
    const abs = join(root, f.path);
    mkdirSync(join(abs, '..'), { recursive: true });
    writeFileSync(abs, f.text);
  }
  gitCommitAll(root);
}

/** `git init` + add everything (also ignored files) + one commit, quietly. */
export function gitCommitAll(root: string): void {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', '-c', 'commit.gpgsign=false', ...args], { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A', '-f');
  git('commit', '-qm', 'bench');
}
