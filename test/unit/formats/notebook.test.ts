import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { notebookSource, toNotebookEdit, toNotebookRange, type NotebookSource } from '../../../server/src/core/formats/notebook';
import { extractIpython } from '../../../server/src/core/formats/ipython';
import { extractToml } from '../../../server/src/core/formats/toml';
import { lintDocument } from '../../../server/src/core/lint';
import { applyEdits } from '../../../server/src/core/fix';
import { loadGrammars } from '../../../server/src/node/grammars';
import type { Grammars } from '../../../server/src/core/formats/treesitter';
import { assertWellFormed, settingAt, slice } from './extraction-helpers';

/** A notebook with one code cell per entry, written as Jupyter writes it (one JSON string per line). */
function notebook(cells: (string | { markdown: string })[], outputs: unknown[] = []): string {
  return JSON.stringify(
    {
      cells: cells.map((c) =>
        typeof c === 'string'
          ? { cell_type: 'code', execution_count: 1, metadata: {}, outputs, source: c.split(/(?<=\n)/) }
          : { cell_type: 'markdown', metadata: {}, source: c.markdown.split(/(?<=\n)/) },
      ),
      metadata: { kernelspec: { language: 'python', name: 'python3' } },
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  );
}

function source(text: string): NotebookSource {
  const read = notebookSource(text);
  assert.ok('source' in read, 'notebook is read');
  return read.source;
}

let grammars: Grammars;
before(async () => {
  grammars = await loadGrammars();
});

describe('notebookSource', () => {
  it('joins code cells, skips markdown and outputs, and maps every character back through JSON escapes', () => {
    const cell1 = 'x = "caf\u00e9 \\"q\\"\ttab"\n# 中文 😀\n';
    const cell2 = 'BASE = "http://127.0.0.1:30000/v1"';
    const text = notebook([{ markdown: 'base_url = "http://x/v1/v1"\n' }, cell1, cell2], [{ output_type: 'stream', text: ['OPENAI_API_KEY=sk-should-not-be-read\n'] }]);
    const nb = source(text);
    assert.equal(nb.text, cell1 + cell2 + '\n');
    assert.ok(!nb.text.includes('should-not-be-read') && !nb.text.includes('/v1/v1'));
    for (let i = 0; i < nb.text.length; i++) {
      if (nb.cells[i] < 0) continue;
      const escaped = JSON.stringify(nb.text[i]).slice(1, -1);
      const written = text.slice(nb.starts[i], nb.ends[i]);
      assert.ok(written === nb.text[i] || written === escaped || JSON.parse(`"${written}"`) === nb.text[i], `char ${i} ${JSON.stringify(nb.text[i])} ↔ ${written}`);
    }
    const at = nb.text.indexOf('http://');
    assert.equal(slice(text, toNotebookRange(nb, { start: at, end: at + 'http://127.0.0.1:30000/v1'.length })), 'http://127.0.0.1:30000/v1');
  });

  it('maps edits: text is JSON-escaped, insertions at a cell end go before the closing quote, cross-cell edits are refused', () => {
    const text = notebook(['a = 1', 'b = "x"\n']);
    const nb = source(text);
    const endOfA = nb.text.indexOf('1') + 1;
    const insert = toNotebookEdit(nb, { range: { start: endOfA, end: endOfA }, text: '  # "q"\n' });
    assert.ok(insert);
    const edited = applyEdits(text, [insert]);
    assert.equal(source(edited).text, 'a = 1  # "q"\nb = "x"\n');
    assert.equal(toNotebookEdit(nb, { range: { start: 0, end: nb.text.indexOf('b') + 1 }, text: '' }), undefined);
  });

  it('blanks non-Python cell magics and skips notebooks of other kernels', () => {
    const nb = source(notebook(['%%bash\nexport OPENAI_BASE_URL=http://x/v1/v1\n', '%%time\nx = 1\n']));
    assert.ok(!nb.text.includes('OPENAI_BASE_URL') && nb.text.includes('x = 1'));
    const r = JSON.stringify({ cells: [{ cell_type: 'code', source: ['x <- 1'] }], metadata: { kernelspec: { language: 'R' } } });
    assert.deepEqual(notebookSource(r), { skip: true });
  });

  it('reports malformed JSON once and never throws on odd notebooks', () => {
    const broken = notebookSource('{"cells": [{"cell_type": "code", "source": ["x = 1"]}');
    assert.ok('problems' in broken && broken.problems.length === 1);
    for (const odd of ['', '[]', '{}', '{"cells": 3}', '{"cells": [1, null, {"cell_type": "code"}, {"cell_type": "code", "source": 7}]}', '{"cells": [{"cell_type": "code", "source": "\\ud83d"}]}']) {
      notebookSource(odd);
    }
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 4 }), (cells) => {
        const text = notebook(cells);
        const nb = source(text);
        for (let i = 0; i < nb.text.length; i++) assert.ok(nb.starts[i] <= nb.ends[i] && nb.ends[i] <= text.length);
        const outcome = lintDocument({ path: 'x.ipynb', text }, { grammars });
        for (const f of outcome.findings) assert.ok(f.range.start <= f.range.end && f.range.end <= text.length);
      }),
      { numRuns: 40 },
    );
  });

  it('lints a notebook end to end: findings on the notebook characters, a fix that re-lints clean', () => {
    const text = notebook(['from openai import OpenAI\n', 'client = OpenAI(base_url="http://127.0.0.1:30000/v1/v1", api_key="EMPTY")\n']);
    const outcome = lintDocument({ path: 'nb/rollout.ipynb', text }, { grammars });
    const finding = outcome.findings.find((f) => f.ruleId === 'base-url-duplicate-v1');
    assert.ok(finding);
    assert.equal(slice(text, finding.range), 'http://127.0.0.1:30000/v1/v1');
    assert.equal(outcome.document.format, 'notebook');
    const fixed = applyEdits(text, finding.fixes[0].edits);
    JSON.parse(fixed);
    assert.deepEqual(lintDocument({ path: 'nb/rollout.ipynb', text: fixed }, { grammars }).findings.filter((f) => f.ruleId === 'base-url-duplicate-v1'), []);
  });
});

describe('extractIpython', () => {
  it('reads %env K=V, %env K V and %set_env (quotes kept, value stripped) as env settings', () => {
    const text = '%env OPENAI_BASE_URL=http://a/v1\n%env  MODEL   policy-7b  \n%set_env OPENAI_API_KEY "sk-x"\n%env HOME\n%env P=$HOME/x\n';
    const x = extractIpython(text, grammars.python, grammars.bash);
    assertWellFormed(text, x);
    assert.equal(settingAt(x, 'OPENAI_BASE_URL').value, 'http://a/v1');
    assert.equal(settingAt(x, 'MODEL').value, 'policy-7b');
    assert.equal(settingAt(x, 'OPENAI_API_KEY').value, '"sk-x"');
    assert.equal(settingAt(x, 'P').value, undefined);
    assert.ok(!x.settings.some((s) => s.key === 'HOME'));
    assert.deepEqual(x.parseProblems, []);
  });

  it('reads ! shell escapes with the shell extractor (also joined by a trailing backslash) and keeps Python valid around magics', () => {
    const text = 'if True:\n    !export OPENAI_API_KEY=sk-xxxx\nfiles = !ls\n!curl https://a/v1/models \\\n    -H "Authorization: Bearer YOUR_API_KEY"\nclient = OpenAI(base_url="http://b/v1")\n';
    const x = extractIpython(text, grammars.python, grammars.bash);
    assertWellFormed(text, x);
    assert.deepEqual(x.parseProblems, []);
    assert.equal(settingAt(x, 'OPENAI_API_KEY').value, 'sk-xxxx');
    assert.equal(settingAt(x, 'Authorization').value, 'Bearer YOUR_API_KEY');
    assert.equal(settingAt(x, 'OpenAI.base_url', 'kwarg').value, 'http://b/v1');
  });
});

describe('extractToml', () => {
  it('reads Codex providers with table paths, shared groups and exact ranges', () => {
    const text = [
      '# 中文 😀',
      'model = "gpt-5"',
      '[model_providers.tao]',
      'name = "TaoToken"',
      "base_url = 'https://taotoken.net/api/v1'",
      'wire_api = "responses"',
      'query_params = { api-version = "2025-04-01-preview" }',
      '[model_providers."my.proxy"]',
      'base_url = """',
      'http://127.0.0.1:30000/v1"""',
      'sub.base_url = "http://c/v1"',
      '[[servers]]',
      'url = "http://d"',
      '',
    ].join('\n');
    const x = extractToml(text, 'config.toml');
    assertWellFormed(text, x);
    const base = settingAt(x, 'model_providers.tao.base_url');
    assert.equal(slice(text, base.contentRange), 'https://taotoken.net/api/v1');
    assert.equal(base.quote, "'");
    assert.equal(base.group, settingAt(x, 'model_providers.tao.wire_api').group);
    assert.equal(settingAt(x, 'model_providers.tao.query_params.api-version').value, '2025-04-01-preview');
    const quoted = settingAt(x, 'model_providers."my.proxy".base_url');
    assert.equal(quoted.value, 'http://127.0.0.1:30000/v1');
    assert.equal(slice(text, quoted.contentRange), 'http://127.0.0.1:30000/v1');
    assert.equal(settingAt(x, 'model_providers."my.proxy".sub.base_url').value, 'http://c/v1');
    assert.equal(settingAt(x, 'servers[0].url').value, 'http://d');
    assert.equal(x.comments[0].text, '中文 😀');
  });

  it('turns a syntax error into one parse problem and survives hostile input', () => {
    const x = extractToml('a = "open\nb = 1\n', 'x.toml');
    assert.equal(x.parseProblems.length, 1);
    assert.deepEqual(x.settings, []);
    assert.equal(extractToml('a = ' + '['.repeat(5000), 'x.toml').parseProblems.length, 1);
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        assertWellFormed(s, extractToml(s, 'x.toml'));
      }),
      { numRuns: 200 },
    );
  });
});
