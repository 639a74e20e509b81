import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allowsMajor, folderPins, pinsInManifest, type ClientPin } from '../../../server/src/core/workspace/client-pins';
import { pinnedReadings, readingLabel, type ClientReading } from '../../../server/src/core/resolve/clients';
import { lintDocument } from '../../../server/src/core/lint';
import { DEFAULT_CONFIG } from '../../../server/src/core/config/config';
import { NO_FACTS } from '../../../server/src/core/model/facts';
import { NodeWorkspaceFacts } from '../../../server/src/node/facts';
import { loadGrammars } from '../../../server/src/node/grammars';
import type { Grammars } from '../../../server/src/core/formats/treesitter';

/** `name spec locked majors` of each pin, majors as `2` / `3+` / `?`. */
function summary(pins: ClientPin[]): string[] {
  return pins.map((p) => `${p.ecosystem}:${p.name} ${p.spec}${p.locked ? ' (locked)' : ''} → ${p.majors ? `${p.majors.list.join(',')}${p.majors.orLater ? '+' : ''}` : '?'}`);
}

/**
 * The client versions a project pins (issue 30 item 2: "where the installed client version is visible, use
 * it"): read with real parsers (TOML: toml-eslint-parser; JSON: jsonc-parser; PEP 440: @renovatebot/pep440;
 * npm ranges: node-semver), and used to choose which recorded client a row stands for.
 */
describe('client pins: the client versions a project declares or locks', () => {
  it('requirements files: PEP 508 lines with extras, markers, comments, options and continuations', () => {
    const text = ['-r base.txt', '--index-url https://example.invalid/simple', 'openai==2.54.0 \\', '    --hash=sha256:abc', 'anthropic>=1.0  # any', 'langchain_openai[extra]>=1.6,<2 ; python_version >= "3.10"', 'httpx'].join('\n');
    assert.deepEqual(summary(pinsInManifest('requirements-train.txt', text)), ['pypi:openai ==2.54.0 → 2', 'pypi:anthropic >=1.0 → 1+', 'pypi:langchain-openai >=1.6,<2 → 1']);
  });

  it('PEP 440 specifiers give the majors they allow (~=, ==X.*, ranges inside one major, upper bounds, direct references)', () => {
    const majors = (spec: string) => summary(pinsInManifest('requirements.txt', `openai${spec}\n`))[0].split(' → ')[1];
    assert.equal(majors('~=2.5'), '2');
    assert.equal(majors('==3.*'), '3');
    assert.equal(majors('>=2.54,<2.60'), '2');
    assert.equal(majors('>=3'), '3+');
    assert.equal(majors('<1'), '0');
    assert.equal(majors(' @ https://example.invalid/openai.whl'), '?');
  });

  it('pyproject.toml: PEP 621 dependencies and extras, PEP 735 groups, Poetry tables and groups', () => {
    const pep621 = '[project]\nname = "rollout"\ndependencies = ["openai>=2,<3", "httpx"]\n\n[project.optional-dependencies]\nlc = ["langchain-openai==1.6.6"]\n\n[dependency-groups]\ndev = ["anthropic~=1.13"]\n';
    assert.deepEqual(summary(pinsInManifest('pyproject.toml', pep621)), ['pypi:openai >=2,<3 → 2', 'pypi:langchain-openai ==1.6.6 → 1', 'pypi:anthropic ~=1.13 → 1']);
    const poetry = '[tool.poetry.dependencies]\npython = "^3.10"\nopenai = "^3.1"\n\n[tool.poetry.group.dev.dependencies]\nanthropic = { version = "~1.13", extras = ["vertex"] }\n';
    assert.deepEqual(summary(pinsInManifest('pyproject.toml', poetry)), ['pypi:openai ^3.1 → 3', 'pypi:anthropic ~1.13 → 1']);
    assert.deepEqual(pinsInManifest('pyproject.toml', '[project\nbroken = '), [], 'an unparsable file gives no pins');
  });

  it('lock files: uv.lock, poetry.lock, Pipfile.lock, package-lock.json (nested copies are not the project\'s)', () => {
    assert.deepEqual(summary(pinsInManifest('uv.lock', 'version = 1\n\n[[package]]\nname = "openai"\nversion = "2.54.0"\n\n[[package]]\nname = "httpx"\nversion = "0.28.1"\n')), ['pypi:openai 2.54.0 (locked) → 2']);
    assert.deepEqual(summary(pinsInManifest('poetry.lock', '[[package]]\nname = "openai"\nversion = "3.22.1"\n')), ['pypi:openai 3.22.1 (locked) → 3']);
    assert.deepEqual(summary(pinsInManifest('Pipfile.lock', '{"default": {"openai": {"version": "==3.22.1"}}, "develop": {}}')), ['pypi:openai 3.22.1 (locked) → 3']);
    const lock = '{"lockfileVersion": 3, "packages": {"": {}, "node_modules/openai": {"version": "7.59.0"}, "node_modules/x/node_modules/openai": {"version": "4.0.0"}}}';
    assert.deepEqual(summary(pinsInManifest('package-lock.json', lock)), ['npm:openai 7.59.0 (locked) → 7']);
  });

  it('package.json: semver ranges; tags and URLs say nothing', () => {
    const text = '{"dependencies": {"openai": "^7.59.0"}, "devDependencies": {"@langchain/openai": "latest", "@anthropic-ai/sdk": ">=1.10 <2"}}';
    assert.deepEqual(summary(pinsInManifest('package.json', text)), ['npm:openai ^7.59.0 → 7', 'npm:@langchain/openai latest → ?', 'npm:@anthropic-ai/sdk >=1.10 <2 → 1']);
  });

  it('in one folder a lock file wins over a constraint', () => {
    const pins = folderPins([
      ['requirements.txt', 'openai>=2\n'],
      ['uv.lock', '[[package]]\nname = "openai"\nversion = "3.22.1"\n'],
    ]);
    assert.deepEqual(summary(pins), ['pypi:openai 3.22.1 (locked) → 3']);
    assert.equal(allowsMajor(pins[0], 3), true);
    assert.equal(allowsMajor(pins[0], 2), false);
    assert.equal(allowsMajor(undefined, 2), true, 'no pin allows every major');
  });

  it('the readings of a .env value: one registry pinned drops the other registry\'s SDKs; the openai major picks the recorded client', () => {
    const all: ClientReading[] = [
      { client: 'openai-node', loader: 'nodeDotenv' },
      { client: 'langchain-js', loader: 'nodeDotenv' },
      { client: 'openai-python', loader: 'pythonDotenv' },
      { client: 'openai-python-2', loader: 'pythonDotenv' },
    ];
    const labels = (pins: ClientPin[]) => pinnedReadings(all, pins).map(readingLabel);
    assert.deepEqual(labels(pinsInManifest('requirements.txt', 'openai==2.54.0\n')), ['openai-python 2.x (python-dotenv) [openai==2.54.0 in requirements.txt]']);
    assert.deepEqual(labels(pinsInManifest('uv.lock', '[[package]]\nname = "openai"\nversion = "3.22.1"\n')), ['openai-python 3.x (python-dotenv) [openai 3.22.1 in uv.lock]']);
    assert.deepEqual(labels(pinsInManifest('package.json', '{"dependencies": {"openai": "^7.59.0"}}')), ['openai-node (node dotenv) [openai@^7.59.0 in package.json]', 'LangChain JS (node dotenv)']);
    // A major no recorded client stands for (0.x): both openai-python rows stay, named with the pin.
    assert.deepEqual(labels(pinsInManifest('requirements.txt', 'openai<1\n')), ['openai-python 3.x (python-dotenv) [openai<1 in requirements.txt]', 'openai-python 2.x (python-dotenv) [openai<1 in requirements.txt]']);
    // Both registries pinned: every reader stays.
    const both = [...pinsInManifest('requirements.txt', 'openai>=3\n'), ...pinsInManifest('package.json', '{"dependencies": {"openai": "7.59.0"}}')];
    assert.deepEqual(pinnedReadings(all, both).map((r) => r.client), ['openai-node', 'langchain-js', 'openai-python']);
    assert.deepEqual(pinnedReadings(all, []), all);
    // A Python file's reader is a Python client even where only npm packages are pinned (a JS monorepo root).
    const python: ClientReading[] = [{ client: 'openai-python' }, { client: 'openai-python-2' }];
    assert.deepEqual(pinnedReadings(python, pinsInManifest('package.json', '{"dependencies": {"openai": "^7.59.0"}}'), 'pypi').map((r) => r.client), ['openai-python', 'openai-python-2']);
  });

  describe('through the workspace facts and the lint', () => {
    let grammars: Grammars;
    let root: string;
    before(async () => {
      grammars = await loadGrammars();
      root = mkdtempSync(join(tmpdir(), 'rollout-lint-pins-'));
      mkdirSync(join(root, 'trainer', 'rollout'), { recursive: true });
      mkdirSync(join(root, 'dashboard'));
      writeFileSync(join(root, 'requirements.txt'), 'openai>=3\n');
      writeFileSync(join(root, 'trainer', 'pyproject.toml'), '[project]\nname = "trainer"\ndependencies = ["openai>=2,<3"]\n');
      writeFileSync(join(root, 'dashboard', 'package.json'), '{"dependencies": {"openai": "^7.59.0"}}');
    });
    after(() => rmSync(root, { recursive: true, force: true }));

    it('the nearest folder upwards that names the package decides, with its path', () => {
      const facts = new NodeWorkspaceFacts(root);
      assert.deepEqual(summary(facts.clientPins('trainer/rollout/run.py')), ['pypi:openai >=2,<3 → 2']);
      assert.equal(facts.clientPins('trainer/rollout/run.py')[0].file, 'trainer/pyproject.toml');
      assert.deepEqual(summary(facts.clientPins('run.py')), ['pypi:openai >=3 → 3+']);
      assert.deepEqual(summary(facts.clientPins('dashboard/.env')), ['npm:openai ^7.59.0 → 7', 'pypi:openai >=3 → 3+']);
    });

    it('a query on the base: the row is the pinned major\'s URL alone (2.x and 3.x join it differently, test/conformance)', () => {
      const text = 'from openai import OpenAI\n\nclient = OpenAI(base_url="http://127.0.0.1:8000/v1?utm_source=x")\n';
      const urls = (facts: typeof NO_FACTS) => lintDocument({ path: 'trainer/rollout/run.py', text }, { grammars, config: DEFAULT_CONFIG, facts }).resolution.baseUrls[0].requests.map((r) => r.url);
      assert.deepEqual(urls(NO_FACTS), ['http://127.0.0.1:8000/v1/?utm_source=xchat/completions', 'http://127.0.0.1:8000/v1?utm_source=x/chat/completions']);
      assert.deepEqual(urls(new NodeWorkspaceFacts(root)), ['http://127.0.0.1:8000/v1?utm_source=x/chat/completions']);
    });
  });
});
