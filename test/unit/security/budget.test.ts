import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lintDocument } from '../../../server/src/core/lint';
import { INDEX_ON_MAIN_THREAD, indexAndExtract } from '../../../server/src/core/workspace/index-document';
import { compact } from '../../../server/src/core/formats/python/env';
import { loadGrammars } from '../../../server/src/node/grammars';
import { parseWith, snapshotOf, type Grammars, type SyntaxNode } from '../../../server/src/core/formats/treesitter';
import { fuzzParameters } from '../../support/fuzz';
import { MAX_STATEMENTS } from '../../../server/src/core/formats/toml';
import { MAX_LINES } from '../../../server/src/core/formats/dotenv';
import { contentLineCount } from '../../../server/src/core/formats/size';
import { MAX_WORDS, shellWordCount } from '../../../server/src/core/formats/shell';

/** Issue 13 item 6: the work per file is bounded; over the budget a file gets `skipped-file` with the reason. */
describe('per-file budget (time and syntax nodes)', function () {
  this.timeout(300_000);
  let grammars: Grammars;
  before(async () => {
    grammars = await loadGrammars();
  });

  const inputs: Record<string, string> = {
    'client.py': `from openai import OpenAI\nc = OpenAI(base_url="https://api.example.com/v1/v1")\n`,
    'run.sh': 'export OPENAI_BASE_URL=https://api.example.com/v1/v1\n',
    'rollout.yaml': 'rollout:\n  base_url: https://api.example.com/v1/v1\n',
    'openclaw.json': '{"models":{"providers":{"a":{"baseUrl":"https://api.example.com/v1/v1"}}}}',
  };

  for (const [path, text] of Object.entries(inputs)) {
    it(`${path}: a spent node budget gives one skipped-file naming it, in English and Chinese`, () => {
      assert.ok(lintDocument({ path, text }, { grammars }).findings.some((f) => f.ruleId === 'base-url-duplicate-v1'));
      const over = lintDocument({ path, text }, { grammars, budget: { timeMs: 60_000, maxNodes: 3 } });
      assert.deepEqual(over.findings.map((f) => [f.ruleId, f.messageId, f.data.reason]), [['skipped-file', 'budget', 'nodes']]);
      assert.match(over.findings[0].message, /3 syntax nodes/);
      assert.match(lintDocument({ path, text }, { grammars, locale: 'zh-CN', budget: { timeMs: 60_000, maxNodes: 3 } }).findings[0].message, /预算/);
    });
  }

  it('one budget per file in every phase (issue 29 item 7): what the index pass spent is taken off the lint', () => {
    const text = inputs['client.py'];
    const budget = { timeMs: 60_000, maxNodes: 1000 };
    assert.ok(lintDocument({ path: 'client.py', text }, { grammars, budget }).findings.some((f) => f.ruleId === 'base-url-duplicate-v1'));
    const nodesLeftFew = lintDocument({ path: 'client.py', text }, { grammars, budget, spent: { timeMs: 0, nodes: 995 } });
    assert.deepEqual(nodesLeftFew.findings.map((f) => [f.ruleId, f.data.reason]), [['skipped-file', 'nodes']]);
    const indexRanOut = lintDocument({ path: 'client.py', text }, { grammars, budget, spent: { timeMs: 10, nodes: 10, exceeded: 'time' } });
    assert.deepEqual(indexRanOut.findings.map((f) => [f.ruleId, f.data.reason]), [['skipped-file', 'time']]);
    const timeGone = lintDocument({ path: 'client.py', text }, { grammars, budget, spent: { timeMs: 60_000, nodes: 0 } });
    assert.deepEqual(timeGone.findings.map((f) => [f.ruleId, f.data.reason]), [['skipped-file', 'time']]);
  });

  it('shell nested deeper than any script (issue 29: 100k nested $( took 4.3 GB) is over the node budget before parsing', () => {
    const deep = `export OPENAI_BASE_URL=${'$('.repeat(100_000)}${')'.repeat(100_000)}\n`;
    assert.deepEqual(lintDocument({ path: 'n.sh', text: deep }, { grammars }).findings.map((f) => [f.ruleId, f.data.reason]), [['skipped-file', 'nodes']]);
    const nested = `export OPENAI_BASE_URL=$(echo $(echo $(echo https://api.example.com/v1/v1)))\n`;
    assert.ok(!lintDocument({ path: 'ok.sh', text: nested }, { grammars }).findings.some((f) => f.ruleId === 'skipped-file'));
  });

  it('TOML past MAX_STATEMENTS, .env past MAX_LINES and shell past MAX_WORDS are over the node budget before parsing (issue 29: 95k tables 1.0 GB, 40k base/key pairs 830 MB, 500k continuations 1.3 GB)', () => {
    assert.equal(contentLineCount('# c\n\n[t]\n  k = 1 # x\n\t\r\n"""\n'), 3);
    assert.equal(shellWordCount('a b \\\n  c # x y\n"d e"\\\r\n#z\n'), 5);
    // `nodes`, with the default budget: neither parse gets near 2M nodes, only the pre-check says so
    const tables = `[t]\nbase_url = "https://api.example.com/v1/v1"\n${Array.from({ length: MAX_STATEMENTS - 1 }, (_, i) => `k${i} = 1\n`).join('')}`;
    assert.deepEqual(lintDocument({ path: 'pyproject.toml', text: tables }, { grammars }).findings.map((f) => [f.ruleId, f.data.reason, f.data.budget]), [['skipped-file', 'nodes', `${MAX_STATEMENTS} TOML statements`]]);
    const continued = `python run.py --base-url https://api.example.com/v1/v1 ${'\\\n  --x 1 '.repeat(MAX_WORDS / 2)}\n`;
    assert.deepEqual(lintDocument({ path: 'c.sh', text: continued }, { grammars }).findings.map((f) => [f.ruleId, f.data.reason, f.data.budget]), [['skipped-file', 'nodes', `${MAX_WORDS} shell words`]]);
    const pairs = `${'OPENAI_BASE_URL=https://api.example.com/v1/v1\nOPENAI_API_KEY=sk-aaaaaaaaaaaaaaaaaaaa\n'.repeat(MAX_LINES / 2)}X=1\n`;
    const skipped = lintDocument({ path: '.env', text: pairs }, { grammars }).findings;
    assert.deepEqual(skipped.map((f) => [f.ruleId, f.data.reason, f.data.budget]), [['skipped-file', 'nodes', `${MAX_LINES} .env lines`]]);
    assert.match(skipped[0].message, /needs more than the per-file budget \(50000 \.env lines\)/, 'the message names the limit that fired');
    // …also when the index pass hit it first and the lint only gets what it spent
    const indexed = indexAndExtract({ path: '.env', text: pairs }, grammars);
    assert.match(lintDocument({ path: '.env', text: pairs }, { grammars, spent: indexed.spent }).findings[0].message, /\(50000 \.env lines\)/);
    // …and files far past any real one, under the caps, are linted
    const envOk = `${'# comment\n\n'.repeat(MAX_LINES)}OPENAI_BASE_URL=https://api.example.com/v1/v1\n`;
    assert.ok(lintDocument({ path: '.env', text: envOk }, { grammars }).findings.some((f) => f.ruleId === 'base-url-duplicate-v1'));
    const tomlOk = `[t]\nbase_url = "https://api.example.com/v1/v1"\n${Array.from({ length: 5_000 }, (_, i) => `k${i} = 1\n`).join('')}`;
    assert.ok(lintDocument({ path: 'pyproject.toml', text: tomlOk }, { grammars }).findings.some((f) => f.ruleId === 'base-url-duplicate-v1'));
    const shellOk = `python run.py --base-url https://api.example.com/v1/v1 ${'\\\n  --x 1 '.repeat(5_000)}\n`;
    assert.ok(lintDocument({ path: 'c.sh', text: shellOk }, { grammars }).findings.some((f) => f.ruleId === 'base-url-duplicate-v1'));
  });

  it('indexing under a spent budget (the language server indexes under INDEX_ON_MAIN_THREAD) yields no facts and says why', () => {
    const text = 'OPENAI_BASE_URL=https://api.example.com/v1\n';
    assert.equal(indexAndExtract({ path: '.env', text }, grammars).env.definitions.length, 1);
    const over = indexAndExtract({ path: '.env', text }, grammars, undefined, { timeMs: 0, maxNodes: 1e9 });
    assert.deepEqual([over.env.definitions.length, over.spent?.exceeded], [0, 'time']);
    assert.equal(INDEX_ON_MAIN_THREAD.timeMs, 200);
  });

  it('a spent time budget gives skipped-file with reason "time"', () => {
    const over = lintDocument({ path: 'run.sh', text: inputs['run.sh'] }, { grammars, budget: { timeMs: 0, maxNodes: 1e9 } });
    assert.deepEqual(over.findings.map((f) => [f.ruleId, f.data.reason]), [['skipped-file', 'time']]);
  });

  it('compact() does not re-stringify long expressions (the super-linear cost of f()()()… chains)', () => {
    const chain = `x = f${'()'.repeat(5000)}\n`;
    const tree = parseWith(grammars.python, chain);
    try {
      const calls: SyntaxNode[] = [];
      const pending = [snapshotOf(tree, chain).node(0)];
      while (pending.length > 0) {
        const node = pending.pop()!;
        if (node.type === 'call') calls.push(node);
        pending.push(...node.children);
      }
      calls.sort((a, b) => b.endIndex - a.endIndex);
      assert.equal(compact(calls[0].childForFieldName('function')), '');
      assert.equal(compact(calls.at(-1)!.childForFieldName('function')), 'f');
    } finally {
      tree.delete();
    }
  });

  it('100 KB of call chains, subscripts and huge flat arrays lint within the default budget (property)', () => {
    const shapes = fc.constantFrom(
      (n: number) => `OPENAI_BASE_URL = "https://api.example.com/v1"\nx = f${'()'.repeat(n)}\n`,
      (n: number) => `OPENAI_BASE_URL = "https://api.example.com/v1"\nx = a${'[0]'.repeat(n)}\n`,
      (n: number) => `OPENAI_BASE_URL = "https://api.example.com/v1"\nx = client${'.chat'.repeat(n)}.create(base_url="https://api.example.com/v1/v1")\n`,
      (n: number) => `OPENAI_BASE_URL = "https://api.example.com/v1"\nx = [${'1, '.repeat(n)}]\n`,
    );
    fc.assert(
      fc.property(shapes, fc.integer({ min: 1000, max: 33_000 }), (shape, n) => {
        const outcome = lintDocument({ path: 'chain.py', text: shape(n) }, { grammars });
        assert.ok(!outcome.findings.some((f) => f.ruleId === 'skipped-file'), `skipped: ${outcome.findings[0]?.message}`);
      }),
      fuzzParameters(6),
    );
  });

  // Flat collections at a size that proves nothing about cost: test/unit/security/linearity.test.ts compares two sizes instead (issue 27 item 6).
  it('JSON and YAML with flat arrays and deep nesting never throw', () => {
    const texts: [string, string][] = [
      ['big.json', `{"a": [${'1,'.repeat(5_000)}1]}`],
      ['deep.json', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
      ['big.yaml', `a:\n${'  - 1\n'.repeat(3_000)}`],
      ['deep.yaml', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
      ['cr.yaml', 'rollout:\r  base_url: https://api.example.com/v1\r  model: policy\r'],
    ];
    for (const [path, text] of texts) {
      const outcome = lintDocument({ path, text }, { grammars });
      if (path === 'cr.yaml') assert.deepEqual(outcome.findings.map((f) => f.ruleId), [], 'CR-only line breaks are line breaks');
    }
  });
});
