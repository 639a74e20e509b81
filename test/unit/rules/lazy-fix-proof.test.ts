import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { formatOf } from '../../../server/src/core/files';
import { hasUnprovenFixes, lintDocument, proveFixes, type LintOutcome } from '../../../server/src/core/lint';
import { fixProofRuns } from '../../../server/src/core/fix-check';
import type { Grammars } from '../../../server/src/core/formats/treesitter';
import { loadGrammars } from '../../../server/src/node/grammars';

const FIXTURES = join(__dirname, '..', '..', 'fixtures');

/** Every lintable fixture file (sidecars and `.gitignore` skipped), with the path it is linted under (relative to its `bad`/`good` folder, as the fixture test lints it). */
function fixtures(): { abs: string; path: string }[] {
  const out: { abs: string; path: string }[] = [];
  const visit = (dir: string, base: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) visit(abs, name === 'bad' || name === 'good' ? abs : base);
      else if (!/\.(expected|fixed)$/.test(name) && name !== '.gitignore' && formatOf(name)) out.push({ abs, path: relative(base, abs) });
    }
  };
  visit(FIXTURES, FIXTURES);
  return out;
}

/** What a host can see of an outcome: findings (with their fixes) and the parse state; `unproven` left out. */
function visible(outcome: LintOutcome): unknown {
  return { findings: outcome.findings, failures: outcome.failures, secrets: outcome.secrets };
}

describe('fix proof on demand (issue 27 item 4)', function () {
  let grammars: Grammars;
  before(async () => {
    grammars = await loadGrammars();
  });

  it('every fixture: a lint without the proof runs none, and proving afterwards gives exactly the eager lint', () => {
    const files = fixtures();
    assert.ok(files.length > 300, `found ${files.length} fixtures`);
    let withValueFixes = 0;
    let eagerProofs = 0;
    for (const { abs, path } of files) {
      const text = readFileSync(abs, 'utf8');
      const before = fixProofRuns.count;
      const eager = lintDocument({ path, text }, { grammars });
      eagerProofs += fixProofRuns.count - before;
      assert.equal(eager.unproven, undefined, path);

      const counted = fixProofRuns.count;
      const lazy = lintDocument({ path, text }, { grammars, proveFixes: false });
      // Notebooks are the exception: proven during the lint (see `LintOptions.proveFixes`).
      if (formatOf(path) !== 'notebook') assert.equal(fixProofRuns.count, counted, `${path}: a lint without the proof ran it`);
      // Held back means absent: nothing unproven is offered before the proof.
      const offeredBefore = lazy.findings.reduce((n, f) => n + f.fixes.length, 0);
      if (lazy.unproven) withValueFixes++;
      const proven = proveFixes(lazy, grammars);
      assert.equal(proven.unproven, undefined);
      assert.deepEqual(visible(proven), visible(eager), `${path}: findings and fixes differ from the eager lint`);
      assert.ok(proven.findings.reduce((n, f) => n + f.fixes.length, 0) >= offeredBefore, path);
      // A second call proves nothing again.
      const again = fixProofRuns.count;
      proveFixes(proven, grammars);
      assert.equal(fixProofRuns.count, again);
    }
    // The comparison means something only when fixtures hold value fixes the eager lint proved.
    assert.ok(withValueFixes > 50, `${withValueFixes} fixtures have value fixes`);
    assert.ok(eagerProofs >= withValueFixes, `${eagerProofs} eager proofs`);
  });

  it('an unsound value fix is held back, then dropped by the proof as the eager lint drops it', () => {
    // The fix of the first line would be proven against a file whose `"` opens a multi-line value: eager drops
    // every fix the proof refutes; whatever it keeps, the lazy path must agree, fix for fix.
    const text = 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\nOPENAI_API_KEY=" sk-test-0000000000000000000000abcd"\nLLM_BASE_URL="https://api.openai.com/v1/v1\n';
    const eager = lintDocument({ path: '.env', text }, { grammars });
    const lazy = lintDocument({ path: '.env', text }, { grammars, proveFixes: false });
    assert.ok(lazy.unproven, 'value fixes were held back');
    const held = lazy.findings.filter((f) => hasUnprovenFixes(lazy, f));
    assert.ok(held.length > 0);
    assert.ok(held.every((f) => f.fixes.every((x) => !lazy.unproven!.lists.get(f.fixes)!.pending.has(x))), 'no held-back fix is offered before the proof');
    assert.deepEqual(visible(proveFixes(lazy, grammars)), visible(eager));
  });

  it('a proof over the budget gives the skipped-file outcome the eager lint gives', () => {
    const text = 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\n';
    const lazy = lintDocument({ path: '.env', text }, { grammars, proveFixes: false });
    assert.ok(lazy.unproven);
    // As if the lint had spent the whole budget: the proof gets nothing left.
    lazy.unproven.spent = { timeMs: lazy.unproven.budget.timeMs + 60_000, nodes: 0 };
    const proven = proveFixes(lazy, grammars);
    assert.deepEqual(proven.findings.map((f) => f.ruleId), ['skipped-file']);
  });

  it('notebooks are proven during the lint (their ranges are mapped afterwards)', () => {
    const cell = (source: string) => ({ cell_type: 'code', metadata: {}, source: [source], outputs: [], execution_count: null });
    const text = JSON.stringify({ cells: [cell('import openai\nclient = openai.OpenAI(base_url="https://api.openai.com/v1/v1", api_key="sk-test-0000000000000000000000abcd")\n')], metadata: { kernelspec: { language: 'python' } }, nbformat: 4, nbformat_minor: 5 });
    const lazy = lintDocument({ path: 'nb.ipynb', text }, { grammars, proveFixes: false });
    assert.equal(lazy.unproven, undefined);
    assert.deepEqual(visible(lazy), visible(lintDocument({ path: 'nb.ipynb', text }, { grammars })));
  });
});
