import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeConfig } from '../../../server/src/core/config/config';
import type { Finding } from '../../../server/src/core/model/types';
import { IndexScope, spellsNamesIndirectly } from '../../../server/src/core/workspace/index-scope';
import { invalidate, loadConfigFor } from '../../../server/src/node/config';
import { readIndexable, type IndexedFile } from '../../../server/src/node/env-index';
import { isIndexCandidate } from '../../../server/src/core/workspace/index-document';
import { formatOf } from '../../../server/src/core/files';
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
 * folder and (when ../shared is present) a cut of OpenClaw-RL, the file linted under the scoped index
 * gives exactly the findings (ids, ranges, severities, messages, fixes, related locations) it gets under
 * the whole project's index, and the index tells it the same (`dependencySignature`).
 */
const PROJECT = join(__dirname, '..', '..', '..');
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
 * Checks every file of the project at `root` (or those `pick` keeps): scoped and whole-project index give
 * the same findings and dependency signature. Returns how many files were checked and how many had findings.
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
    const { index, stats } = indexForLint(files, [file], grammars, configFor, keep);
    indexedScoped += stats.indexed;
    assert.equal(index.dependencySignature(file.relPath), whole.dependencySignature(file.relPath), `${root}: ${file.relPath}: dependency signature`);
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
