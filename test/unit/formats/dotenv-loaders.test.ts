import assert from 'node:assert/strict';
import { nodeDotenvValue } from '../../../server/src/core/formats/dotenv';
import { readCompose } from '../../../server/src/core/formats/dotenv/compose';
import { readDockerEnvFile } from '../../../server/src/core/formats/dotenv/docker';
import type { LoadedEntry } from '../../../server/src/core/formats/dotenv/entry';
import { readPythonDotenv } from '../../../server/src/core/formats/dotenv/python';
import { readPosixShell } from '../../../server/src/core/formats/dotenv/shell';

type Table = Array<[input: string, expected: Record<string, string | null>]>;

/** Last value per key, as the loader leaves the environment. */
function values(entries: LoadedEntry[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const entry of entries) out[entry.key] = entry.value;
  return out;
}

function checkTable(read: (text: string) => LoadedEntry[], table: Table): void {
  for (const [input, expected] of table) {
    it(JSON.stringify(input), () => assert.deepEqual(values(read(input)), expected));
  }
}

// Every row was checked against python-dotenv 1.2.2 `dotenv_values(path, interpolate=False)`.
describe('readPythonDotenv (python-dotenv dotenv_values)', () => {
  checkTable(readPythonDotenv, [
    ['K=abc', { K: 'abc' }],
    ['export K=abc', { K: 'abc' }],
    ['K = abc', { K: 'abc' }],
    ['K=  abc  ', { K: 'abc' }],
    ['K=abc # c', { K: 'abc' }],
    ['K=abc\t# c', { K: 'abc' }],
    ['K=abc#c', { K: 'abc#c' }],
    ['K=   # note', { K: '# note' }],
    ['K=#abc', { K: '#abc' }],
    ['K=', { K: '' }],
    ["K='a\\nb'", { K: 'a\\nb' }],
    ["K='it\\'s'", { K: "it's" }],
    ["K='a\\\\b'", { K: 'a\\b' }],
    ["K='a # b' # c", { K: 'a # b' }],
    ['K="a\\nb\\t\\"c\\\\"', { K: 'a\nb\t"c\\' }],
    ['K="a\\qb"', { K: 'a\\qb' }],
    ['K="line1\nline2"', { K: 'line1\nline2' }],
    ['K="a\r\nb"', { K: 'a\nb' }],
    ['K="a" # c', { K: 'a' }],
    ['K', { K: null }],
    ['K="unterminated\nB=2', { B: '2' }],
    ['K="a" junk\nB=2', { B: '2' }],
    ['K.X-Y=1', { 'K.X-Y': '1' }],
    ['K=${HOME}/x', { K: '${HOME}/x' }],
    ['# c\n  K=1', { K: '1' }],
    ['K=a\r\nB=b\r\n', { K: 'a', B: 'b' }],
    ['K=a\rB=b', { K: 'a', B: 'b' }],
    ['K: v', {}],
    ['K=`a`', { K: '`a`' }],
  ]);
});

// Rows were checked against dash (`set -a; . ./f.env`) except where a comment says otherwise.
describe('readPosixShell (set -a; . ./.env)', () => {
  checkTable(readPosixShell, [
    ['K=abc', { K: 'abc' }],
    ['export K=abc', { K: 'abc' }],
    ['K = abc', {}],
    ['K=  # c', { K: '' }],
    ['K=a#b', { K: 'a#b' }],
    ['K=#abc', { K: '#abc' }],
    ["K='a b # c'", { K: 'a b # c' }],
    ["K='a\\nb'", { K: 'a\\nb' }],
    ['K="a \\"b\\" \\$x \\\\ \\n"', { K: 'a "b" $x \\ \\n' }],
    ['K=a\\ b', { K: 'a b' }],
    ['K=ab"c d"\'e\'', { K: 'abc de' }],
    ['K=abc\r\nB=1\r\n', { K: 'abc\r', B: '1\r' }],
    ['K="multi\nline"', { K: 'multi\nline' }],
    ['K=a\\\nb', { K: 'ab' }],
    ['K-X=1', {}],
    ['K: v', {}],
    ['K="unterminated\nB=2', {}],
    ['A=1\nK=(x\nB=2', { A: '1' }],
    ['A=1\nexport K-X=1\nB=2', { A: '1' }],
    ['A=1 B=2', { A: '1', B: '2' }],
    ['A=a;B=b', { A: 'a', B: 'b' }],
    ['export A=1 B="2 3"', { A: '1', B: '2 3' }],
    // Expansions are kept as written (the shell would expand them).
    ['K=$HOME/x', { K: '$HOME/x' }],
    ['K="${A:-x y}"', { K: '${A:-x y}' }],
    ['K=$(echo a b)', { K: '$(echo a b)' }],
    ['K=`echo a b`', { K: '`echo a b`' }],
    // Deliberate: the shell runs `def` with K in its environment and leaves K unset; the
    // truncated value is recorded.
    ['K=abc def', { K: 'abc' }],
  ]);
  it('stops at deeply nested substitutions without overflowing the stack', () => {
    assert.deepEqual(values(readPosixShell('A=1\nK="' + '$("'.repeat(5000))), { A: '1' });
  });
});

// From compose-go v2 dotenv/parser.go (no compose binary here to run).
describe('readCompose (compose-go dotenv)', () => {
  checkTable(readCompose, [
    ['K=abc', { K: 'abc' }],
    ['export K=abc', { K: 'abc' }],
    ['K = abc', { K: 'abc' }],
    ['K: abc', { K: 'abc' }],
    ['K:abc', { K: 'abc' }],
    ['K=  abc  ', { K: 'abc' }],
    ['K=abc # c', { K: 'abc' }],
    ['K=abc#c', { K: 'abc#c' }],
    ['K=abc\t#c', { K: 'abc\t#c' }],
    ['K=   # note', { K: '# note' }],
    ['K=', { K: '' }],
    ["K='a\\nb'", { K: 'a\\nb' }],
    ["K='it\\'s'", { K: "it's" }],
    ["K='a\\\\b'", { K: 'a\\\\b' }],
    ['K="a\\nb\\t\\"c\\\\ \\$x \\c"', { K: 'a\nb\t"c\\ $x \\c' }],
    ['K="\\0101\\012"', { K: 'A\\012' }],
    ['K="multi\nline"', { K: 'multi\nline' }],
    ['K="a" # c\nB=1', { K: 'a', B: '1' }],
    ['K="unterminated\nB=2', { K: null, B: '2' }],
    ['K X=1\nB=2', { 'K X': null, B: '2' }],
    ['K€=1\nB=2', { '': null, B: '2' }],
    ['Ké=1', { Ké: '1' }],
    ['K=abc\r\nB=2', { K: 'abc', B: '2' }],
    ['K=a\rB=b', { K: 'a\rB=b' }],
    ['K=${HOME}', { K: '${HOME}' }],
    ['# c\nK\n', {}],
    // compose-go quirk: a last line with neither `=` nor a newline becomes the value of key ''.
    ['K', { '': 'K' }],
  ]);
});

// From docker/cli pkg/kvfile (docker 28 rejects `export K=V` locally: "variable 'export K' contains whitespaces").
describe('readDockerEnvFile (docker run --env-file)', () => {
  checkTable(readDockerEnvFile, [
    ['K=abc', { K: 'abc' }],
    ['K= abc ', { K: ' abc ' }],
    ['K="abc"', { K: '"abc"' }],
    ["K='a'", { K: "'a'" }],
    ['K=abc # c', { K: 'abc # c' }],
    ['  K=abc', { K: 'abc' }],
    ['# c\n  # d', {}],
    ['export K=V', { 'export K': null }],
    ['K = V', { 'K ': null }],
    ['=V', { '': null }],
    ['K=a=b', { K: 'a=b' }],
    ['K=', { K: '' }],
    ['K', {}],
    ['K=a\r\nB=b\r\n', { K: 'a', B: 'b' }],
    ['K=a\rB=b', { K: 'a\rB=b' }],
    ['\uFEFFK=1', { K: '1' }],
  ]);
});

describe('nodeDotenvValue (npm dotenv parse)', () => {
  const table: Array<[string, string, string | null]> = [
    ['K=abc#def', 'K', 'abc'],
    ['K=   # note', 'K', ''],
    ['K="a\\nb"', 'K', 'a\nb'],
    ["K='a\\nb'", 'K', 'a\\nb'],
    ['K=`q`', 'K', 'q'],
    ['K="abc', 'K', '"abc'],
    ['export K = v ', 'K', 'v'],
    ['K: v', 'K', 'v'],
    ['KEY:\n', 'KEY', ''],
    ['__proto__=1', '__proto__', null],
  ];
  for (const [input, key, expected] of table) {
    it(JSON.stringify(input), () => assert.equal(nodeDotenvValue(input, key), expected));
  }
});
