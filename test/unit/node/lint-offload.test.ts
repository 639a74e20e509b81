import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { lintDocument, type LintOutcome } from '../../../server/src/core/lint';
import { formatOf } from '../../../server/src/core/files';
import type { WorkspaceFacts } from '../../../server/src/core/model/facts';
import { EnvIndex } from '../../../server/src/core/workspace/env-index';
import { indexDocument } from '../../../server/src/core/workspace/index-document';
import { loadGrammars } from '../../../server/src/node/grammars';
import { OffloadedLinter } from '../../../server/src/node/lint-offload';

const FIXTURES = join(__dirname, '..', '..', 'fixtures');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** What a host reads from an outcome (the worker's copy has no functions; `byRole` is rebuilt). */
function comparable(o: LintOutcome): unknown {
  return { findings: o.findings, extraction: o.extraction, settings: o.resolution.settings, baseUrls: o.resolution.baseUrls, keys: o.resolution.byRole('apiKey').map((s) => s.key), secrets: o.secrets, failures: o.failures };
}

describe('OffloadedLinter: lintDocument in a worker thread (issue 13 item 6)', function () {
  this.timeout(120_000);
  let linter: OffloadedLinter;
  const logs: string[] = [];
  before(() => (linter = new OffloadedLinter({ log: (m) => logs.push(m) })));
  after(() => linter.dispose());

  it('gives the same outcome as linting on this thread, for every fixture (facts and env asked of this thread)', async () => {
    const grammars = await loadGrammars();
    const files = filesUnder(FIXTURES).filter((f) => formatOf(relative(FIXTURES, f)) && !f.endsWith('.expected') && !f.endsWith('.fixed'));
    assert.ok(files.length > 300, `found only ${files.length} fixtures`);
    // Facts that say every file is tracked by git (api-key-committed needs it) and define one sibling variable.
    const facts: WorkspaceFacts = { gitState: () => 'tracked', siblingEnv: () => ({ OPENAI_BASE_URL: [{ file: '.env', value: 'https://api.openai.com/v1/v1' }] }), envFile: () => ({ OPENAI_BASE_URL: 'https://api.openai.com/v1' }) };
    const index = new EnvIndex();
    index.set(indexDocument({ path: '.env', text: 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\n' }, grammars));
    let compared = 0;
    for (const file of files) {
      const path = relative(FIXTURES, file).split('\\').join('/');
      const text = readFileSync(file, 'utf8');
      const options = { grammars, facts, env: index.viewFor(path) };
      const here = lintDocument({ path, text }, options);
      const there = await linter.lint({ path, text }, options);
      assert.deepEqual(comparable(there), comparable(here), path);
      compared++;
    }
    assert.equal(compared, files.length);
    assert.ok(logs.some((m) => m.startsWith('lint worker: linting ')), 'each job is logged');
    assert.ok(!logs.some((m) => m.includes('sk-')), 'logs name paths and sizes only');
  });

  it('stops a job past its watchdog, reports the file as skipped (time) and starts a new worker for the next job', async () => {
    const grammars = await loadGrammars();
    const logs: string[] = [];
    const stopping = new OffloadedLinter({ watchdogMs: () => 1, log: (m) => logs.push(m) });
    try {
      const text = `rollout:\n${'  - base_url: https://h.example.com/v1\n'.repeat(50_000)}`;
      const outcome = await stopping.lint({ path: 'big.yaml', text }, { grammars });
      assert.deepEqual(outcome.findings.map((f) => [f.ruleId, f.data.reason]), [['skipped-file', 'time']]);
      // the finding and the log name the same limit (the watchdog's)
      assert.match(outcome.findings[0].message, /per-file budget \(1 ms\)/);
      assert.ok(logs.some((m) => m.includes('ran past 1 ms')), logs.join('\n'));
    } finally {
      stopping.dispose();
    }
    const outcome = await linter.lint({ path: '.env', text: 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\n' }, { grammars });
    assert.deepEqual(outcome.findings.map((f) => f.ruleId), ['base-url-duplicate-v1']);
  });

  it('reports a file whose lint needs more heap than the worker may use as skipped (memory), not as a crash', async () => {
    const grammars = await loadGrammars();
    const small = new OffloadedLinter({ heapMb: 48 });
    try {
      const rows = Array.from({ length: 200_000 }, (_, i) => `  - name: item${i}\n    base_url: https://h${i}.example.com/v1\n`).join('');
      const outcome = await small.lint({ path: 'big.yaml', text: `rollout:\n${rows}` }, { grammars });
      assert.deepEqual(outcome.findings.map((f) => [f.ruleId, f.data.reason]), [['skipped-file', 'memory']]);
      assert.match(outcome.findings[0].message, /48 MB of memory/);
      const after = await small.lint({ path: '.env', text: 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\n' }, { grammars });
      assert.deepEqual(after.findings.map((f) => f.ruleId), ['base-url-duplicate-v1'], 'a new worker takes the next job');
    } finally {
      small.dispose();
    }
  });

  it('runs jobs one at a time in call order, and rejects after dispose', async () => {
    const grammars = await loadGrammars();
    const order: string[] = [];
    const jobs = ['a', 'b', 'c'].map((n) => linter.lint({ path: `${n}/.env`, text: `OPENAI_BASE_URL=https://api.openai.com/v1/v1\n` }, { grammars }).then((o) => order.push(o.document.path)));
    await Promise.all(jobs);
    assert.deepEqual(order, ['a/.env', 'b/.env', 'c/.env']);
    const gone = new OffloadedLinter();
    gone.dispose();
    await assert.rejects(gone.lint({ path: '.env', text: '' }, { grammars }), /disposed/);
  });
});
