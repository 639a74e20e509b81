import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'dotenv';
import fc from 'fast-check';
import { extractDotenv } from '../../../server/src/core/formats/dotenv';
import type { Extraction, Loader, Range, Setting } from '../../../server/src/core/model/types';

const slice = (text: string, range: Range) => text.slice(range.start, range.end);

function only(text: string): Setting {
  const { settings } = extractDotenv(text);
  assert.equal(settings.length, 1, `one setting in ${JSON.stringify(text)}`);
  return settings[0];
}

function loaded(nodeDotenv: string | null, pythonDotenv: string | null, posixShell: string | null, compose: string | null, dockerEnvFile: string | null): Record<Loader, string | null> {
  return { nodeDotenv, pythonDotenv, posixShell, compose, dockerEnvFile };
}

/** Every range lies inside the text and slices to what it names. */
function checkInvariants(text: string, extraction: Extraction): void {
  const inside = (r: Range) => 0 <= r.start && r.start <= r.end && r.end <= text.length;
  for (const s of extraction.settings) {
    for (const r of [s.keyRange, s.valueRange, s.contentRange, s.statementRange]) assert.ok(inside(r), JSON.stringify(r));
    assert.equal(slice(text, s.keyRange), s.key);
    assert.equal(slice(text, s.valueRange), s.raw);
    assert.ok(s.valueRange.start <= s.contentRange.start && s.contentRange.end <= s.valueRange.end);
    assert.ok(s.statementRange.start <= s.keyRange.start && s.valueRange.end <= s.statementRange.end);
    assert.equal(s.value, s.loaded?.nodeDotenv ?? undefined);
  }
  for (const c of extraction.comments) {
    assert.ok(inside(c.range));
    assert.equal(slice(text, c.range), c.text);
    assert.ok(c.text.startsWith('#'));
  }
  for (const p of extraction.parseProblems) assert.ok(inside(p.range) && p.range.end > p.range.start);
}

describe('extractDotenv', () => {
  it('yields one env setting per statement, ranges slicing to key, raw, content and line', () => {
    const text = '# header\nexport OPENAI_BASE_URL = "https://x.example/v1" # inline\nOPENAI_API_KEY=sk-test-0000  \nEMPTY=\n';
    const x = extractDotenv(text);
    checkInvariants(text, x);
    assert.deepEqual(x.settings.map((s) => s.key), ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'EMPTY']);
    const [url, key, empty] = x.settings;
    assert.equal(url.kind, 'env');
    assert.equal(url.format, 'dotenv');
    assert.equal(url.path, 'OPENAI_BASE_URL');
    assert.equal(url.group, 'file');
    assert.equal(url.valueType, 'string');
    assert.equal(url.quote, '"');
    assert.equal(url.raw, '"https://x.example/v1"');
    assert.equal(slice(text, url.contentRange), 'https://x.example/v1');
    assert.equal(url.value, 'https://x.example/v1');
    assert.equal(slice(text, url.statementRange), 'export OPENAI_BASE_URL = "https://x.example/v1" # inline');
    assert.equal(key.raw, 'sk-test-0000  ');
    assert.equal(key.quote, '');
    assert.deepEqual(key.contentRange, key.valueRange);
    assert.equal(key.value, 'sk-test-0000');
    assert.equal(empty.raw, '');
    assert.deepEqual(empty.valueRange, { start: text.indexOf('EMPTY=') + 6, end: text.indexOf('EMPTY=') + 6 });
    assert.equal(empty.value, '');
    assert.deepEqual(x.comments.map((c) => c.text), ['# header', '# inline']);
    assert.deepEqual(x.parseProblems, []);
  });

  describe('records what each loader reads', () => {
    const table: Array<[string, Record<Loader, string | null>]> = [
      ['K=V', loaded('V', 'V', 'V', 'V', 'V')],
      ['K = V', loaded('V', 'V', null, 'V', null)],
      ['export K=V', loaded('V', 'V', 'V', 'V', null)],
      ['K=V  ', loaded('V', 'V', 'V', 'V', 'V  ')],
      ['K="V"', loaded('V', 'V', 'V', 'V', '"V"')],
      ["K='a\\nb'", loaded('a\\nb', 'a\\nb', 'a\\nb', 'a\\nb', "'a\\nb'")],
      ['K="a\\nb"', loaded('a\nb', 'a\nb', 'a\\nb', 'a\nb', '"a\\nb"')],
      ['K=a#b', loaded('a', 'a#b', 'a#b', 'a#b', 'a#b')],
      ['K=  # c', loaded('', '# c', '', '# c', '  # c')],
      ['K=abc def', loaded('abc def', 'abc def', 'abc', 'abc def', 'abc def')],
      ['K.X-Y=1', loaded('1', '1', null, '1', '1')],
      ['K: v', loaded('v', null, null, 'v', null)],
      ['K=`v`', loaded('v', '`v`', '`v`', '`v`', '`v`')],
      ['K="x', loaded('"x', null, null, null, '"x')],
      ['K=v\r\n', loaded('v', 'v', 'v\r', 'v', 'v')],
    ];
    for (const [input, expected] of table) {
      it(JSON.stringify(input), () => assert.deepEqual(only(input).loaded, expected));
    }
  });

  describe('shared cases', () => {
    const caseText = (id: string, file = '.env') => readFileSync(join(__dirname, '../../cases', id, file), 'utf8');
    const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

    for (const [id, file] of [['case-01'], ['case-04'], ['case-05'], ['case-08'], ['case-17'], ['case-19'], ['case-22'], ['case-23'], ['case-24', '.env.example']]) {
      it(`${id} extracts cleanly`, () => {
        const text = caseText(id, file);
        const x = extractDotenv(text);
        checkInvariants(text, x);
        assert.deepEqual(x.parseProblems, []);
        assert.ok(x.settings.length > 0);
      });
    }

    it('case-01: the endpoint URL is the setting on line 3', () => {
      const text = caseText('case-01');
      const url = extractDotenv(text).settings.find((s) => s.key === 'OPENAI_BASE_URL')!;
      assert.equal(lineOf(text, url.keyRange.start), 3);
      assert.deepEqual(url.loaded, loaded(...(Array(5).fill('https://api.example.com/v1/chat/completions') as [string, string, string, string, string])));
    });

    it('case-17: the comment after an empty key is a value for python-dotenv, compose and docker', () => {
      const text = caseText('case-17');
      const x = extractDotenv(text);
      const key = x.settings.find((s) => s.key === 'OPENAI_API_KEY')!;
      assert.equal(lineOf(text, key.keyRange.start), 2);
      assert.equal(key.raw, ' '.repeat(21));
      const note = '# get one from your provider dashboard';
      assert.deepEqual(key.loaded, loaded('', note, '', note, ' '.repeat(21) + note));
      assert.ok(x.comments.some((c) => c.text === note));
    });

    it('case-22: the trailing space after the key survives only in docker --env-file', () => {
      const key = extractDotenv(caseText('case-22')).settings.find((s) => s.key === 'ANTHROPIC_API_KEY')!;
      const fake = 'sk-ant-test-0000000000000000000000000000';
      assert.equal(key.raw, fake + ' ');
      assert.deepEqual(key.loaded, loaded(fake, fake, fake, fake, fake + ' '));
    });
  });

  it('keeps ranges right after Chinese comments and non-BMP characters', () => {
    const text = '# 中文注释：在这里填写密钥 😀\n# 第二行\nOPENAI_API_KEY=sk-test-000 # 注释\nOPENAI_BASE_URL="https://例子.example/v1"\n';
    const x = extractDotenv(text);
    checkInvariants(text, x);
    const [key, url] = x.settings;
    assert.equal(key.keyRange.start, text.indexOf('OPENAI_API_KEY'));
    assert.equal(key.raw, 'sk-test-000 ');
    assert.equal(slice(text, url.contentRange), 'https://例子.example/v1');
    assert.deepEqual(x.comments.map((c) => c.text), ['# 中文注释：在这里填写密钥 😀', '# 第二行', '# 注释']);
  });

  it('handles CRLF files, line breaks excluded from ranges', () => {
    const text = '# c\r\nA=1 \r\nB="x\r\ny"\r\nC=3\r\n';
    const x = extractDotenv(text);
    checkInvariants(text, x);
    const [a, b, c] = x.settings;
    assert.equal(slice(text, a.statementRange), 'A=1 ');
    assert.deepEqual(a.loaded, loaded('1', '1', '1', '1', '1 '));
    assert.equal(slice(text, b.statementRange), 'B="x\r\ny"');
    assert.deepEqual(b.loaded, loaded('x\ny', 'x\ny', 'x\r\ny\r', 'x\r\ny', '"x'));
    assert.equal(c.value, '3');
    assert.deepEqual(x.comments.map((k) => k.text), ['# c']);
  });

  it('handles lone CR line breaks, which only node and python treat as line breaks', () => {
    const text = 'A=1\rB=2\r';
    const [a, b] = extractDotenv(text).settings;
    assert.deepEqual(a.loaded, loaded('1', '1', '1\rB=2\r', '1\rB=2', '1\rB=2'));
    assert.deepEqual(b.loaded, loaded('2', '2', null, null, null));
  });

  it('tolerates a BOM and tabs', () => {
    const text = '\uFEFF\tK\t=\tv\t# c';
    const s = only(text);
    assert.equal(s.keyRange.start, 2);
    assert.equal(s.raw, '\tv\t');
    assert.equal(s.value, 'v');
  });

  it('follows node dotenv across lines: multi-line quotes, KEY⏎=v, KEY:⏎value', () => {
    const text = 'A="line1\nline2"\nB\n=2\nC:\nD=4\nE=\n"five"\nF=6';
    const x = extractDotenv(text);
    checkInvariants(text, x);
    assert.deepEqual(Object.fromEntries(x.settings.map((s) => [s.key, s.value])), parse(text));
    assert.deepEqual(x.settings.map((s) => s.key), ['A', 'B', 'C', 'E', 'F']);
    assert.equal(slice(text, x.settings[0].statementRange), 'A="line1\nline2"');
    assert.equal(x.settings[2].raw, 'D=4');
  });

  describe('reports malformed lines and goes on', () => {
    const table: Array<[string, RegExp, string, string[]]> = [
      ['NOEQUALS\nK=1', /Expected "=" after NOEQUALS/, 'NOEQUALS', ['K']],
      ['K€Y=1\nK=1', /Invalid character "€" in the variable name K/, 'K€Y=1', ['K']],
      ['=value\nK=1', /Expected a variable name/, '=value', ['K']],
      ['"Q"=1\nK=1', /Expected a variable name/, '"Q"=1', ['K']],
      ['A="unterminated\nB=2\nC="ok"', /Unterminated " quote in the value of A/, '"unterminated', ['A', 'B', 'C']],
      ["A='x\nB=2", /Unterminated ' quote/, "'x", ['A', 'B']],
      ['A="x" junk  \nB=2', /Unexpected text after the closing " quote in the value of A/, 'junk', ['A', 'B']],
    ];
    for (const [text, message, rangeText, keys] of table) {
      it(JSON.stringify(text), () => {
        const x = extractDotenv(text);
        checkInvariants(text, x);
        assert.equal(x.parseProblems.length, 1);
        assert.match(x.parseProblems[0].message, message);
        assert.equal(slice(text, x.parseProblems[0].range), rangeText);
        assert.deepEqual(x.settings.map((s) => s.key), keys);
      });
    }

    it('reads an unterminated quote the way node dotenv does', () => {
      const x = extractDotenv('A="unterminated\nB=2\nC="ok"');
      assert.deepEqual(x.settings.map((s) => s.value), ['"unterminated', '2', 'ok']);
      assert.equal(x.settings[0].quote, '');
    });
  });

  it('never throws on binary garbage', () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + (i >> 3)) % 256));
    for (const text of [bytes.toString('utf8'), bytes.toString('latin1'), '\0\0K=\0"\u2028\uD800=\r\r\n\uFFFD']) {
      checkInvariants(text, extractDotenv(text));
    }
  });

  it('handles 50k-line files and pathological lines (watchdog: mocha timeout)', () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => [`K${i}=v${i}`, `# c${i}`, `export Q${i}="a b" # c`, `U${i}='x`][i % 4]);
    const text = lines.join('\n');
    const x = extractDotenv(text);
    assert.equal(x.settings.length, 37_500);
    assert.equal(x.parseProblems.length, 12_500);
    for (const nasty of ['K="\\"\n'.repeat(20_000), 'K=' + ' '.repeat(200_000) + 'x', 'A=\\"x\n'.repeat(20_000) + 'B="', '"'.repeat(50_000), 'K:\n'.repeat(30_000)]) {
      checkInvariants(nasty, extractDotenv(nasty));
    }
  });

  describe('properties', () => {
    const KEYS = ['A', 'B_1', 'K.X', 'K-X', 'export A', 'export  B_1', ' A', '\tB_1', 'A ', '1A', 'export', '"A"', 'A€'];
    const SEPS = ['=', ' = ', '= ', ' =', '=\t', ':', ': ', ':\n', '\n=', '=\n', '=\n\n'];
    const PIECES = ['"\nx"', "'\r\n'", 'abc', ' ', '#', ' #c', '"', "'", '`', '\\', '\\"', "\\'", '\\n', '=', 'x y', '\t', '\r', '中', '😀', '"q"', "'q'", '`q`', "'a # b'", '\n', '\r\n'];
    const statement = fc
      .tuple(fc.constantFrom(...KEYS), fc.constantFrom(...SEPS), fc.array(fc.constantFrom(...PIECES), { maxLength: 4 }))
      .map(([key, sep, pieces]) => key + sep + pieces.join(''));
    const otherLine = fc.constantFrom('# comment', '', '  ', 'garbage', 'A', '"q"', "'x");
    const dotenvish = fc
      .tuple(fc.array(fc.oneof(statement, otherLine), { maxLength: 6 }), fc.constantFrom('\n', '\r\n', '\r'))
      .map(([lines, br]) => lines.join(br));
    const anything = fc
      .tuple(fc.array(fc.oneof(statement, fc.string({ unit: 'binary', maxLength: 16 })), { maxLength: 6 }), fc.constantFrom('\n', '\r\n', '\r'))
      .map(([lines, br]) => lines.join(br));

    it('never throws, and every range lies inside the text and slices to what it names', () => {
      fc.assert(fc.property(anything, (text) => checkInvariants(text, extractDotenv(text))), { numRuns: 2000 });
    });

    it('per-statement node values equal dotenv.parse() of the whole file', () => {
      fc.assert(
        fc.property(dotenvish, (text) => {
          const mine: Record<string, string> = {};
          for (const s of extractDotenv(text).settings) if (s.value !== undefined) mine[s.key] = s.value;
          assert.deepEqual(mine, { ...parse(text) });
        }),
        { numRuns: 3000 },
      );
    });
  });
});
