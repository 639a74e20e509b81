import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { extractJson } from '../../../server/src/core/formats/json';
import { applyInsertion, assertWellFormed, lineOf, settingAt, slice } from './extraction-helpers';

const CASES = join(__dirname, '../../cases');

function extract(text: string, path = 'config.json') {
  const extraction = extractJson(text, path);
  assertWellFormed(text, extraction);
  return extraction;
}

describe('extractJson', () => {
  describe('settings and comments (JSONC)', () => {
    const text = [
      '{',
      '  // 中文注释 😀',
      '  "rollout": {',
      '    "base_url": "http://x/v1", /* 块注释 */',
      '    "a.b": 1e5,',
      '    "list": [1, "two", true, null],',
      '    "esc": "a\\"b",',
      '  },',
      '}',
    ].join('\n');
    const x = extract(text);

    it('accepts comments and trailing commas without problems', () => {
      assert.deepEqual(x.parseProblems, []);
    });

    it('gives exact ranges after Chinese text and an emoji', () => {
      const s = settingAt(x, 'rollout.base_url');
      assert.deepEqual([s.kind, s.format, s.key, s.valueType, s.value, s.quote, s.group], ['property', 'json', 'base_url', 'string', 'http://x/v1', '"', 'rollout']);
      assert.equal(slice(text, s.keyRange), 'base_url');
      assert.equal(slice(text, s.valueRange), '"http://x/v1"');
      assert.equal(slice(text, s.contentRange), 'http://x/v1');
      assert.equal(slice(text, s.statementRange), '"base_url": "http://x/v1"');
      assert.equal(lineOf(text, s.valueRange.start), 4);
    });

    it('quotes dotted keys in paths and keeps number source text', () => {
      const s = settingAt(x, 'rollout."a.b"');
      assert.deepEqual([s.key, s.valueType, s.value, s.raw, s.quote], ['a.b', 'number', '1e5', '1e5', '']);
      assert.equal(slice(text, s.keyRange), 'a.b');
    });

    it('types list items and indexes them', () => {
      assert.deepEqual(
        [0, 1, 2, 3].map((i) => {
          const s = settingAt(x, `rollout.list[${i}]`);
          return [s.key, s.valueType, s.value, s.raw, s.group];
        }),
        [
          ['list', 'number', '1', '1', 'rollout'],
          ['list', 'string', 'two', '"two"', 'rollout'],
          ['list', 'boolean', 'true', 'true', 'rollout'],
          ['list', 'null', 'null', 'null', 'rollout'],
        ],
      );
    });

    it('decodes escapes; contentRange stays the source between the quotes', () => {
      const s = settingAt(x, 'rollout.esc');
      assert.equal(s.value, 'a"b');
      assert.equal(slice(text, s.contentRange), 'a\\"b');
    });

    it('reads // and /* */ comments with the scanner', () => {
      assert.deepEqual(
        x.comments.map((c) => [c.text, slice(text, c.range)]),
        [
          ['中文注释 😀', '// 中文注释 😀'],
          ['块注释', '/* 块注释 */'],
        ],
      );
      const t = '{"a": "// not a comment"} /* open';
      assert.deepEqual(
        extract(t).comments.map((c) => [c.text, slice(t, c.range)]),
        [['open', '/* open']],
      );
    });
  });

  describe('env definitions', () => {
    it('case-03: a settings.json env map gives env settings only, ANTHROPIC_BASE_URL on line 3', () => {
      const text = readFileSync(join(CASES, 'case-03/settings.json'), 'utf8');
      const x = extract(text, '.claude/settings.json');
      assert.deepEqual(
        x.settings.map((s) => [s.kind, s.key, s.path, s.group]),
        [
          ['env', 'ANTHROPIC_BASE_URL', 'env.ANTHROPIC_BASE_URL', 'env'],
          ['env', 'ANTHROPIC_AUTH_TOKEN', 'env.ANTHROPIC_AUTH_TOKEN', 'env'],
          ['env', 'ANTHROPIC_MODEL', 'env.ANTHROPIC_MODEL', 'env'],
        ],
      );
      const s = settingAt(x, 'env.ANTHROPIC_BASE_URL');
      assert.equal(lineOf(text, s.valueRange.start), 3);
      assert.equal(slice(text, s.keyRange), 'ANTHROPIC_BASE_URL');
      assert.equal(slice(text, s.contentRange), 'http://localhost:8000/api/v1');
    });

    it('reads openclaw env, env.vars and environment maps; env.shellEnv stays configuration', () => {
      const text = '{"env": {"OPENROUTER_API_KEY": "sk-or-test", "vars": {"GROQ_API_KEY": "gsk-test"}, "shellEnv": {"enabled": true}}, "environment": {"A": 1}}';
      const x = extract(text, 'openclaw.json');
      assert.deepEqual(
        x.settings.map((s) => [s.kind, s.path, s.group]),
        [
          ['env', 'env.OPENROUTER_API_KEY', 'env'],
          ['env', 'env.vars.GROQ_API_KEY', 'env.vars'],
          ['property', 'env.shellEnv.enabled', 'env.shellEnv'],
          ['env', 'environment.A', 'environment'],
        ],
      );
    });
  });

  describe('openclaw providers', () => {
    it('case-13: baseUrl, apiKey and api share the provider group', () => {
      const text = readFileSync(join(CASES, 'case-13/openclaw.json'), 'utf8');
      const x = extract(text, 'openclaw.json');
      const group = 'models.providers.myprovider';
      assert.deepEqual(
        x.settings.filter((s) => s.group === group).map((s) => s.key),
        ['baseUrl', 'apiKey', 'api'],
      );
      const base = settingAt(x, `${group}.baseUrl`);
      assert.equal(lineOf(text, base.valueRange.start), 5);
      assert.equal(slice(text, base.contentRange), 'https://api.example.com');
      assert.equal(settingAt(x, `${group}.models[0].id`).group, `${group}.models[0]`);
    });

    it('case-14: no api key; the provider group anchors at its key and takes an insertion', () => {
      const text = readFileSync(join(CASES, 'case-14/openclaw.json'), 'utf8');
      const x = extract(text, 'openclaw.json');
      const group = 'models.providers.local-vllm';
      assert.deepEqual(
        x.settings.filter((s) => s.group === group).map((s) => s.key),
        ['baseUrl', 'apiKey'],
      );
      const info = x.groups?.[group];
      assert.ok(info);
      assert.equal(slice(text, info.anchorRange), 'local-vllm');
      assert.equal(lineOf(text, info.anchorRange.start), 4);
      assert.equal(info.insertion.prefix, ',\n        ');
      const edited = applyInsertion(text, info.insertion, '"api": "openai-completions"');
      assert.equal(JSON.parse(edited).models.providers['local-vllm'].api, 'openai-completions');
      assert.equal(settingAt(extract(edited), `${group}.api`).group, group);
    });
  });

  describe('request sites', () => {
    const text = [
      '{',
      '  "rollout": {',
      '    "model": "m",',
      '    "top_logprobs": 2',
      '  },',
      '  "body": {"messages": [], "logprobs": true},',
      '  "sglang": {"return_logprob": true},',
      '  "extra_body": {},',
      '  "chat_template_kwargs": {"enable_thinking": false}',
      '}',
    ].join('\n');
    const x = extract(text, 'client.json');
    const site = (anchor: string) => {
      const found = x.requestSites.filter((s) => slice(text, s.anchorRange) === anchor);
      assert.equal(found.length, 1, anchor);
      return found[0];
    };

    it('finds named objects and objects holding a log-prob key, nothing else', () => {
      assert.deepEqual(
        x.requestSites.map((s) => slice(text, s.anchorRange)),
        ['rollout', 'body', 'sglang', 'extra_body'],
      );
    });

    it('a multi-line object: insertion on a new line with the members indentation', () => {
      const s = site('rollout');
      assert.deepEqual([s.style, s.format, s.apiKind, s.isRollout], ['mapping', 'json', 'chat', true]);
      assert.match(s.rolloutReason ?? '', /rollout/);
      assert.equal(slice(text, s.range), '{\n    "model": "m",\n    "top_logprobs": 2\n  }');
      assert.deepEqual(Object.keys(s.params), ['model', 'top_logprobs']);
      assert.deepEqual(s.insertion, { offset: text.indexOf('"top_logprobs": 2') + '"top_logprobs": 2'.length, prefix: ',\n    ', suffix: '' });
      const edited = applyInsertion(text, s.insertion!, '"logprobs": true');
      assert.equal(JSON.parse(edited).rollout.logprobs, true);
    });

    it('a one-line object gets ", "; an empty one gets its inside', () => {
      const body = site('body');
      assert.equal(body.apiKind, 'chat');
      assert.equal(body.isRollout, false);
      assert.equal(body.insertion!.prefix, ', ');
      assert.equal(JSON.parse(applyInsertion(text, body.insertion!, '"top_logprobs": 1')).body.top_logprobs, 1);
      assert.equal(site('sglang').apiKind, 'sglang-generate');
      const empty = site('extra_body');
      assert.deepEqual(empty.insertion, { offset: text.indexOf('{}') + 1, prefix: '', suffix: '' });
      assert.equal(JSON.parse(applyInsertion(text, empty.insertion!, '"logprobs": true')).extra_body.logprobs, true);
    });

    it('a root object with logprobs anchors at its brace', () => {
      const t = '{"model": "m", "logprobs": true}';
      const [s] = extract(t, 'rollout_request.json').requestSites;
      assert.deepEqual(s.anchorRange, { start: 0, end: 1 });
      assert.equal(s.isRollout, true);
      assert.match(s.rolloutReason ?? '', /rollout_request\.json/);
    });

    it('CRLF files get CRLF insertions', () => {
      const t = '{\r\n  "sampling": {\r\n    "temperature": 1\r\n  }\r\n}\r\n';
      const [s] = extract(t).requestSites;
      assert.equal(s.insertion!.prefix, ',\r\n    ');
    });
  });

  describe('errors and odd input', () => {
    it('reports parse errors in words and still extracts the rest', () => {
      const text = '{"a": , "b": tru, "c": "unterm\n, "d": 1}';
      const x = extract(text);
      assert.deepEqual(
        x.parseProblems.map((p) => p.message),
        ['Value expected', 'Invalid symbol', 'Value expected', 'Unexpected end of string'],
      );
      assert.equal(slice(text, x.parseProblems[1].range), 'tru');
      assert.equal(settingAt(x, 'd').value, '1');
      const unterminated = settingAt(x, 'c');
      assert.equal(slice(text, unterminated.contentRange), 'unterm');
    });

    it('reads a leading BOM as white space', () => {
      const text = '\ufeff{"a": "x"}';
      const x = extract(text);
      assert.deepEqual(x.parseProblems, []);
      assert.equal(slice(text, settingAt(x, 'a').contentRange), 'x');
    });

    it('reports nesting deeper than the limit instead of recursing into it', () => {
      for (const text of ['['.repeat(100000), '{"a":'.repeat(20000)]) {
        const x = extract(text);
        assert.deepEqual(
          x.parseProblems.map((p) => p.message),
          ['Nesting deeper than 256 levels is not read'],
        );
      }
    });

    it('handles empty and non-object documents', () => {
      assert.deepEqual(extract('').settings, []);
      assert.deepEqual(extract('"just a string"').settings, []);
      assert.equal(settingAt(extract('[{"a": 1}]'), '[0].a').group, '[0]');
    });

    it('never throws and keeps every range inside the text (property)', () => {
      const pieces = fc.constantFrom('{', '}', '[', ']', ':', ',', '"a"', '"', '1', 'true', 'null', ' ', '\n', '\r\n', '//', '/*', '*/', '中', '😀', '"env"', '"logprobs"', '\ufeff', '\0');
      fc.assert(
        fc.property(fc.array(pieces, { maxLength: 60 }), (parts) => {
          extract(parts.join(''));
        }),
        { numRuns: 500 },
      );
    });

    it('decodes every value JSON.stringify writes (property)', () => {
      fc.assert(
        fc.property(fc.dictionary(fc.string({ minLength: 1 }).filter((k) => k !== 'env' && k !== 'environment'), fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null))), (object) => {
          const text = JSON.stringify({ outer: object }, null, 2);
          const x = extract(text);
          assert.deepEqual(x.parseProblems, []);
          for (const [key, value] of Object.entries(object)) {
            const found = x.settings.find((s) => s.key === key);
            assert.ok(found, key);
            assert.deepEqual(JSON.parse(found.raw), JSON.parse(JSON.stringify(value)));
            if (typeof value === 'string') assert.equal(found.value, value);
          }
        }),
        { numRuns: 200 },
      );
    });
  });
});
