import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { templateSyntax } from '../../../server/src/core/evidence/template';
import { loadedConfigReads } from '../../../server/src/core/evidence/loaded-config';
import { serverLaunches } from '../../../server/src/core/workspace/servers';
import { extract } from '../../../server/src/core/formats';
import { extractPython } from '../../../server/src/core/formats/python';
import { loadGrammars } from '../../../server/src/node/grammars';
import type { Extraction } from '../../../server/src/core/model/types';
import { canMakeFifos, hostileRepo, runTsChild } from './hostile-helpers';
import { growth } from './growth';

/** Doubling the input may at most triple the cost (`growth`: wall-clock time, best of five, noise-tolerant; quadratic is 4×). */
function assertLinear(name: string, f: (n: number) => unknown, n: number): void {
  const ratio = growth((size) => () => void f(size), n);
  assert.ok(ratio <= 3, `${name}: doubling the input cost ${ratio.toFixed(1)}× (quadratic is 4×)`);
}

const EMPTY = (): Extraction => ({ settings: [], requestSites: [], consumerEvidence: [], parseProblems: [] }) as unknown as Extraction;

/**
 * Surfaces added after the first hostile pass (issue 29 bar): template detection, loaded-config
 * following, the CLI baseline file and the /models cache. Each is attacked with what a repository
 * (or a planted cache file) can hold.
 */
describe('hostile inputs to the surfaces added for issues 23–30', function () {
  this.timeout(120_000); // rounds repeat on a loaded machine; the ratio, not the time, is asserted

  it('template actions: unclosed `{{` / `{%` openers cost linear time (the lazy regex retried at each: quadratic)', () => {
    assertLinear('{{', (n) => templateSyntax('x.yaml', `a: {{ .X }}\n${'{{'.repeat(n)}`, 'yaml'), 200_000);
    assertLinear('{%', (n) => templateSyntax('x.yaml', `a: {{ .X }}\n${'{%'.repeat(n)}`, 'yaml'), 200_000);
    // …and the spans are still the shortest closed actions, a Go `{#` is text
    const REGEX = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}/g; // the spans' definition (the old, quadratic way); Go text keeps `{#`
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const texts = Array.from({ length: 2000 }, () => `{{ .X }}${Array.from({ length: 24 }, () => '{}%# \n'[Math.floor(random() * 6)]).join('')}`);
    for (const text of [...texts, 'a: {{ .X }} {{ b: {% if %}', 'a: {{ .X }}{{{ x }}}}', 'a: {{ .X {% y }} %}\n{# z #} {{', '{%- if x %}{{ .Y }}{#}{{{%%}']) {
      assert.deepEqual(templateSyntax('x.yaml', text, 'yaml')?.actions, [...text.matchAll(REGEX)].filter((m) => !m[0].startsWith('{#')).map((m) => ({ start: m.index, end: m.index + m[0].length })), text);
    }
    assert.deepEqual(templateSyntax('x.yaml', 'k: {{ .V }}\n{# c #}\n', 'yaml')?.actions, [{ start: 3, end: 11 }]);
  });

  it('loaded-config following: many `with open(` / `json.load(` openers or a long blank run on one line cost linear time', () => {
    assertLinear('with open', (n) => loadedConfigReads('a.py', `json.load(x)\n${'with open("a" '.repeat(n)}`, EMPTY()), 4_000);
    assertLinear('spaces', (n) => loadedConfigReads('a.py', `json.load(x)\nwith open("a"${' '.repeat(n)}x`, EMPTY()), 8_000);
    assertLinear('json.load', (n) => loadedConfigReads('a.py', 'x = json.load('.repeat(n), EMPTY()), 4_000);
  });

  it('served-model launches: `\\`-continued lines are one command, read once (every line start re-read them: 5,000 lines took 47 s)', async () => {
    const grammars = await loadGrammars();
    const shellLaunches = (path: string, text: string) => serverLaunches(path, text, extract('shell', text, path, grammars));
    assertLinear('continuations', (n) => shellLaunches('a.sh', 'vllm serve m --port 1 \\\n'.repeat(n)), 1_000);
    assertLinear('quotes', (n) => shellLaunches('a.sh', `vllm serve\n${";'".repeat(n)}`), 2_500);
    // one launch, with the names of its continued lines
    const launches = shellLaunches('a.sh', 'CUDA_VISIBLE_DEVICES=0 \\\n  vllm serve org/m \\\n  --served-model-name a b \\\n  --port 8001\n');
    assert.equal(launches.length, 1);
  });

  it('Python result reads (per-call rows): each call no longer rescans its scope (6,000 calls took 14 s, quadratic)', async () => {
    const { python } = await loadGrammars();
    const source = (n: number) => `from openai import OpenAI\nc = OpenAI(base_url="http://localhost:8000/v1")\n${Array.from({ length: n }, (_, i) => `r${i} = c.chat.completions.create(model="m", messages=[])\n`).join('')}`;
    assertLinear('calls', (n) => extractPython(source(n), python), 1_500);
    // a result read through an assigned name still counts (`data = r; data.choices[0].logprobs`)
    const read = extractPython('from openai import OpenAI\nc = OpenAI()\nr = c.chat.completions.create(model="m", messages=[])\ndata = r\nprint(data.choices[0].logprobs)\n', python);
    assert.ok(JSON.stringify(read).includes('result read at'), 'the flow through `data = r` is still followed');
  });

  it('a baseline that is a FIFO, /dev/zero or huge is refused with a clear error, never waited on or loaded', function () {
    if (process.platform === 'win32' || !canMakeFifos()) this.skip();
    const repo = hostileRepo({ 'pipe.json': { fifo: true }, 'zero.json': { link: '/dev/zero' } });
    try {
      const result = runTsChild(`
        const { Baseline } = require('./server/src/cli/baseline');
        const out = {};
        for (const f of ['pipe.json', 'zero.json']) {
          try { Baseline.load(${JSON.stringify(repo.root)} + '/' + f, true); out[f] = 'loaded'; } catch (e) { out[f] = e.constructor.name + ': ' + e.message; }
        }
        console.log(JSON.stringify(out));
      `) as Record<string, string>;
      assert.match(result['pipe.json'], /^BaselineError: .*not a regular file/);
      assert.match(result['zero.json'], /^BaselineError: .*not a regular file/);
    } finally {
      repo.cleanup();
    }
  });

  it('--update-baseline does not write through a baseline symlink to a file outside the work tree', () => {
    const victim = '{"version":1,"tool":"rollout-lint","findings":[]}';
    const outside = hostileRepo({ 'victim.json': victim }, false);
    const repo = hostileRepo({ 'baseline.json': { link: join(outside.root, 'victim.json') } });
    try {
      const result = runTsChild(`
        const { Baseline } = require('./server/src/cli/baseline');
        let out;
        try { Baseline.load(${JSON.stringify(join(repo.root, 'baseline.json'))}, true).update([]); out = 'written'; } catch (e) { out = e.constructor.name + ': ' + e.message; }
        console.log(JSON.stringify(out));
      `) as string;
      assert.match(result, /^BaselineError: .*outside its work tree; not written/);
      assert.equal(readFileSync(join(outside.root, 'victim.json'), 'utf8'), victim);
    } finally {
      repo.cleanup();
      outside.cleanup();
    }
  });

  it('the /models cache: a FIFO or /dev/zero in its place gives no lists; a planted models.json.tmp symlink is not written through', function () {
    if (process.platform === 'win32' || !canMakeFifos()) this.skip();
    const outside = hostileRepo({ 'victim.txt': 'precious\n' }, false);
    const pipe = hostileRepo({ 'models.json': { fifo: true } }, false);
    const zero = hostileRepo({ 'models.json': { link: '/dev/zero' } }, false);
    const planted = hostileRepo({ 'models.json.tmp': { link: join(outside.root, 'victim.txt') } }, false);
    try {
      const result = runTsChild(`
        const { loadModelLists, rememberModelList } = require('./server/src/node/models-cache');
        const pipe = loadModelLists({ ROLLOUT_LINT_CACHE_DIR: ${JSON.stringify(pipe.root)} }).length;
        const zero = loadModelLists({ ROLLOUT_LINT_CACHE_DIR: ${JSON.stringify(zero.root)} }).length;
        const env = { ROLLOUT_LINT_CACHE_DIR: ${JSON.stringify(planted.root)} };
        rememberModelList(env, { baseUrl: 'http://127.0.0.1:8000/v1', models: ['m'], at: 1 });
        console.log(JSON.stringify({ pipe, zero, kept: loadModelLists(env).map((l) => l.models) }));
      `) as { pipe: number; zero: number; kept: string[][] };
      assert.deepEqual(result, { pipe: 0, zero: 0, kept: [['m']] });
      assert.equal(readFileSync(join(outside.root, 'victim.txt'), 'utf8'), 'precious\n');
      assert.ok(lstatSync(join(planted.root, 'models.json.tmp')).isSymbolicLink());
    } finally {
      for (const r of [outside, pipe, zero, planted]) r.cleanup();
    }
  });

  it('a /models cache over its cap is not parsed', () => {
    const big = hostileRepo({}, false);
    try {
      writeFileSync(join(big.root, 'models.json'), `[${'{"baseUrl":"http://127.0.0.1:8000/v1","models":["m"],"at":1},'.repeat(80_000)}0]`);
      assert.ok(existsSync(join(big.root, 'models.json')));
      const result = runTsChild(`
        const { loadModelLists } = require('./server/src/node/models-cache');
        console.log(JSON.stringify(loadModelLists({ ROLLOUT_LINT_CACHE_DIR: ${JSON.stringify(big.root)} }).length));
      `);
      assert.equal(result, 0);
    } finally {
      big.cleanup();
    }
  });

  it("the Action's job summary renders no Markdown a repository wrote (a file name as an image or a link)", function () {
    if (process.platform === 'win32') this.skip();
    const name = '![x](https:evil.example) [update](javascript:x) _e_.env';
    const repo = hostileRepo({ [name]: 'OPENAI_BASE_URL=https://x.example/v1/v1\n' });
    try {
      const root = join(__dirname, '..', '..', '..');
      const summary = join(repo.root, 'summary.md');
      spawnSync(process.execPath, [join(root, 'scripts', 'action', 'run.mjs')], {
        cwd: repo.root,
        encoding: 'utf8',
        timeout: 15_000,
        env: { PATH: process.env.PATH, GITHUB_OUTPUT: join(repo.root, 'out'), GITHUB_STEP_SUMMARY: summary, INPUT_CLI: join(root, 'server', 'dist', 'cli.js'), INPUT_PATHS: '.', INPUT_ARGS: '', INPUT_ANNOTATE: 'false', INPUT_UPLOAD_SARIF: 'false', INPUT_SARIF_FILE: join(repo.root, 'o.sarif') },
      });
      const text = readFileSync(summary, 'utf8');
      const row = text.split('\n').find((l) => l.includes('evil.example'));
      assert.ok(row, text);
      assert.ok(row.includes('\\!\\[x\\]\\(https:evil.example\\)'), row);
      assert.doesNotMatch(row, /(?<!\\)[[\]()]/, 'no unescaped link or image punctuation');
    } finally {
      repo.cleanup();
    }
  });
});
