import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { extractJson5, isJson5Path } from '../../../server/src/core/formats/json5';
import { lintDocument } from '../../../server/src/core/lint';
import { loadGrammars } from '../../../server/src/node/grammars';
import { applyEdits } from '../../../server/src/core/fix';
import type { Fix } from '../../../server/src/core/model/types';

const applyFixes = (text: string, fixes: Fix[]) => applyEdits(text, fixes.flatMap((f) => f.edits));
import { assertWellFormed, settingAt, slice } from './extraction-helpers';

function extract(text: string, path = 'openclaw.json') {
  const extraction = extractJson5(text, path);
  assertWellFormed(text, extraction);
  return extraction;
}

describe('extractJson5 (openclaw.json, *.json5)', () => {
  const text = [
    '{',
    '  // 中文注释 😀',
    '  models: {',
    '    providers: {',
    "      'local.vllm': { baseUrl: 'http://127.0.0.1:8000/v1/v1', api: \"openai-completions\", },",
    '      router: { baseUrl: "http://127.0.0.1:30000/v1", /* 路由器 */ maxTokens: 0x10, },',
    '    },',
    '  },',
    '}',
    '',
  ].join('\n');

  it('reads unquoted keys, single-quoted strings, comments, hex numbers and trailing commas with positions', () => {
    const e = extract(text);
    assert.deepEqual(e.parseProblems, []);
    const base = settingAt(e, 'models.providers."local.vllm".baseUrl');
    assert.equal(base.value, 'http://127.0.0.1:8000/v1/v1');
    assert.equal(base.quote, "'");
    assert.equal(slice(text, base.contentRange), 'http://127.0.0.1:8000/v1/v1');
    assert.equal(slice(text, base.keyRange), 'baseUrl');
    assert.equal(base.group, settingAt(e, 'models.providers."local.vllm".api').group);
    assert.equal(settingAt(e, 'models.providers.router.maxTokens').value, '0x10');
    assert.deepEqual(e.comments.map((c) => c.text), ['中文注释 😀', '路由器']);
  });

  it('is chosen for openclaw.json and *.json5 only', () => {
    assert.ok(isJson5Path('/w/.openclaw/openclaw.json'));
    assert.ok(isJson5Path('conf/Models.JSON5'));
    assert.ok(!isJson5Path('settings.json'));
  });

  it('finds the /v1/v1 of a JSON5 openclaw.json, and its fix keeps the JSON5 text', async () => {
    const grammars = await loadGrammars();
    const outcome = lintDocument({ path: 'openclaw.json', text }, { grammars });
    assert.deepEqual(outcome.findings.filter((f) => f.severity !== 'hint').map((f) => f.ruleId), ['base-url-duplicate-v1']);
    assert.ok(!outcome.findings.some((f) => f.ruleId === 'parse-error'));
    const fixed = applyFixes(text, outcome.findings.flatMap((f) => f.fixes.filter((x) => x.safety === 'safe')));
    assert.equal(fixed, text.replace("'http://127.0.0.1:8000/v1/v1'", "'http://127.0.0.1:8000/v1'"));
  });

  it('adds "api" in the file\'s own style (unquoted key, its quote)', async () => {
    const grammars = await loadGrammars();
    const src = "{\n  models: {\n    providers: {\n      ds: {\n        baseUrl: 'https://api.deepseek.com/anthropic',\n      },\n    },\n  },\n}\n";
    const outcome = lintDocument({ path: 'openclaw.json', text: src }, { grammars });
    const finding = outcome.findings.find((f) => f.ruleId === 'openclaw-missing-api-type');
    assert.ok(finding);
    const fixed = applyFixes(src, finding.fixes);
    assert.match(fixed, /baseUrl: 'https:\/\/api\.deepseek\.com\/anthropic',\n\s+api: 'anthropic-messages',?\n/);
    assert.ok(!lintDocument({ path: 'openclaw.json', text: fixed }, { grammars }).findings.some((f) => f.ruleId === 'openclaw-missing-api-type' || f.ruleId === 'parse-error'));
  });

  it('reports a syntax error at its offset and never throws', () => {
    const e = extract('{\n  models: { providers: { x: { baseUrl: "http://h/v1" } }\n');
    assert.equal(e.parseProblems.length, 1);
    assert.ok(e.parseProblems[0].range.start > 0);
    const deep = extract('['.repeat(5000));
    assert.equal(deep.parseProblems.length, 1);
  });

  it('reports an unterminated string that ends the text in an escape instead of hanging (momoa 3.3.13 loops on it)', () => {
    for (const text of ['"a\\', "'a\\", '{"baseUrl": "https://x.example.com/v1\\', '["a\\\\\\', '{\n  // note\n  a: "b\\']) {
      const e = extract(text);
      assert.equal(e.parseProblems.length, 1, JSON.stringify(text));
      assert.ok(e.parseProblems[0].range.end <= text.length, 'the problem stays inside the text');
    }
    assert.equal(extract('{"a": "b\\\\"}').parseProblems.length, 0, 'an escaped backslash before the closing quote is fine');
  });

  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => {
      extract(s);
    }), { numRuns: 300 });
  });
});
