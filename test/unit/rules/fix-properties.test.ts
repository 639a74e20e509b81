import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lintDocument } from '../../../server/src/core/lint';
import { applyEdits, chooseFixes } from '../../../server/src/core/fix';
import { loadGrammars } from '../../../server/src/node/grammars';
import type { Grammars } from '../../../server/src/core/formats/treesitter';
import { fuzzParameters } from '../../support/fuzz';

const KEY = 'sk-test-0000000000000000000000000000';

const ENV_LINES = [
  'OPENAI_BASE_URL=https://api.example.com/v1/v1',
  'OPENAI_BASE_URL=https://api.example.com/v1?utm_source=x&lang=zh',
  `OPENAI_API_KEY=${KEY} `,
  `OPENAI_API_KEY="${KEY} "`,
  `ANTHROPIC_API_KEY="Bearer ${KEY}"`,
  'OPENAI_API_KEY=   # 在控制台获取',
  'OPENAI_BASE_URL=https://api.example.com/v1/chat/completions',
  'OPENAI_BASE_URL=https://api.example.com',
  '# 中文注释',
  'OPENAI_MODEL=qwen3-4b',
  '',
];

/** Documents (as lines) that trigger fixable and unfixable rules: any .env line order; YAML kept well-formed. */
const DOCUMENTS: Record<string, fc.Arbitrary<string[]>> = {
  '.env': fc.array(fc.constantFrom(...ENV_LINES), { minLength: 1, maxLength: 12 }),
  'rollout.yaml': fc
    .tuple(
      fc.subarray(['  base_url: http://10.0.0.5:30000/v1/v1', `  api_key: " ${KEY}"`, '  # 注释', '  model: policy']),
      fc.subarray(['    top_logprobs: 1', '    logprobs: "true"', '    temperature: 1.0'], { minLength: 1 }),
    )
    .map(([top, sampling]) => ['rollout:', ...top, '  sampling:', ...sampling]),
};

/** Applies the chosen fixes pass by pass until nothing changes, as `rollout-lint --fix-unsafe` does. */
function fixAll(path: string, text: string, grammars: Grammars): string {
  let current = text;
  for (let pass = 0; pass < 10; pass++) {
    const findings = lintDocument({ path, text: current }, { grammars }).findings;
    for (const f of findings) {
      for (const fix of f.fixes) {
        for (const e of fix.edits) assert.ok(e.range.start >= 0 && e.range.start <= e.range.end && e.range.end <= current.length, 'edit inside the text');
      }
    }
    const fixes = chooseFixes(findings, true);
    if (fixes.length === 0) break;
    const next = applyEdits(current, fixes.flatMap((f) => f.edits));
    if (next === current) break;
    current = next;
  }
  return current;
}

describe('fixes (property tests)', () => {
  let grammars: Grammars;
  before(async () => {
    grammars = await loadGrammars();
  });

  for (const [path, documents] of Object.entries(DOCUMENTS)) {
    it(`${path}: fixing keeps line endings and comments, never throws, and is idempotent`, () => {
      let changed = 0;
      fc.assert(
        fc.property(documents, fc.boolean(), (lines, crlf) => {
          const eol = crlf ? '\r\n' : '\n';
          const text = lines.join(eol) + eol;
          const fixed = fixAll(path, text, grammars);
          if (fixed !== text) changed++;
          if (crlf) assert.ok(!/(^|[^\r])\n/.test(fixed), 'a CRLF file stays CRLF');
          else assert.ok(!fixed.includes('\r'), 'an LF file gets no CR');
          for (const line of lines.filter((l) => l.trim().startsWith('#'))) assert.ok(fixed.includes(line.trim()), `comment kept: ${line}`);
          assert.equal(fixAll(path, fixed, grammars), fixed, 'a second fix pass changes nothing');
        }),
        fuzzParameters(60),
      );
      assert.ok(changed > 10, `fixes applied in ${changed} runs`);
    });
  }

  it('a structured file with a syntax error gets findings but no fixes (edits could land in a misread structure)', () => {
    const broken = 'rollout:\n    top_logprobs: 1\n  sampling:\n  model: policy\n    top_logprobs: 1\n';
    const outcome = lintDocument({ path: 'rollout.yaml', text: broken }, { grammars });
    assert.ok(outcome.findings.some((f) => f.ruleId === 'parse-error'));
    assert.deepEqual(outcome.findings.flatMap((f) => f.fixes), []);
    assert.equal(fixAll('rollout.yaml', broken, grammars), broken);
  });
});
