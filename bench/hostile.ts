/**
 * The inputs of issue 29 (repro #2, repro #6 and the 5 MB-class list under its table) and issue 27
 * item 3, generated into fresh git work trees for `npm run bench` (`--skip hostile` leaves them out).
 * Each is `[name, files]`; paths are relative to the tree's root.
 */
export type HostileInput = [name: string, files: [path: string, text: string][]];

const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join('');

/** A plain `.env` of `n` ordinary lines (issue 29 repro #2: 10,000 vs 20,000). */
export function plainEnv(n: number): HostileInput {
  return [`plain .env, ${n} lines`, [['.env', lines(n, (i) => `VAR_${i}=value-${i}\n`)]]];
}

/** Issue 29 repro #6: per package of 100 files, 20 `.env.mN`, 20 YAML base URLs, 10 Python readers of OPENAI_BASE_URL, 50 other Python files. */
export function crossFileTree(files: number): HostileInput {
  const out: [string, string][] = [];
  for (let f = 0; f < files / 100; f++) {
    for (let i = 0; i < 20; i++) {
      out.push([`pkg${f}/.env.m${i}`, `OPENAI_BASE_URL=https://h${f}-${i}.example.com/v1\nOTHER_${i}=x\n`]);
      out.push([`pkg${f}/y${i}.yaml`, `rollout:\n  base_url: https://h${f}-${i}.example.com/v1\n  model: m${i}\n`]);
    }
    for (let i = 0; i < 10; i++) out.push([`pkg${f}/r${i}.py`, 'import os\nfrom openai import OpenAI\nclient = OpenAI(base_url=os.getenv("OPENAI_BASE_URL"))\n']);
    for (let i = 0; i < 50; i++) out.push([`pkg${f}/u${i}.py`, `print(${i})\n`]);
  }
  return [`cross-file tree, ${files} files`, out];
}

/** Issue 27 item 3: a 400 KB YAML with a 30k-string list and a 100 KB JSON array of numbers (each ≤ 2 s, no skipped-file). */
export const FLAT: HostileInput[] = [
  ['YAML, 30k-string list', [['config.yaml', `rollout:\n  base_url: https://api.example.com/v1\nitems:\n${lines(30000, (i) => `  - "s${i}"\n`)}`]]],
  ['JSON, 100 KB array of numbers', [['openclaw.json', `{"models":{"providers":{"a":{"baseUrl":"https://api.example.com/v1"}}},"nums":[${Array.from({ length: 20000 }, (_, i) => i).join(',')}]}`]]],
];

/** The 5 MB-class inputs listed under issue 29's table (each ≤ 5 s, ≤ 8 s CPU, ≤ 800 MB, linted or skipped). */
export const FIVE_MB: HostileInput[] = [
  ['.env, 85k identical fixable lines', [['.env', 'OPENAI_BASE_URL=https://api.example.com/v1/v1\n'.repeat(85000)]]],
  ['.env, 40k base/key pairs', [['.env', lines(40000, (i) => `OPENAI_BASE_URL=https://h${i}.example.com/v1/v1\nOPENAI_API_KEY=sk-aaaaaaaaaaaaaaaaaaaa${i}\n`)]]],
  ['.env, 60k chained ${V}${V}', [['.env', `V=x\n${'V=${V}${V}\n'.repeat(60000)}`]]],
  ['.env, unterminated X=" then 160k lines', [['.env', `X="\n${lines(160000, (i) => `L${i}=v\n`)}`]]],
  ['settings.json, 40k env pairs', [['.claude/settings.json', `{"env": {${Array.from({ length: 40000 }, (_, i) => `"K_${i}": "https://h${i}.example.com/v1"`).join(',')}}}`]]],
  ['TOML, 95k [[t]] tables', [['config.toml', '[[t]]\nbase_url = "https://h.example.com/v1"\n'.repeat(95000)]]],
  ['TOML, 100k tables', [['pyproject.toml', lines(100000, (i) => `[t${i}]\nbase_url = "https://h.example.com/v1"\n`)]]],
  ['YAML, 100k anchors', [['x.yaml', lines(100000, (i) => `a${i}: &a${i} https://h.example.com/v1\n`)]]],
  ['YAML, 60k list items', [['x.yaml', `items:\n${lines(60000, (i) => `  - base_url: https://h${i}.example.com/v1\n`)}`]]],
  ['shell, 40k curl lines', [['run.sh', lines(40000, (i) => `curl -H "Authorization: Bearer $OPENAI_API_KEY" https://api.example.com/v1/chat/completions -d @x${i}.json\n`)]]],
  ['Python, 60k OpenAI() calls', [['c.py', `from openai import OpenAI\n${lines(60000, (i) => `c${i} = OpenAI(base_url="https://h${i}.example.com/v1")\n`)}`]]],
  ['openclaw.json, 28k providers', [['openclaw.json', `{"models":{"providers":{${Array.from({ length: 28000 }, (_, i) => `"p${i}":{"baseUrl":"https://h${i}.example.com/v1","apiKey":"x","api":"openai-completions"}`).join(',')}}}}`]]],
  ['shell, 100k nested $(', [['n.sh', `export OPENAI_BASE_URL=${'$('.repeat(100000)}${')'.repeat(100000)}\n`]]],
  ['shell, 500k line continuations', [['c.sh', `python run.py --base-url https://h.example.com/v1 ${'\\\n  --x 1 '.repeat(500000)}\n`]]],
];
