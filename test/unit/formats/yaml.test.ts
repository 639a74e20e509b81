import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { stringify } from 'yaml';
import { extractYaml } from '../../../server/src/core/formats/yaml';
import { assertWellFormed, lineOf, settingAt, slice } from './extraction-helpers';

const CASES = join(__dirname, '../../cases');

function extract(text: string, path = 'config.yaml') {
  const extraction = extractYaml(text, path);
  assertWellFormed(text, extraction);
  return extraction;
}

describe('extractYaml', () => {
  describe('settings', () => {
    const text = [
      '# 中文注释：模型服务 😀',
      'rollout:',
      '  base_url: "http://127.0.0.1:30000/v1"   # 本地服务',
      '  servers:',
      "    - url: 'http://a:8000/v1'",
      '      weight: 2',
      '  "a.b": x',
      'tags: [one, two]',
      '',
    ].join('\n');
    const x = extract(text);

    it('gives dotted paths, keys and exact ranges for a quoted value after Chinese text', () => {
      const s = settingAt(x, 'rollout.base_url');
      assert.equal(s.kind, 'property');
      assert.equal(s.format, 'yaml');
      assert.equal(s.key, 'base_url');
      assert.equal(slice(text, s.keyRange), 'base_url');
      assert.equal(slice(text, s.valueRange), '"http://127.0.0.1:30000/v1"');
      assert.equal(slice(text, s.contentRange), 'http://127.0.0.1:30000/v1');
      assert.equal(slice(text, s.statementRange), 'base_url: "http://127.0.0.1:30000/v1"');
      assert.equal(s.raw, '"http://127.0.0.1:30000/v1"');
      assert.equal(s.value, 'http://127.0.0.1:30000/v1');
      assert.equal(s.valueType, 'string');
      assert.equal(s.quote, '"');
      assert.equal(s.group, 'rollout');
      assert.equal(lineOf(text, s.valueRange.start), 3);
    });

    it('indexes lists as [i] and groups by the enclosing mapping', () => {
      const url = settingAt(x, 'rollout.servers[0].url');
      assert.equal(url.quote, "'");
      assert.equal(slice(text, url.contentRange), 'http://a:8000/v1');
      assert.equal(url.group, 'rollout.servers[0]');
      const weight = settingAt(x, 'rollout.servers[0].weight');
      assert.equal(weight.valueType, 'number');
      assert.equal(weight.value, '2');
      assert.equal(weight.group, url.group);
    });

    it('quotes keys holding dots in the path; keyRange is inside the key quotes', () => {
      const s = settingAt(x, 'rollout."a.b"');
      assert.equal(s.key, 'a.b');
      assert.equal(slice(text, s.keyRange), 'a.b');
      assert.equal(slice(text, s.statementRange), '"a.b": x');
    });

    it('gives scalar list items the list key and the enclosing mapping as group', () => {
      const s = settingAt(x, 'tags[1]');
      assert.equal(s.key, 'tags');
      assert.equal(slice(text, s.keyRange), 'tags');
      assert.equal(slice(text, s.valueRange), 'two');
      assert.equal(s.group, '');
    });

    it('reads comments from the parser, not from quoted text', () => {
      const t = '# head\na: "x # not a comment"  # tail\nb: [1, # in flow\n  2]\n';
      const c = extract(t).comments;
      assert.deepEqual(
        c.map((comment) => [comment.text, slice(t, comment.range)]),
        [
          ['head', '# head'],
          ['tail', '# tail'],
          ['in flow', '# in flow'],
        ],
      );
      assert.deepEqual(
        x.comments.map((comment) => slice(text, comment.range)),
        ['# 中文注释：模型服务 😀', '# 本地服务'],
      );
    });
  });

  describe('value types (yaml 1.2 core schema)', () => {
    const text = ['a: "true"', 'b: true', 'c: yes', 'd: off', 'e: ~', 'f:', 'g: 1.50', 'h: 0x1F', "i: 'it''s'", 'j: True', 'k: -.inf', 'l: "a\\tb"', ''].join('\n');
    const x = extract(text);
    const cases: Array<[string, string, string | undefined, string, string]> = [
      ['a', 'string', 'true', '"', '"true"'],
      ['b', 'boolean', 'true', '', 'true'],
      ['c', 'string', 'yes', '', 'yes'],
      ['d', 'string', 'off', '', 'off'],
      ['e', 'null', 'null', '', '~'],
      ['f', 'null', 'null', '', ''],
      ['g', 'number', '1.50', '', '1.50'],
      ['h', 'number', '0x1F', '', '0x1F'],
      ['i', 'string', "it's", "'", "'it''s'"],
      ['j', 'boolean', 'true', '', 'True'],
      ['k', 'number', '-.inf', '', '-.inf'],
      ['l', 'string', 'a\tb', '"', '"a\\tb"'],
    ];
    for (const [key, valueType, value, quote, raw] of cases) {
      it(`${key}: ${raw || '(empty)'} is ${valueType}`, () => {
        const s = settingAt(x, key);
        assert.deepEqual([s.valueType, s.value, s.quote, s.raw], [valueType, value, quote, raw]);
      });
    }

    it('puts an empty value right after the colon', () => {
      const s = settingAt(x, 'f');
      assert.equal(slice(text, s.statementRange), 'f:');
      assert.equal(s.valueRange.start, text.indexOf('f:') + 2);
    });

    it('spans quoted content without the quotes, escapes included', () => {
      assert.equal(slice(text, settingAt(x, 'i').contentRange), "it''s");
      assert.equal(slice(text, settingAt(x, 'l').contentRange), 'a\\tb');
    });

    it('reads booleans of a %YAML 1.1 document as booleans', () => {
      const s = settingAt(extract('%YAML 1.1\n---\na: yes\n'), 'a');
      assert.deepEqual([s.valueType, s.value, s.raw], ['boolean', 'true', 'yes']);
    });

    it('gives block scalars their content range', () => {
      const t = 'prompt: |\n  line one\n  line two\n\nfolded: >-\n  a\n  b\nnext: 1\n';
      const y = extract(t);
      const prompt = settingAt(y, 'prompt');
      assert.equal(prompt.value, 'line one\nline two\n');
      assert.equal(slice(t, prompt.valueRange), '|\n  line one\n  line two');
      assert.equal(slice(t, prompt.contentRange), 'line one\n  line two');
      assert.equal(prompt.quote, '');
      const folded = settingAt(y, 'folded');
      assert.equal(folded.value, 'a b');
      assert.equal(slice(t, folded.contentRange), 'a\n  b');
      assert.equal(slice(t, settingAt(y, 'next').statementRange), 'next: 1');
    });

    it('marks alias values dynamic and keeps the anchored value', () => {
      const t = 'base: &u http://x/v1\nother: *u\n';
      const y = extract(t);
      const other = settingAt(y, 'other');
      assert.deepEqual([other.valueType, other.value, other.raw, other.quote], ['dynamic', undefined, '*u', '']);
      const base = settingAt(y, 'base');
      assert.equal(base.value, 'http://x/v1');
      assert.equal(slice(t, base.valueRange), 'http://x/v1');
    });
  });

  describe('documents, errors and odd input', () => {
    it('reads every document of a stream and keeps groups apart', () => {
      const text = 'a: 1\n---\nb:\n  c: 2\n---\na: 3\n';
      const x = extract(text);
      assert.deepEqual(
        x.settings.map((s) => [s.path, s.group, slice(text, s.valueRange)]),
        [
          ['a', '', '1'],
          ['b.c', 'doc1:b', '2'],
          ['a', 'doc2:', '3'],
        ],
      );
    });

    it('reports duplicate keys and keeps both', () => {
      const text = 'a: 1\nb: 2\na: 3\n';
      const x = extract(text);
      assert.deepEqual(
        x.parseProblems.map((p) => [p.message, p.range.start]),
        [['Map keys must be unique', text.lastIndexOf('a:')]],
      );
      assert.deepEqual(
        x.settings.filter((s) => s.key === 'a').map((s) => s.value),
        ['1', '3'],
      );
    });

    it('reports tab indentation and still extracts', () => {
      const text = 'a:\n\tb: 1\nc: 2\n';
      const x = extract(text);
      assert.ok(x.parseProblems.some((p) => /tab/i.test(p.message)));
      assert.equal(settingAt(x, 'c').value, '2');
    });

    it('reports an unterminated quote with a range inside the text', () => {
      const text = 'a: "unterminated\nb: 1\n';
      const x = extract(text);
      assert.ok(x.parseProblems.length > 0);
      assert.equal(settingAt(x, 'a').quote, '"');
    });

    it('keeps offsets with a BOM and with CRLF line ends', () => {
      const bom = '\ufeffa: 1\n';
      assert.equal(slice(bom, settingAt(extract(bom), 'a').keyRange), 'a');
      const crlf = 'a:\r\n  b: "x"\r\n  c: y\r\n';
      const x = extract(crlf);
      assert.equal(slice(crlf, settingAt(x, 'a.b').statementRange), 'b: "x"');
      assert.equal(settingAt(x, 'a.c').raw, 'y');
    });

    it('reports nesting deeper than the limit instead of recursing into it', () => {
      for (const text of ['['.repeat(20000), '{"a":'.repeat(20000), '- '.repeat(1000) + 'x']) {
        const x = extract(text);
        assert.ok(x.parseProblems.some((p) => /Nesting deeper/.test(p.message)));
      }
      const ok = extract('a:\n' + Array.from({ length: 100 }, (_, i) => ' '.repeat(i + 1) + `k${i}:`).join('\n') + ' 1\n');
      assert.equal(ok.parseProblems.length, 0);
      assert.equal(ok.settings.length, 1);
    });

    it('reads a 5 MB file', () => {
      const blocks: string[] = [];
      let length = 0;
      for (let i = 0; length < 5_000_000; i++) {
        const block = `svc${i}:\n  base_url: "http://h${i}:8000/v1" # 注释\n  api_key: sk-test-${String(i).padStart(8, '0')}\n  port: ${i}\n`;
        blocks.push(block);
        length += block.length;
      }
      const text = blocks.join('');
      const x = extractYaml(text, 'big.yaml');
      assert.equal(x.parseProblems.length, 0);
      assert.equal(x.settings.length, blocks.length * 3);
      const last = x.settings[x.settings.length - 1];
      assert.equal(slice(text, last.valueRange), String(blocks.length - 1));
      assert.equal(x.comments.length, blocks.length);
    });

    it('never throws and keeps every range inside the text (property)', () => {
      const pieces = fc.constantFrom('a', ':', ' ', '\n', '\r\n', '\t', '-', '"', "'", '#', '{', '}', '[', ']', ',', '&x', '*x', '|', '>', '---', '中', '😀', '=', 'env', 'logprobs', '\ufeff', '\0');
      fc.assert(
        fc.property(fc.array(pieces, { maxLength: 60 }), (parts) => {
          extract(parts.join(''));
        }),
        { numRuns: 500 },
      );
    });

    it('decodes any string value the yaml package writes (property)', () => {
      fc.assert(
        fc.property(fc.dictionary(fc.string({ minLength: 1 }).filter((k) => k !== '<<'), fc.string()), (object) => {
          const text = stringify(object);
          const x = extract(text);
          assert.equal(x.parseProblems.length, 0);
          for (const [key, value] of Object.entries(object)) {
            const found = x.settings.find((s) => s.key === key);
            assert.ok(found, key);
            assert.equal(found.value, value);
          }
        }),
        { numRuns: 200 },
      );
    });
  });

  describe('shared cases', () => {
    it('case-10: vllm_server_host on line 4', () => {
      const text = readFileSync(join(CASES, 'case-10/grpo.yaml'), 'utf8');
      const s = settingAt(extract(text, 'case-10/grpo.yaml'), 'vllm_server_host');
      assert.equal(lineOf(text, s.valueRange.start), 4);
      assert.deepEqual([s.value, s.valueType, s.kind], ['0.0.0.0', 'string', 'property']);
    });

    it('case-35: "false" is a quoted string, top_logprobs a number, sampling a site', () => {
      const text = readFileSync(join(CASES, 'case-35/config.yaml'), 'utf8');
      const x = extract(text, 'case-35/config.yaml');
      const eager = settingAt(x, 'vllm.enforce_eager');
      assert.deepEqual([eager.valueType, eager.value, eager.quote, lineOf(text, eager.valueRange.start)], ['string', 'false', '"', 3]);
      const logprobs = settingAt(x, 'sampling.logprobs');
      assert.deepEqual([logprobs.valueType, logprobs.quote, lineOf(text, logprobs.valueRange.start)], ['string', '"', 6]);
      const top = settingAt(x, 'sampling.top_logprobs');
      assert.deepEqual([top.valueType, top.value], ['number', '1']);
      assert.equal(x.requestSites.length, 1);
      const [site] = x.requestSites;
      assert.equal(slice(text, site.anchorRange), 'sampling');
      assert.equal(site.apiKind, 'chat');
      assert.deepEqual(Object.keys(site.params), ['logprobs', 'top_logprobs']);
    });
  });
});
