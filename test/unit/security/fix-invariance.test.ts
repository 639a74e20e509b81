import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse as parseDotenv } from 'dotenv';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseYaml } from 'yaml';
import { lintDocument } from '../../../server/src/core/lint';
import { applyEdits } from '../../../server/src/core/fix';
import { loadGrammars } from '../../../server/src/node/grammars';
import type { Grammars } from '../../../server/src/core/formats/treesitter';
import { fuzzParameters } from '../../support/fuzz';

/**
 * Issue 13 item 3: every safe fix changes the *loaded* value of its setting as intended and nothing
 * else, judged by the real readers, independently of Rollout Lint's own extractors: npm dotenv,
 * python-dotenv and bash `set -a; . file` for .env files, jsonc-parser for JSON, the `yaml` package
 * for YAML and CPython's `ast` for Python string literals.
 */

type Values = Record<string, string>;
type Case = { path: string; before: string; after: string; ruleId: string; title: string };

const KEY = 'sk-test-Q7vT2mXk9LpR4sWn8ZcY1bHd6Fj';

/** The value each safe fix means to produce from the value before it (DESIGN "Fix safety"). */
const INTENDED: Record<string, (v: string) => string> = {
  'base-url-duplicate-v1': (v) => v.replace(/\/(v\d+)\/\1(?=\/|\?|#|\s*$)/, '/$1'),
  'base-url-query-string': (whole) => {
    const [lead, v, trail] = /^(\s*)([^]*?)(\s*)$/.exec(whole)!.slice(1);
    const q = v.indexOf('?');
    const hash = v.indexOf('#', q) >= 0 ? v.slice(v.indexOf('#', q)) : '';
    const query = v.slice(q + 1, hash ? v.indexOf('#', q) : undefined);
    const kept = query.split('&').filter((p) => p && !/^(utm_[a-z_]+|fbclid|gclid|dclid|gbraid|wbraid|msclkid|yclid|mc_cid|mc_eid|spm|_ga|_gl)(=|$)/i.test(p));
    return lead + v.slice(0, q) + (kept.length ? `?${kept.join('&')}` : '') + hash + trail;
  },
  'api-key-whitespace': (v) => v.trim(),
  'base-url-malformed': (v) => v.trim(),
  'api-key-bearer-prefix': (v) => v.replace(/^\s*bearer\s+/i, ''),
};

const URLS = ['https://api.example.com/v1/v1', 'https://api.example.com/v1?utm_source=x', 'https://api.example.com/v1/v1?utm_source=x&lang=zh', 'https://api.example.com/v1/', 'http://10.0.0.5:30000/v1'];
const URL_ESCAPES = ['', '\\n', '\\\\', '\\u002F', '\\t', '\\"', ' '];

function python(script: string, input: unknown): unknown {
  const r = spawnSync('python3', ['-c', script], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

let hasPythonDotenv: boolean | undefined;
function pythonDotenvAvailable(): boolean {
  hasPythonDotenv ??= spawnSync('python3', ['-c', 'import dotenv'], { stdio: 'ignore' }).status === 0;
  return hasPythonDotenv;
}

/** Every loader's variables for each text: `node` (npm dotenv), `python` (python-dotenv), `bash`. */
function dotenvReaders(texts: string[]): Record<string, Values>[] {
  const node = texts.map((t) => ({ ...parseDotenv(t) }));
  const py = pythonDotenvAvailable()
    ? (python('import sys,json,io\nfrom dotenv import dotenv_values\nprint(json.dumps([{k:v for k,v in dotenv_values(stream=io.StringIO(t)).items() if v is not None} for t in json.load(sys.stdin)]))', texts) as Values[])
    : texts.map(() => ({}));
  const dir = mkdtempSync(join(tmpdir(), 'rollout-lint-fix-inv-'));
  try {
    const bash = texts.map((t, i) => {
      const file = join(dir, `${i}.env`);
      writeFileSync(file, t);
      const r = spawnSync('bash', ['--noprofile', '--norc', '-c', `set -a; . "$1" >/dev/null 2>&1; status=$?; env -0; echo "__status=$status"`, 'x', file], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' }, cwd: dir });
      const vars: Values = {};
      for (const entry of r.stdout.split('\0')) {
        const eq = entry.indexOf('=');
        if (eq > 0 && /^[A-Z_]+_(BASE_URL|API_KEY)$/.test(entry.slice(0, eq))) vars[entry.slice(0, eq)] = entry.slice(eq + 1);
      }
      // A command the edit turned loose (`staging relay`) shows as "command not found" on stderr.
      if (/command not found|not found/.test(r.stderr)) vars.__ran_command = r.stderr;
      return vars;
    });
    return texts.map((_, i) => ({ node: node[i], python: py[i], bash: bash[i] }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Leaves of a JSON/YAML value by dotted path. */
function leaves(value: unknown, prefix = '', out: Values = {}): Values {
  if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  else out[prefix] = JSON.stringify(value);
  return out;
}

/** Keyword string arguments of every call in Python source, by `callee.kw#n`, read by CPython's ast. */
function pythonReaders(texts: string[]): Record<string, Values>[] {
  const script = `import sys,json,ast
out=[]
for t in json.load(sys.stdin):
    vals={}
    try:
        tree=ast.parse(t)
        n=0
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                for kw in node.keywords:
                    n+=1
                    v=kw.value
                    if isinstance(v,ast.JoinedStr) and all(isinstance(x,ast.Constant) for x in v.values):
                        v=ast.Constant(value=''.join(x.value for x in v.values))
                    vals[f"{kw.arg}#{getattr(node,'lineno',0)}"]=v.value if isinstance(v,ast.Constant) and isinstance(v.value,str) else ast.dump(v)
    except SyntaxError as e:
        vals['__syntax_error']=str(e)
    out.append(vals)
print(json.dumps(out))`;
  return (python(script, texts) as Values[]).map((v) => ({ ast: v }));
}

function readers(path: string, texts: string[]): Record<string, Values>[] {
  if (path.endsWith('.env')) return dotenvReaders(texts);
  if (path.endsWith('.py')) return pythonReaders(texts);
  if (path.endsWith('.json')) return texts.map((t) => ({ json: leaves(parseJsonc(t)) }));
  return texts.map((t) => {
    try {
      return { yaml: leaves(parseYaml(t)) };
    } catch (error) {
      return { yaml: { __error: String(error) } };
    }
  });
}

const quoted = (q: string, v: string) => `${q}${v}${q}`;

/** Documents per format with values that trigger safe fixes, in every quoting, with escapes and inline comments. */
const DOCUMENTS: Record<string, fc.Arbitrary<string>> = {
  '.env': fc
    .uniqueArray(
      fc.record({
        key: fc.constantFrom('OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL', 'TAOTOKEN_BASE_URL', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY'),
        url: fc.constantFrom(...URLS),
        key2: fc.constantFrom(KEY, ` ${KEY}`, `${KEY}  `, `Bearer ${KEY}`),
        quote: fc.constantFrom('', '"', "'"),
        comment: fc.constantFrom('', ' # staging relay', '  # 中文注释', '\t# c', ' #'),
        pad: fc.constantFrom('', ' ', '  '),
      }),
      { selector: (r) => r.key, minLength: 1, maxLength: 5 },
    )
    .map((lines) => lines.map((l) => `${l.key}=${quoted(l.quote, (l.key.endsWith('KEY') ? l.key2 : l.url) + (l.quote ? '' : l.pad))}${l.quote ? l.pad : ''}${l.comment}`).join('\n') + '\n'),
  'openclaw.json': fc
    .array(fc.record({ url: fc.constantFrom(...URLS), esc: fc.constantFrom(...URL_ESCAPES), key: fc.constantFrom(KEY, `${KEY}\\n`, ` ${KEY}`, `Bearer ${KEY}`) }), { minLength: 1, maxLength: 3 })
    .map((ps) => JSON.stringify({ models: { providers: Object.fromEntries(ps.map((p, i) => [`p${i}`, { baseUrl: '@URL', apiKey: '@KEY', api: 'openai-completions' }])) } }, null, 2).replace(/"@URL"/g, () => '"@U"').replace(/"@KEY"/g, '"@K"').split('"@U"').map((part, i, all) => (i < all.length - 1 ? part + `"${ps[i].url}${ps[i].esc}"` : part)).join('').split('"@K"').map((part, i, all) => (i < all.length - 1 ? part + `"${ps[i].key}"` : part)).join('')),
  'rollout.yaml': fc
    .array(fc.record({ url: fc.constantFrom(...URLS), esc: fc.constantFrom(...URL_ESCAPES), quote: fc.constantFrom('"', "'", ''), comment: fc.constantFrom('', ' # relay') }), { minLength: 1, maxLength: 3 })
    .map((ps) => ps.map((p, i) => `svc${i}:\n  base_url: ${p.quote === '"' ? `"${p.url}${p.esc}"` : p.quote === "'" ? `'${p.url}${p.esc.replace(/\\/g, '')}'` : p.url}${p.comment}\n  model: policy`).join('\n') + '\n'),
  'client.py': fc
    .array(fc.record({ url: fc.constantFrom(...URLS), esc: fc.constantFrom('', '\\n', '\\\\', '\\x2f', ' '), prefix: fc.constantFrom('', 'r', 'f', 'u'), quote: fc.constantFrom('"', "'"), key: fc.constantFrom(KEY, ` ${KEY}`, `Bearer ${KEY}`) }), { minLength: 1, maxLength: 3 })
    .map((ps) => `from openai import OpenAI\n${ps.map((p, i) => `c${i} = OpenAI(base_url=${p.prefix}${p.quote}${p.url}${p.esc}${p.quote}, api_key="${p.key}")  # note`).join('\n')}\n`),
};

describe('safe fixes change the loaded value as intended and nothing else (property, real readers)', function () {
  this.timeout(300_000);
  let grammars: Grammars;
  before(async function () {
    if (spawnSync('python3', ['--version'], { stdio: 'ignore' }).status !== 0) this.skip();
    grammars = await loadGrammars();
  });

  for (const [path, documents] of Object.entries(DOCUMENTS)) {
    it(`${path}: each safe fix, applied alone`, () => {
      const cases: Case[] = [];
      fc.assert(
        fc.property(documents, (text) => {
          for (const finding of lintDocument({ path, text }, { grammars }).findings) {
            for (const fix of finding.fixes.filter((f) => f.safety === 'safe')) {
              cases.push({ path, before: text, after: applyEdits(text, fix.edits), ruleId: finding.ruleId, title: fix.title });
            }
          }
        }),
        fuzzParameters(60),
      );
      assert.ok(cases.length > 20, `only ${cases.length} safe fixes generated`);
      const before = readers(path, cases.map((c) => c.before));
      const after = readers(path, cases.map((c) => c.after));
      const problems: string[] = [];
      cases.forEach((c, i) => {
        for (const reader of Object.keys(before[i])) {
          const b = before[i][reader];
          const a = after[i][reader];
          const changed = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((k) => b[k] !== a[k]);
          // Trims of whitespace only docker's --env-file keeps change nothing these readers see.
          if (changed.length === 0 && /whitespace|malformed/.test(c.ruleId)) continue;
          // `K=Bearer sk-…` is, to the shell, a command `sk-…` run with K=Bearer: the fix makes the shell read the key.
          if (reader === 'bash' && changed.length === 1 && b[changed[0]] === undefined && a[changed[0]] === INTENDED[c.ruleId]?.(before[i].node[changed[0]] ?? '')) continue;
          if (changed.length !== 1 || a[changed[0]] === undefined || b[changed[0]] === undefined) {
            problems.push(`${reader}: ${c.ruleId} "${c.title}" changed ${JSON.stringify(changed)}\n--- before\n${c.before}--- after\n${c.after}`);
            continue;
          }
          const intended = INTENDED[c.ruleId];
          const decoded = (s: string) => (reader === 'json' || reader === 'yaml' ? JSON.parse(s) : s);
          if (intended && decoded(a[changed[0]]) !== intended(decoded(b[changed[0]]))) {
            problems.push(`${reader}: ${c.ruleId} made ${JSON.stringify(a[changed[0]])} from ${JSON.stringify(b[changed[0]])}\n--- before\n${c.before}--- after\n${c.after}`);
          }
        }
      });
      assert.deepEqual(problems.slice(0, 3), []);
    });
  }
});
