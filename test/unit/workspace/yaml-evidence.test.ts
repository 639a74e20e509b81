import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG, mergeConfig, type LintConfig } from '../../../server/src/core/config/config';
import { extract } from '../../../server/src/core/formats/index';
import { lintDocument, stripBom } from '../../../server/src/core/lint';
import { emptyExtraction, type Role } from '../../../server/src/core/model/types';
import { resolve } from '../../../server/src/core/resolve/resolve';
import { ROLE_TABLE } from '../../../server/src/core/resolve/roles';
import { BOOLEAN_KEYS } from '../../../server/src/core/rules/config-string-boolean';
import { secretRanges } from '../../../server/src/core/secrets';
import { ENV_CONTAINERS, LOGPROB_KEYS, SITE_KEYS } from '../../../server/src/core/formats/structured';
import { envFactsOf, INTERPOLATION, type FileEnv } from '../../../server/src/core/workspace/env-facts';
import { indexAndExtract } from '../../../server/src/core/workspace/index-document';
import { YAML_EVIDENCE, yamlMayMatter } from '../../../server/src/core/workspace/yaml-evidence';
import type { Grammars } from '../../../server/src/core/formats/treesitter';
import { loadGrammars } from '../../../server/src/node/grammars';
import { lintFile } from '../../../server/src/node/lint-file';

/**
 * Issue 27 item 1(b): a YAML file without any `YAML_EVIDENCE` token is neither extracted nor linted.
 * The proof obligation, checked here on every YAML file we have and on generated documents: when
 * `yamlMayMatter` says no, the full path (extraction, resolution, every rule, the index facts) gives
 * exactly the skip result: no finding, no failure, the same secret spans, empty index facts. And the
 * table cannot fall behind the extractor: every name the role table, the env containers, the request
 * site keys and the boolean keys hold, written into an evidence-free file, makes it "extract" (and the
 * full extraction does read it).
 */
const PROJECT = join(__dirname, '..', '..', '..');
const ROOTS = [join(PROJECT, 'test', 'fixtures'), join(PROJECT, 'test', 'workspaces'), join(PROJECT, '..', 'shared', 'real-repos'), join(PROJECT, '..', 'shared', 'cases')];

let grammars: Grammars;
before(async () => {
  grammars = await loadGrammars();
});

/** A deterministic pseudo-random source (32-bit LCG, Numerical Recipes constants): `random(n)` is in [0, n). */
function generator(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state >>> 8) % n;
  };
}

function yamlFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === '.git') continue;
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) yamlFiles(path, out);
    else if (/\.ya?ml$/i.test(name) && stat.size < 2_000_000) out.push(path);
  }
  return out;
}

/** What the index would hold of the document with no filter: `indexAndExtract`'s steps (extract, resolve, `envFactsOf`). */
function fullFacts(path: string, text: string, config: LintConfig): FileEnv {
  const extraction = extract('yaml', text, path, grammars);
  return envFactsOf(path, text, extraction, resolve(extraction, config).baseUrls);
}

/** Asserts the full path gives the skip result for a document the filter skips. */
function assertTrivial(path: string, input: string, config: LintConfig = DEFAULT_CONFIG): void {
  const { text } = stripBom(input);
  const outcome = lintDocument({ path, text, format: 'yaml' }, { grammars, config, reportUnusedDisableDirectives: true });
  assert.deepEqual(outcome.findings.map((f) => `${f.ruleId}:${f.message}`), [], `${path}: findings`);
  assert.deepEqual(outcome.failures, [], `${path}: failures`);
  assert.deepEqual(outcome.secrets, secretRanges(emptyExtraction(), text), `${path}: secret spans`);
  assert.deepEqual(fullFacts(path, text, config), { path, definitions: [], reads: [] }, `${path}: index facts`);
}

describe('YAML evidence filter (yamlMayMatter)', function () {
  this.timeout(600_000);

  it('on every YAML file of the fixtures, workspaces and real repositories, a skipped file gets nothing from the full path', () => {
    let skipped = 0;
    let files = 0;
    for (const root of ROOTS) {
      for (const file of yamlFiles(root)) {
        files++;
        const text = readFileSync(file, 'utf8');
        if (yamlMayMatter(stripBom(text).text, DEFAULT_CONFIG)) continue;
        skipped++;
        assertTrivial(file.slice(root.length + 1).replace(/\\/g, '/'), text);
      }
    }
    // not vacuous: the fixtures alone hold evidence-free YAML (good fixtures, workspaces)
    assert.ok(files > 50 && skipped > 5, `files ${files}, skipped ${skipped}`);
  });

  it('on generated documents (fixed seed), whenever the filter says "skip" the full path gives nothing', () => {
    const random = generator(27);
    const roleNames = ROLE_TABLE.flatMap((r) => [...(r.exact ?? []), ...(r.suffix ?? []).map((s) => `my${s}`)]);
    const keys = [...roleNames, ...ENV_CONTAINERS, ...SITE_KEYS, ...LOGPROB_KEYS, ...BOOLEAN_KEYS, 'vars', 'kind', 'data', 'services', 'command', 'image', 'env_file', 'name', 'value', 'title', 'items', 'seed', 'lr', 'steps', 'task', 'dataset_path', 'doc_to_text', 'metric_list'];
    const values = ['"true"', "'false'", 'true', '42', 'hello world', 'MODEL_ID', '<model>', 'http://localhost:8000/v1', 'https://api.example.com', 'localhost:8000', '${HOME}', '$PATH', '${oc.env:X}', 'os.environ/KEY', 'sk-test-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'ConfigMap', 'vllm serve m', '"a\\x24{B}"', '{{ x }}', '"', '[a, b', 'KEY=value', '- a', '~'];
    let skipped = 0;
    for (let n = 0; n < 3000; n++) {
      const lines: string[] = [];
      const count = 1 + random(6);
      for (let i = 0; i < count; i++) {
        const indent = '  '.repeat(random(3));
        const key = keys[random(keys.length)];
        const spelled = random(3) === 0 ? key.toUpperCase() : random(3) === 0 ? key.replace(/_/g, '-') : key;
        const shape = random(4);
        if (shape === 0) lines.push(`${indent}${spelled}:`);
        else if (shape === 1) lines.push(`${indent}- ${values[random(values.length)]}`);
        else if (shape === 2) lines.push(`${indent}${spelled}: ${values[random(values.length)]}  # ${random(2) ? 'rollout-lint-disable-line model-placeholder' : 'a comment'}`);
        else lines.push(`${indent}${spelled}: ${values[random(values.length)]}`);
      }
      const text = `${lines.join('\n')}\n`;
      if (yamlMayMatter(text, DEFAULT_CONFIG)) continue;
      skipped++;
      assertTrivial(`gen/${n}.yaml`, text);
    }
    assert.ok(skipped > 100, `skipped ${skipped}`);
  });

  it('every name the extractor and the role table recognise, in any spelling roleOf accepts, makes a file "extract"', () => {
    const plain = 'title: hello\nitems:\n  - one\n';
    assert.equal(yamlMayMatter(plain, DEFAULT_CONFIG), false);
    const roles = new Map<string, Role>();
    for (const rule of ROLE_TABLE) {
      if (rule.kinds && !rule.kinds.includes('property')) continue;
      for (const name of rule.exact ?? []) if (!roles.has(name)) roles.set(name, rule.role);
      for (const suffix of rule.suffix ?? []) if (!roles.has(`x${suffix}`)) roles.set(`x${suffix}`, rule.role);
    }
    for (const [name, role] of roles) {
      for (const spelled of [name, name.toUpperCase(), name.replace(/_/g, '-'), `"${name}"`, `'${name.toUpperCase()}'`]) {
        const text = `${plain}${spelled}: somevalue\n`;
        assert.ok(yamlMayMatter(text, DEFAULT_CONFIG), `${spelled} (${role})`);
        const extraction = extract('yaml', text, 'a.yaml', grammars);
        resolve(extraction, DEFAULT_CONFIG);
        // the full path does read it (the table is not wider than needed here)
        assert.ok(extraction.settings.some((s) => s.role !== undefined), `${spelled}: no role in the full extraction`);
      }
    }
    for (const key of [...ENV_CONTAINERS, ...SITE_KEYS, ...LOGPROB_KEYS]) {
      assert.ok(yamlMayMatter(`${plain}${key}:\n  a: b\n`, DEFAULT_CONFIG), key);
      assert.ok(yamlMayMatter(`${plain}- {${key.toUpperCase()}: [a]}\n`, DEFAULT_CONFIG), key);
    }
    for (const key of BOOLEAN_KEYS) {
      const text = `${plain}--${key.replace(/_/g, '-').toUpperCase()}: 'False'\n`;
      assert.ok(yamlMayMatter(text, DEFAULT_CONFIG), key);
      assert.ok(lintDocument({ path: 'a.yaml', text, format: 'yaml' }, { grammars }).findings.length > 0, key);
      // unquoted, the value is a boolean: no evidence (unless the key also ends like a request-site key)
      if (!/logprob/.test(key)) assert.equal(yamlMayMatter(`${plain}${key}: false\n`, DEFAULT_CONFIG), false, key);
    }
    // a key that only ends like a name is no role key, env container or site: no evidence
    for (const text of ['runtime_env:\n  a: b\n', 'policymodel: x\n', 'prerollout: x\n', 'my_env_vars: x\n']) assert.equal(yamlMayMatter(text, DEFAULT_CONFIG), false, text);
    const others = ['a: ${X}', 'a: $X', 'a: ${oc.env:X}', 'a: os.environ/X', 'env_file: common.cfg', 'command: vllm serve m', 'image: lmsysorg/sglang', 'a: http://h', 'a: "\\x24{X}"', '# rollout-lint-disable-file', 'kind: ConfigMap', 'a\u0130: x'];
    for (const line of others) assert.ok(yamlMayMatter(`${plain}${line}\n`, DEFAULT_CONFIG), line);
    // a Compose env_file link is an index fact, whatever the linked file is called
    const compose = 'services:\n  app:\n    env_file: common.cfg\n';
    assert.ok(yamlMayMatter(compose, DEFAULT_CONFIG));
    assert.equal(fullFacts('compose.yaml', compose, DEFAULT_CONFIG).envFiles?.[0]?.target, 'common.cfg');
    // the Kelvin sign folds into `k` (normalizeKey): the full path reads an API key the ASCII tokens do not show
    const kelvin = `${plain}api_\u212Aey: abc\n`;
    assert.ok(!YAML_EVIDENCE.filter((e) => !e.why.startsWith('escapes')).some((e) => e.token.test(kelvin)));
    assert.ok(yamlMayMatter(kelvin, DEFAULT_CONFIG));
    const folded = extract('yaml', kelvin, 'a.yaml', grammars);
    assert.equal(resolve(folded, DEFAULT_CONFIG).settings[0]?.role, 'apiKey');
  });

  it('the env-read token matches wherever INTERPOLATION (interpolationReads) finds a read, on generated values (fixed seed)', () => {
    const random = generator(7);
    const pieces = ['$', '{', '}', 'oc.env:', 'oc.select:', 'A', 'b_1', '.', ':-', ':=', '-', '=', ' ', 'os.environ/', 'X', '9', '"', "'"];
    const token = YAML_EVIDENCE.find((e) => e.why.startsWith('env reads'))!.token;
    let reads = 0;
    for (let n = 0; n < 20000; n++) {
      let value = '';
      for (let i = 1 + random(8); i > 0; i--) value += pieces[random(pieces.length)];
      INTERPOLATION.lastIndex = 0;
      const found = INTERPOLATION.exec(value);
      if (!found || !(found[1] ?? found[3] ?? found[5] ?? found[6])) continue;
      reads++;
      assert.ok(token.test(value), value);
    }
    assert.ok(reads > 1000, `reads ${reads}`);
    assert.equal(token.test('path: ${model.dir}/x ${oc.select:a,b}'), false);
  });

  it('the only non-ASCII characters toLowerCase turns into ASCII letters are İ and the Kelvin sign (the table names them)', () => {
    const found: number[] = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (/[a-z0-9_-]/.test(String.fromCodePoint(cp).toLowerCase())) found.push(cp);
    }
    assert.deepEqual(found, [0x130, 0x212a]);
  });

  it('configured extraKeys are evidence (any case, - or _), a non-ASCII one makes every file evidence', () => {
    const text = 'My-Endpoint: somewhere\n';
    assert.equal(yamlMayMatter(text, DEFAULT_CONFIG), false);
    const config = mergeConfig({ extraKeys: { baseUrl: ['my_endpoint'] } });
    assert.equal(yamlMayMatter(text, config), true);
    const extraction = extract('yaml', text, 'a.yaml', grammars);
    assert.equal(resolve(extraction, config).settings[0]?.role, 'baseUrl');
    assert.equal(yamlMayMatter('a: b\n', mergeConfig({ extraKeys: { apiKey: ['schlüssel'] } })), true);
  });

  it('the index pass and the lint of a skipped file give the skip result without extracting', () => {
    const dir = mkdtempSync(join(tmpdir(), 'yaml-evidence-'));
    try {
      const text = 'task: demo\nmetric_list:\n  - metric: acc\n';
      const out = indexAndExtract({ path: 'task.yaml', text }, grammars);
      assert.deepEqual(out.env, { path: 'task.yaml', definitions: [], reads: [] });
      assert.equal(out.extraction, undefined);
      writeFileSync(join(dir, 'task.yaml'), text);
      const result = lintFile(join(dir, 'task.yaml'), 'task.yaml', { grammars, config: DEFAULT_CONFIG, maxFileBytes: 1_000_000 });
      assert.deepEqual(result.findings, []);
      assert.equal(result.text, text);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('lintFile preRead (the whole-tree run reads a file once)', () => {
  it('lints the text the index pass read, without reading the file (it need not exist)', () => {
    const missing = join(tmpdir(), 'rollout-lint-pre-read-absent', 'config.yaml');
    const text = 'base_url: http://localhost:8000/v1/v1\n';
    const result = lintFile(missing, 'config.yaml', { grammars, config: DEFAULT_CONFIG, maxFileBytes: 1_000_000, preRead: { kind: 'text', text, size: text.length } });
    assert.equal(result.text, text);
    assert.ok(result.findings.some((f) => f.ruleId === 'base-url-duplicate-v1'));
    assert.deepEqual(result.failures, []);
  });

  it('a file the index pass found no candidate is not a candidate; named (force), it is read', () => {
    const missing = join(tmpdir(), 'rollout-lint-pre-read-absent', 'util.py');
    const notIndexed = lintFile(missing, 'util.py', { grammars, config: DEFAULT_CONFIG, maxFileBytes: 1_000_000, preRead: { kind: 'notIndexed' } });
    assert.equal(notIndexed.notCandidate, true);
    const forced = lintFile(missing, 'util.py', { grammars, config: DEFAULT_CONFIG, maxFileBytes: 1_000_000, preRead: { kind: 'notIndexed' }, force: true });
    assert.equal(forced.notCandidate, undefined);
    assert.equal(forced.failures[0]?.ruleId, 'read');
  });
});
