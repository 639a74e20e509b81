import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeConfig } from '../../../server/src/core/config/config';
import type { Finding } from '../../../server/src/core/model/types';
import { IndexScope, decodedData, mayPassApiKey, pythonEnvNames, spellsNamesIndirectly } from '../../../server/src/core/workspace/index-scope';
import { invalidate, loadConfigFor } from '../../../server/src/node/config';
import { readIndexable, type IndexedFile } from '../../../server/src/node/env-index';
import { isIndexCandidate } from '../../../server/src/core/workspace/index-document';
import { formatOf } from '../../../server/src/core/files';
import { readForLint } from '../../../server/src/node/read';
import { NodeWorkspaceFacts } from '../../../server/src/node/facts';
import { loadGrammars } from '../../../server/src/node/grammars';
import { indexForLint } from '../../../server/src/node/index-scope';
import { lintFile } from '../../../server/src/node/lint-file';
import { walk, type WalkedFile } from '../../../server/src/node/walk';
import type { Grammars } from '../../../server/src/core/formats/treesitter';
import type { EnvIndex } from '../../../server/src/core/workspace/env-index';

/**
 * Issue 27 item 1: linting named files indexes only the files that can matter to them
 * (`indexForLint` with `named`). For every file of every multi-file workspace, every rule fixture
 * folder and (when ../shared and /work/corpus are present) a cut of OpenClaw-RL and of each corpus
 * repository, the file linted under the scoped index gives exactly the findings (ids, ranges,
 * severities, messages, fixes, related locations) it gets under the whole project's index, and the
 * index answers every question its lint can ask the same (`askable`; `dependencySignature` too when
 * the scope took every server launch).
 */
const PROJECT = join(__dirname, '..', '..', '..');
const CORPUS = '/work/corpus';
const WORKSPACES = join(PROJECT, 'test', 'workspaces');
const FIXTURES = join(PROJECT, 'test', 'fixtures');
const OPENCLAW = join(PROJECT, '..', 'shared', 'real-repos', 'OpenClaw-RL');

let grammars: Grammars;
before(async () => {
  grammars = await loadGrammars();
});

/** What a report shows of a finding (evidence text included). */
function shown(f: Finding): unknown {
  return { ruleId: f.ruleId, severity: f.severity, range: f.range, message: f.message, evidence: f.evidence, fixes: f.fixes, related: f.related };
}

/** Lints `file` as the CLI does (named, so forced) with `index` and its kept extractions. */
function lintWith(root: string, file: WalkedFile, index: EnvIndex, keep: Map<string, IndexedFile>, facts: NodeWorkspaceFacts): unknown[] {
  const config = loadConfigFor(file.absPath, root).config;
  const kept = keep.get(file.relPath);
  const result = lintFile(file.absPath, file.relPath, {
    grammars,
    config,
    facts,
    locale: 'en',
    force: true,
    maxFileBytes: config.maxFileBytes,
    env: index.viewFor(file.relPath),
    ...(kept?.extraction ? { reuse: { text: kept.text, extraction: kept.extraction } } : {}),
  });
  return result.findings.map(shown);
}

/**
 * What the lint of `path` can ask `index` (env-index.ts `EnvView`) given what `scope` took: the
 * definitions and reads of every variable the file or the scope names (and its `@load:` names), the
 * `dotenvOverrides` of each file reading them, every Compose `env_file:` link, and the server launches
 * the scope says its rules ask (`IndexScope.launches`).
 */
function askable(index: EnvIndex, path: string, scope: IndexScope | undefined): string {
  const own = index.fileEnv(path);
  const names = new Set([...(scope?.variableNames ?? []), ...(own?.definitions ?? []).map((d) => d.name), ...(own?.reads ?? []).map((r) => r.name), ...(own?.loadedNames ?? [])]);
  const byName = [...names].sort().map((name) => {
    const reads = index.readsOf(name);
    return [name, index.definitionsOf(name), reads, [...new Set(reads.map((r) => r.at.path))].map((p) => index.fileEnv(p)?.dotenvOverrides === true)];
  });
  const links = index.paths().sort().flatMap((p) => (index.fileEnv(p)?.envFiles ? [[p, index.fileEnv(p)!.envFiles]] : []));
  const launches = scope?.launches ?? 'all';
  const servers = launches === 'none' ? [] : index.servers().filter((s) => launches === 'all' || s.apiKey);
  return JSON.stringify({ byName, links, servers });
}

/**
 * Checks every file of the project at `root` (or those `pick` keeps): scoped and whole-project index give
 * the same findings and answers (`askable`). Returns how many files were checked and how many had findings.
 */
function checkProject(root: string, pick: (file: WalkedFile) => boolean = () => true): { files: number; withFindings: number; indexedScoped: number; indexedWhole: number } {
  invalidate();
  const facts = new NodeWorkspaceFacts(root);
  const files = walk(['.'], root, facts, { noIgnore: false, config: mergeConfig() }).files;
  const configFor = (f: WalkedFile) => loadConfigFor(f.absPath, root).config;
  const wholeKeep = new Map<string, IndexedFile>();
  const whole = indexForLint(files, undefined, grammars, configFor, wholeKeep).index;
  let checked = 0;
  let withFindings = 0;
  let indexedScoped = 0;
  for (const file of files.filter(pick)) {
    const keep = new Map<string, IndexedFile>();
    const { index, stats, scope } = indexForLint(files, [file], grammars, configFor, keep);
    indexedScoped += stats.indexed;
    assert.equal(askable(index, file.relPath, scope), askable(whole, file.relPath, scope), `${root}: ${file.relPath}: what its lint can ask the index`);
    if (scope?.launches !== 'keyed' && scope?.launches !== 'none') assert.equal(index.dependencySignature(file.relPath), whole.dependencySignature(file.relPath), `${root}: ${file.relPath}: dependency signature`);
    const expected = lintWith(root, file, whole, wholeKeep, facts);
    assert.deepEqual(lintWith(root, file, index, keep, facts), expected, `${root}: ${file.relPath}: findings`);
    checked++;
    if (expected.length) withFindings++;
  }
  return { files: checked, withFindings, indexedScoped, indexedWhole: whole.size * checked };
}

/** A copy of `source` outside this repository (inside it, paths under `test/` are test code and the git facts are this repository's). */
function withCopy<T>(source: string, run: (dir: string) => T): T {
  const copy = mkdtempSync(join(tmpdir(), 'rl-scope-'));
  try {
    const dir = join(copy, 'ws');
    cpSync(source, dir, { recursive: true });
    return run(dir);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

describe('index scope: named files see what the whole project index shows them', function () {
  this.timeout(10 * 60 * 1000);

  it('every file of every multi-file workspace (test/workspaces)', () => {
    let files = 0;
    let withFindings = 0;
    for (const name of readdirSync(WORKSPACES).sort()) {
      const r = withCopy(join(WORKSPACES, name), (dir) => checkProject(dir));
      files += r.files;
      withFindings += r.withFindings;
    }
    assert.ok(files > 20 && withFindings > 10, `${files} files, ${withFindings} with findings: the workspaces were not read`);
  });

  it('every file of every rule fixture folder (test/fixtures/<rule>/{bad,good}), each folder a project', () => {
    let files = 0;
    let withFindings = 0;
    const dirs = readdirSync(FIXTURES).flatMap((rule) => ['bad', 'good'].map((k) => join(FIXTURES, rule, k))).filter((d) => existsSync(d) && statSync(d).isDirectory());
    withCopy(FIXTURES, (copy) => {
      for (const dir of dirs) {
        const r = checkProject(join(copy, dir.slice(FIXTURES.length + 1)));
        files += r.files;
        withFindings += r.withFindings;
      }
    });
    assert.ok(files > 300 && withFindings > 150, `${files} files, ${withFindings} with findings`);
  });

  it('OpenClaw-RL (../shared/real-repos): every dotenv file and every 16th other index candidate, on average far fewer extractions than the whole index', function () {
    if (!existsSync(OPENCLAW)) this.skip();
    const config = mergeConfig();
    let n = 0;
    const pick = (f: WalkedFile) => {
      const read = readIndexable(f, config);
      if (read?.kind !== 'text' || !isIndexCandidate(f.relPath, read.text, config, 'lint')) return false;
      return formatOf(f.relPath) === 'dotenv' || n++ % 16 === 0;
    };
    const r = withCopy(OPENCLAW, (dir) => checkProject(dir, pick));
    assert.ok(r.files > 30, `${r.files} files checked`);
    // The point of the scope: far fewer files extracted than the whole project (a file reading common variables such as CUDA_VISIBLE_DEVICES still pulls in many).
    assert.ok(r.indexedScoped * 3 < r.indexedWhole, `scoped ${r.indexedScoped} vs whole ${r.indexedWhole} extractions`);
  });

  it('every other corpus repository (/work/corpus; the corpus gate lints them all): its dotenv files (up to 3) and 5 other index candidates spread over the tree', function () {
    if (!existsSync(CORPUS)) this.skip();
    const config = mergeConfig();
    let files = 0;
    let withFindings = 0;
    // Each repository costs a whole index and a scoped one per file: every other one keeps `npm test` within its 5 minutes.
    for (const name of readdirSync(CORPUS).sort().filter((_, i) => i % 2 === 0)) {
      const root = join(CORPUS, name);
      if (!statSync(root).isDirectory()) continue;
      invalidate();
      const candidates = walk(['.'], root, new NodeWorkspaceFacts(root), { noIgnore: false, config }).files.filter((f) => {
        const read = readIndexable(f, config);
        return read?.kind === 'text' && isIndexCandidate(f.relPath, read.text, config, 'lint');
      });
      const dotenv = candidates.filter((f) => formatOf(f.relPath) === 'dotenv').slice(0, 3).map((f) => f.relPath);
      const others = candidates.filter((f) => formatOf(f.relPath) !== 'dotenv');
      const spread = new Set([...dotenv, ...[0, 1, 2, 3, 4].map((k) => others[Math.floor(((k + 0.5) * others.length) / 5)]?.relPath).filter((p): p is string => p !== undefined)]);
      const r = withCopy(root, (dir) => checkProject(dir, (f) => spread.has(f.relPath)));
      files += r.files;
      withFindings += r.withFindings;
    }
    assert.ok(files > 30, `${files} files checked (${withFindings} with findings)`);
  });
});

describe('IndexScope.needs: the cheap pass', () => {
  const scope = new IndexScope();
  scope.addDocument({ path: 'configs/models.json', definitions: [], reads: [] });
  scope.addDocument({ path: '.env', definitions: [{ name: 'OPENAI_BASE_URL' } as never, { name: 'OPENAI_API_BASE' } as never], reads: [] });

  it('takes files that spell a name as a whole word, case-sensitively', () => {
    assert.equal(scope.needs('a.py', 'x = os.getenv("OPENAI_BASE_URL")'), true);
    assert.equal(scope.needs('a.sh', 'curl ${OPENAI_BASE_URL}/models'), true);
    assert.equal(scope.needs('a.py', 'x = os.getenv("MY_OPENAI_BASE_URL")'), false);
    assert.equal(scope.needs('a.py', 'x = os.getenv("openai_base_url")'), false);
  });

  it('takes launch scripts, Compose env_file links, code that loads a named config file, and ChatOpenAI() for OPENAI_API_BASE', () => {
    assert.equal(scope.needs('run.sh', 'python -m sglang.launch_server --port 30000'), true);
    assert.equal(scope.needs('compose.yaml', 'services:\n  a:\n    env_file: x.env\n'), true);
    assert.equal(scope.needs('load.py', 'cfg = json.load(open("configs/models.json"))'), true);
    assert.equal(scope.needs('lc.py', 'llm = ChatOpenAI(model="m")'), true);
    assert.equal(scope.needs('other.py', 'print(1)'), false);
    assert.equal(scope.needs('other.yaml', 'a: 1\n'), false);
  });

  it('leaves out Python that spells a name only outside an env access (a comment, a docstring, another string)', () => {
    assert.equal(scope.needs('a.py', '# set OPENAI_BASE_URL first\nx = os.getenv("HOME")'), false);
    assert.equal(scope.needs('a.py', '"""Reads OPENAI_BASE_URL."""\nprint("OPENAI_BASE_URL")'), false);
    assert.equal(scope.needs('a.py', 'os.environ["OPENAI_BASE_URL"] = "http://h/v1"'), true);
    assert.equal(scope.needs('a.py', 'os.environ.setdefault("OPENAI_BASE_URL", "http://h/v1")'), true);
    assert.equal(scope.needs('a.py', 'f(os.getenv  # why\n  ("OPENAI_BASE_URL"))'), true);
    assert.equal(scope.needs('a.py', 'f(os.environ \\\n ["OPENAI_BASE_URL"])'), true);
    // IPython (`%env`) is read as written: any mention counts
    assert.equal(scope.needs('a.ipy', '# OPENAI_BASE_URL'), true);
  });

  it('takes launches only when the named files ask for them: every launch for a model setting, those passing --api-key for a key', () => {
    const none = new IndexScope();
    none.addDocument({ path: '.env', definitions: [{ name: 'OPENAI_BASE_URL' } as never], reads: [] }, { settings: [{ kind: 'env', key: 'OPENAI_BASE_URL', role: 'baseUrl' }], envReads: [] } as never);
    assert.equal(none.launches, 'none');
    assert.equal(none.needs('run.sh', 'python -m sglang.launch_server --port 30000 --api-key k'), false);
    const keyed = new IndexScope();
    keyed.addDocument({ path: '.env', definitions: [], reads: [] }, { settings: [{ kind: 'env', key: 'OPENAI_API_KEY', role: 'apiKey' }], envReads: [] } as never);
    assert.equal(keyed.launches, 'keyed');
    assert.equal(keyed.needs('run.sh', 'python -m sglang.launch_server --port 30000'), false);
    assert.equal(keyed.needs('run.sh', 'python -m sglang.launch_server --port 30000 "--api"_key k'), true);
    assert.equal(keyed.needs('run.sh', "python -m sglang.launch_server $'\\x2d-api-key' k"), true);
    const all = new IndexScope();
    all.addDocument({ path: 'a.py', definitions: [], reads: [] }, { settings: [{ kind: 'kwarg', key: 'model', role: 'model' }], envReads: [] } as never);
    assert.equal(all.launches, 'all');
    assert.equal(all.needs('run.sh', 'python -m sglang.launch_server --port 30000'), true);
    assert.equal(scope.launches, 'all', 'a named document without its extraction asks for every launch');
  });

  it('matches names in data files in their decoded text, not wholesale', () => {
    assert.equal(scope.needs('a.json', '{"a": "x\\/y"}'), false);
    assert.equal(scope.needs('a.json', '{"env": {"OPENAI\\u005fBASE_URL": "x"}}'), true);
    assert.equal(scope.needs('a.yaml', 'env:\n  - name: "OPENAI_\\\n    BASE_URL"\n'), true);
    assert.equal(scope.needs('a.json5', '{env: {"OPENAI_\\\nBASE_URL": "x"}}'), true);
    assert.deepEqual(decodedData('"\\x41\\u0042\\U00000043\\u{44}\\/\\\\"'), ['"ABCD/\\"', '"ABCD/\\"']);
    assert.deepEqual(decodedData('a\\\n  b'), ['a  b', 'ab']);
  });

  it('pythonEnvNames: the names plain env accesses spell, or indirect', () => {
    assert.deepEqual(pythonEnvNames('a = os.getenv("A", "d"); os.environ["B"] = v; os.environ.get(key=\'C\'); os.getenv(name)'), new Set(['A', 'B', 'C']));
    assert.equal(pythonEnvNames('os.getenv("A" "B")'), 'indirect');
    assert.equal(pythonEnvNames('os.getenv(  # c\n "A")'), 'indirect');
    assert.deepEqual(pythonEnvNames('print("A")'), new Set());
  });

  it('mayPassApiKey: the flag once quotes and escapes are dropped, or any numeric escape', () => {
    assert.equal(mayPassApiKey('vllm serve m --api-key k'), true);
    assert.equal(mayPassApiKey('vllm serve m --api_\\\n  key k'), true);
    assert.equal(mayPassApiKey('vllm serve m --port 8000'), false);
    assert.equal(mayPassApiKey('command: ["vllm", "serve", "\\x2d-api-key"]'), true);
  });

  it('mayNeed, from what a file contains, admits every file needs admits (every fixture and workspace file, two scopes)', () => {
    const texts: [string, string][] = [];
    const collect = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, entry.name);
        if (entry.isDirectory()) collect(p);
        else if (formatOf(p)) {
          const read = readForLint(p, 4 * 1024 * 1024);
          if (read.kind === 'text') texts.push([p.slice(PROJECT.length + 1), read.text]);
        }
      }
    };
    collect(FIXTURES);
    collect(WORKSPACES);
    const keyed = new IndexScope();
    keyed.addDocument({ path: '.env', definitions: [{ name: 'OPENAI_API_KEY' } as never, { name: 'OPENAI_BASE_URL' } as never], reads: [{ name: 'HOME' } as never] }, { settings: [{ kind: 'env', key: 'OPENAI_API_KEY', role: 'apiKey' }], envReads: [] } as never);
    let needed = 0;
    for (const s of [scope, keyed]) {
      for (const [path, text] of texts) {
        if (!s.needs(path, text)) continue;
        needed++;
        assert.ok(s.mayNeed(path, (t) => text.includes(t)), `${path}: needs but not mayNeed`);
      }
    }
    assert.ok(texts.length > 500 && needed > 20, `${texts.length} files, ${needed} needed`);
  });

  it('takes files that may spell a name through escapes or concatenation', () => {
    assert.equal(spellsNamesIndirectly('python', 'os.getenv("OPENAI_" "BASE_URL")'), true);
    assert.equal(spellsNamesIndirectly('python', 'os.environ["OPENAI\\x5fBASE_URL"]'), true);
    assert.equal(spellsNamesIndirectly('python', 'os.environ.get(\n  "OPENAI_"\n  "BASE_URL")'), true);
    assert.equal(spellsNamesIndirectly('python', 'os.getenv("A", "d"); os.environ["B"] = v; os.getenv(name); os.environ.get(key="C")'), false);
    assert.equal(spellsNamesIndirectly('notebook', '{"source": ["os.getenv(\\"A\\" \\"B\\")"]}'), true);
    assert.equal(spellsNamesIndirectly('notebook', '{"source": ["os.getenv(\\"A\\")"]}'), false);
    assert.equal(spellsNamesIndirectly('json', '{"env": {"OPENAI\\u005fBASE_URL": "x"}}'), true);
    assert.equal(spellsNamesIndirectly('yaml', 'run: |\n  a \\\n  b\n'), false);
    assert.equal(spellsNamesIndirectly('yaml', '? "OPENAI_\\\n  BASE_URL"\n: x\n'), true);
  });
});
