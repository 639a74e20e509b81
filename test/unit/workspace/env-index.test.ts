import assert from 'node:assert/strict';
import { loadGrammars } from '../../../server/src/node/grammars';
import type { Grammars } from '../../../server/src/core/formats/treesitter';
import { EnvIndex } from '../../../server/src/core/workspace/env-index';
import { indexDocument } from '../../../server/src/core/workspace/index-document';
import { joinRelative } from '../../../server/src/core/workspace/env-facts';

describe('workspace env index (core)', () => {
  let grammars: Grammars;
  before(async () => (grammars = await loadGrammars()));
  const indexOf = (files: Record<string, string>) => {
    const index = new EnvIndex();
    for (const [path, text] of Object.entries(files)) index.set(indexDocument({ path, text }, grammars));
    return index;
  };
  const chain = (index: EnvIndex, name: string, reader: string) => index.chainFor(name, reader).map((e) => `${e.definition.at.path}:${e.definition.at.start.line + 1} ${e.reason}${e.applies ? '' : ' (not applied)'}`);

  it('orders definitions as loaders apply them: process environment, .env.local, .env, named env files; templates and other folders last', () => {
    const index = indexOf({
      'app/.env': 'BASE_URL=http://a/v1\n',
      'app/.env.local': 'BASE_URL=http://b/v1\n',
      '.env': 'BASE_URL=http://root/v1\n',
      'app/.env.example': 'BASE_URL=http://example/v1\n',
      'other/.env': 'BASE_URL=http://other/v1\n',
      'app/trainer.env': 'BASE_URL=http://trainer/v1\n',
      'scripts/run.sh': 'export BASE_URL=http://export/v1\npython3 app/main.py\n',
      'app/main.py': 'import os\nbase = os.getenv("BASE_URL")\n',
    });
    assert.deepEqual(chain(index, 'BASE_URL', 'app/main.py'), [
      'scripts/run.sh:1 process',
      'app/.env.local:1 dotenv-local',
      'app/.env:1 dotenv',
      '.env:1 dotenv',
      'app/trainer.env:1 env-file',
      'other/.env:1 elsewhere (not applied)',
      'app/.env.example:1 template (not applied)',
    ]);
  });

  it('load_dotenv(override=True) in the reader puts dotenv files over the process environment', () => {
    const index = indexOf({
      '.env': 'OPENAI_BASE_URL=http://dotenv/v1\n',
      'run.sh': 'export OPENAI_BASE_URL=http://export/v1\n',
      'main.py': 'import os\nfrom dotenv import load_dotenv\nload_dotenv(override=True)\nbase = os.getenv("OPENAI_BASE_URL")\n',
    });
    assert.deepEqual(chain(index, 'OPENAI_BASE_URL', 'main.py'), ['.env:1 override', 'run.sh:1 process']);
  });

  it('a launch script reaches the code of its project (the folder above its own), not a sibling project', () => {
    const index = indexOf({ 'proj/scripts/run.sh': 'export POLICY_URL=http://x/v1\n', 'proj/serve.py': 'import os\nos.getenv("POLICY_URL")\n', 'other/serve.py': 'import os\nos.getenv("POLICY_URL")\n' });
    assert.equal(index.chainFor('POLICY_URL', 'proj/serve.py')[0].applies, true);
    assert.equal(index.chainFor('POLICY_URL', 'other/serve.py')[0].applies, false);
  });

  it('shell: only exported variables are definitions (export, declare -x, set -a, a later export)', () => {
    const index = indexOf({ 'a.sh': 'LOCAL=1\nexport A=1\ndeclare -x B=2\nC=3\nexport C\n', 'b.sh': 'set -a\nD=4\n' });
    assert.deepEqual(index.allNames().filter((n) => index.definitionsOf(n).length).sort(), ['A', 'B', 'C', 'D']);
  });

  it('finds reads in every syntax, with defaults and the consumer the value flows into', () => {
    const index = indexOf({
      'conf/hydra.yaml': 'rollout:\n  base_url: ${oc.env:POLICY_URL,http://localhost:30000/v1}\n',
      'conf/litellm.yaml': 'model_list:\n  - model_name: q\n    litellm_params:\n      model: openai/q\n      api_base: os.environ/VLLM_BASE\n',
      'docker-compose.yml': 'services:\n  app:\n    environment:\n      OPENAI_BASE_URL: ${ROUTER_URL:-http://router:30000/v1}\n',
      'client.py': 'import os\nfrom openai import OpenAI\nclient = OpenAI(base_url=os.environ["OPENAI_BASE_URL"])\nbase = os.environ.get("ROLLOUT_URL", "http://x")\nurl = f"{base}/v1/chat/completions"\n',
      'launch.sh': 'python3 -m sglang.launch_server --host $SGLANG_HOST --port 30000\ncurl "$PROBE_URL/v1/models"\n',
    });
    const read = (name: string) => index.readsOf(name).map((r) => ({ path: r.at.path, syntax: r.syntax, default: r.defaultValue, consumers: r.consumers.map((c) => c.id), bind: r.bindAddress ?? false }));
    assert.deepEqual(read('POLICY_URL'), [{ path: 'conf/hydra.yaml', syntax: 'oc.env', default: 'http://localhost:30000/v1', consumers: [], bind: false }]);
    assert.deepEqual(read('VLLM_BASE'), [{ path: 'conf/litellm.yaml', syntax: 'litellm', default: undefined, consumers: ['openai-sdk'], bind: false }]);
    assert.deepEqual(read('ROUTER_URL'), [{ path: 'docker-compose.yml', syntax: 'yaml', default: 'http://router:30000/v1', consumers: ['openai-sdk'], bind: false }]);
    assert.deepEqual(read('OPENAI_BASE_URL'), [{ path: 'client.py', syntax: 'python', default: undefined, consumers: ['openai-sdk'], bind: false }]);
    assert.deepEqual(read('ROLLOUT_URL'), [{ path: 'client.py', syntax: 'python', default: 'http://x', consumers: ['v1-appending'], bind: false }]);
    assert.deepEqual(read('SGLANG_HOST'), [{ path: 'launch.sh', syntax: 'shell', default: undefined, consumers: [], bind: true }]);
    assert.equal(index.definitionsOf('OPENAI_BASE_URL')[0].value, undefined, 'a compose value with ${…} is dynamic');
  });

  it('is incremental: identical facts change nothing, a changed or deleted file bumps the generation', () => {
    const index = new EnvIndex();
    const facts = indexDocument({ path: '.env', text: 'A=1\n' }, grammars);
    assert.equal(index.set(facts), true);
    const generation = index.generation;
    assert.equal(index.set(indexDocument({ path: '.env', text: 'A=1\n' }, grammars)), false);
    assert.equal(index.generation, generation);
    assert.equal(index.set(indexDocument({ path: '.env', text: 'A=2\n' }, grammars)), true);
    assert.equal(index.definitionsOf('A')[0].value, '2');
    assert.equal(index.delete('.env'), true);
    assert.deepEqual(index.definitionsOf('A'), []);
    assert.equal(index.generation, generation + 2);
  });

  it('counts the same facts object changed in place and set again as a change (it keeps no copy to compare)', () => {
    const index = new EnvIndex();
    const facts = indexDocument({ path: '.env', text: 'A=1\n' }, grammars);
    index.set(facts);
    facts.definitions[0].value = '2';
    assert.equal(index.set(facts), true);
    assert.equal(index.definitionsOf('A')[0].value, '2');
  });

  it('never throws on malformed or binary-looking input', () => {
    for (const text of ['\u0000\u0001', 'A="unterminated\n', '{{{', '\ufeffB=1\r\n', 'x'.repeat(100000)]) {
      for (const path of ['.env', 'a.yaml', 'a.json', 'a.py', 'a.sh']) assert.doesNotThrow(() => indexDocument({ path, text }, grammars));
    }
    assert.equal(indexDocument({ path: '.env', text: '\ufeffB=1\r\n' }, grammars).definitions[0].at.start.character, 0);
  });
  describe('Compose env_file: links', () => {
    it('reads the short, list and long syntax, resolved against the compose file folder', () => {
      const env = indexDocument({
        path: 'deploy/compose.yaml',
        text: 'services:\n  a:\n    env_file: ./a.env\n  "b.svc":\n    env_file:\n      - ../config/.env\n      - path: ../config/local.env\n        required: false\n      - path: /etc/abs.env\n  c:\n    env_file: ../../outside.env\n',
      }, grammars);
      assert.deepEqual(env.envFiles?.map((l) => [l.service, l.target ?? null, l.required, l.order, l.at.start.line + 1]), [
        ['a', 'deploy/a.env', true, 0, 3],
        ['b.svc', 'config/.env', true, 0, 6],
        ['b.svc', 'config/local.env', false, 1, 7],
        ['b.svc', null, true, 2, 9],
        ['c', null, true, 0, 11],
      ]);
    });

    it('a named file applies to readers in the compose scope, after environment: and before dotenv files', () => {
      const index = indexOf({
        'deploy/docker-compose.yml': 'services:\n  trainer:\n    env_file: [../config/.env.example, ../config/trainer.env]\n    environment:\n      BASE_URL: http://env/v1\n',
        'config/trainer.env': 'BASE_URL=http://named/v1\nTEMPLATE_ONLY=x\n',
        'config/.env.example': 'TEMPLATE_ONLY=http://example/v1\n',
        'trainer/.env': 'BASE_URL=http://dotenv/v1\n',
        'trainer/main.py': 'import os\nbase = os.getenv("BASE_URL")\nt = os.getenv("TEMPLATE_ONLY")\n',
      });
      assert.deepEqual(chain(index, 'BASE_URL', 'trainer/main.py'), [
        'deploy/docker-compose.yml:5 process',
        'config/trainer.env:1 service-env-file',
        'trainer/.env:1 dotenv',
      ]);
      // a template that a service names explicitly is loaded like any other file; the later file of the list wins
      assert.deepEqual(chain(index, 'TEMPLATE_ONLY', 'trainer/main.py'), ['config/trainer.env:2 service-env-file', 'config/.env.example:1 service-env-file']);
    });

    it('without the compose file (or outside its scope) the file is not loaded for the reader', () => {
      const files = {
        'config/trainer.env': 'BASE_URL=http://named/v1\n',
        'trainer/main.py': 'import os\nbase = os.getenv("BASE_URL")\n',
      };
      assert.deepEqual(chain(indexOf(files), 'BASE_URL', 'trainer/main.py'), ['config/trainer.env:1 elsewhere (not applied)']);
      const scoped = indexOf({ ...files, 'a/b/compose.yaml': 'services:\n  t:\n    env_file: ../../config/trainer.env\n' });
      assert.deepEqual(chain(scoped, 'BASE_URL', 'trainer/main.py'), ['config/trainer.env:1 elsewhere (not applied)'], 'a/b/compose.yaml starts code under a/, not trainer/');
    });

    it('a change to the links changes the dependency signature of readers', () => {
      const index = indexOf({ 'config/x.env': 'BASE_URL=http://named/v1\n', 'trainer/main.py': 'import os\nbase = os.getenv("BASE_URL")\n' });
      const before = index.dependencySignature('trainer/main.py');
      index.set(indexDocument({ path: 'compose.yaml', text: 'services:\n  t:\n    env_file: config/x.env\n' }, grammars));
      assert.notEqual(index.dependencySignature('trainer/main.py'), before);
    });

    it('joinRelative', () => {
      assert.equal(joinRelative('deploy', './a.env'), 'deploy/a.env');
      assert.equal(joinRelative('deploy', '../x/.env'), 'x/.env');
      assert.equal(joinRelative('', '.env'), '.env');
      assert.equal(joinRelative('', '../.env'), undefined);
      assert.equal(joinRelative('d', '/etc/x.env'), undefined);
      assert.equal(joinRelative('d', '${HOME}/x.env'), undefined);
      assert.equal(joinRelative('d', 'a\\b.env'), 'd/a/b.env');
    });
  });
});
