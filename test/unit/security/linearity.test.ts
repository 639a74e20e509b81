import assert from 'node:assert/strict';
import { lintDocument } from '../../../server/src/core/lint';
import { loadGrammars } from '../../../server/src/node/grammars';
import type { Grammars } from '../../../server/src/core/formats/treesitter';
import { EnvIndex } from '../../../server/src/core/workspace/env-index';
import { indexAndExtract } from '../../../server/src/core/workspace/index-document';
import { chooseFixes } from '../../../server/src/core/fix';
import { formatOf } from '../../../server/src/core/files';
import { growth } from './growth';

/**
 * Issue 29 items 7–8, issue 27 items 3 and 6: every phase of a file (index, lint, fix proof, fix
 * choice, redaction) and cross-file resolution is linear. No timed assertion: each shape runs at
 * size N and 2N (`growth`: best of five, wall-clock time, up to five rounds) and the cost may at most triple (a quadratic phase
 * quadruples it). Sizes are small enough that each test stays under about 3 s, and large enough that
 * the fixed cost of one lint (parser set-up, a collection) does not decide the ratio: shell curl lines at
 * 150 and 300 measured 1.2–1.8× alone but 3.05× and 3.43× late in two CI runs; at 600 and 1200, 2.1–2.2×.
 */
describe('linearity (N vs 2N, ratio ≤ 3)', function () {
  this.timeout(120_000); // rounds repeat on a loaded machine; the ratio, not the time, is asserted
  let grammars: Grammars;
  before(async () => {
    grammars = await loadGrammars();
  });

  const ratio = growth;
  /** Where the self-test's loop leaves its result. */
  let sink = 0;

  /** Both phases of one file as the CLI runs them: index (extraction kept), then lint reusing it, with its findings' fixes chosen. */
  function indexAndLint(path: string, text: string): () => void {
    return () => {
      const indexed = indexAndExtract({ path, text }, grammars);
      const index = new EnvIndex();
      index.set(indexed.env);
      const outcome = lintDocument({ path, text }, { grammars, env: index.viewFor(path), reuse: indexed.extraction && { text: indexed.text!, extraction: indexed.extraction } });
      assert.ok(!outcome.findings.some((f) => f.ruleId === 'skipped-file'), `${path} was skipped: ${outcome.findings[0]?.message}`);
      chooseFixes(outcome.findings, true);
    };
  }

  const shapes: [string, string, (n: number) => string, number][] = [
    ['plain .env lines (issue 29 repro #2)', '.env', (n) => Array.from({ length: n }, (_, i) => `VAR_${i}=value-${i}\n`).join(''), 2500],
    ['identical fixable .env lines', '.env', (n) => 'OPENAI_BASE_URL=https://api.example.com/v1/v1\n'.repeat(n), 400],
    ['.env base URL / key pairs', '.env', (n) => Array.from({ length: n }, (_, i) => `OPENAI_BASE_URL=https://h${i}.example.com/v1/v1\nOPENAI_API_KEY=sk-aaaaaaaaaaaaaaaaaaaa${i}\n`).join(''), 150],
    ['chained ${V}${V} definitions', '.env', (n) => `V=x\n${'V=${V}${V}\n'.repeat(n)}`, 1000],
    ['YAML list of strings (issue 27: 30k-string list)', 'config.yaml', (n) => `rollout:\n  base_url: https://api.example.com/v1\nitems:\n${Array.from({ length: n }, (_, i) => `  - "string-${i}"\n`).join('')}`, 3000],
    ['JSON array of numbers (issue 27)', 'openclaw.json', (n) => `{"models":{"providers":{"a":{"baseUrl":"https://api.example.com/v1"}}},"nums":[${Array.from({ length: n }, (_, i) => i).join(',')}]}`, 4000],
    ['settings.json env pairs', '.claude/settings.json', (n) => `{"env": {${Array.from({ length: n }, (_, i) => `"K_${i}": "https://h${i}.example.com/v1"`).join(',')}}}`, 1000],
    ['YAML anchors', 'x.yaml', (n) => Array.from({ length: n }, (_, i) => `a${i}: &a${i} https://h.example.com/v1\n`).join(''), 1000],
    ['TOML tables', 'pyproject.toml', (n) => Array.from({ length: n }, (_, i) => `[t${i}]\nbase_url = "https://h.example.com/v1"\n`).join(''), 500],
    ['Python OpenAI() calls', 'client.py', (n) => `from openai import OpenAI\n${Array.from({ length: n }, (_, i) => `c${i} = OpenAI(base_url="https://h${i}.example.com/v1")\n`).join('')}`, 200],
    ['shell curl lines', 'run.sh', (n) => Array.from({ length: n }, (_, i) => `curl -H "Authorization: Bearer $OPENAI_API_KEY" https://api.example.com/v1/chat/completions -d @x${i}.json\n`).join(''), 600],
  ];

  for (const [name, path, make, n] of shapes) {
    it(`${name}: ${path} at ${n} and ${2 * n} units`, () => {
      assert.ok(formatOf(path));
      const r = ratio((size) => indexAndLint(path, make(size)), n);
      assert.ok(r <= 3, `cost grew ${r.toFixed(2)}× from ${n} to ${2 * n}`);
    });
  }

  /**
   * Issue 29 repro #6: folders with a `.env.mN` per package defining OPENAI_BASE_URL, YAML base URLs,
   * and Python readers of OPENAI_BASE_URL; the whole tree is indexed, then every file linted with its view.
   */
  function crossFileTree(folders: number): () => void {
    const files: [string, string][] = [];
    for (let f = 0; f < folders; f++) {
      for (let i = 0; i < 4; i++) {
        files.push([`pkg${f}/.env.m${i}`, `OPENAI_BASE_URL=https://h${f}-${i}.example.com/v1\nOTHER_${i}=x\n`]);
        files.push([`pkg${f}/y${i}.yaml`, `rollout:\n  base_url: https://h${f}-${i}.example.com/v1\n  model: m${i}\n`]);
      }
      for (let i = 0; i < 2; i++) files.push([`pkg${f}/r${i}.py`, 'import os\nfrom openai import OpenAI\nclient = OpenAI(base_url=os.getenv("OPENAI_BASE_URL"))\n']);
    }
    return () => {
      const index = new EnvIndex();
      const kept = new Map<string, ReturnType<typeof indexAndExtract>>();
      for (const [path, text] of files) {
        const indexed = indexAndExtract({ path, text }, grammars);
        index.set(indexed.env);
        kept.set(path, indexed);
      }
      for (const [path, text] of files) {
        const indexed = kept.get(path)!;
        lintDocument({ path, text }, { grammars, env: index.viewFor(path), reuse: indexed.extraction && { text: indexed.text!, extraction: indexed.extraction } });
      }
    };
  }

  it('the measure itself tells a quadratic phase from a linear one (so the bound above can fail)', () => {
    // every pair of n numbers, no allocation: 4× the work at 2n, whatever the cache or the collector do
    const pairs = (n: number) => () => {
      let mixed = 0;
      for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) mixed = (mixed + (a ^ b)) | 0;
      sink = mixed; // kept, so the loop cannot be optimised away
    };
    const r = ratio(pairs, 4000);
    assert.ok(r > 3, `a quadratic phase measured only ${r.toFixed(2)}×`);
    assert.equal(typeof sink, 'number');
  });

  it('cross-file resolution (issue 29 repro #6): 12 and 24 packages of 10 files', () => {
    const r = ratio(crossFileTree, 12);
    assert.ok(r <= 3, `cost grew ${r.toFixed(2)}× from 120 to 240 files`);
  });
});
