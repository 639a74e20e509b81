import assert from 'node:assert/strict';
import { DEFAULT_CONFIG } from '../../../server/src/core/config/config';
import { isCandidate, isExcludedByName } from '../../../server/src/core/files';
import { extract } from '../../../server/src/core/formats/index';
import { resolve } from '../../../server/src/core/resolve/resolve';
import { parseBaseUrl } from '../../../server/src/core/resolve/urls';
import { plainHttpServer, serverOnPort } from '../../../server/src/core/evidence/local-server';
import { envReadersOf } from '../../../server/src/core/evidence/env';
import { loadedConfigReads } from '../../../server/src/core/evidence/loaded-config';
import { EnvIndex } from '../../../server/src/core/workspace/env-index';
import { indexDocument } from '../../../server/src/core/workspace/index-document';
import { matchProviders } from '../../../server/src/core/providers/profiles';
import { loadGrammars } from '../../../server/src/node/grammars';
import { runCli, workspace } from '../cli/helpers';

/** Findings of `rollout-lint --format json` over `files` (all named on the command line, or the folder: `walk`), as `path:line [rule] severity`. */
async function lintFiles(files: Record<string, string>, walk = false): Promise<string[]> {
  const ws = workspace(files);
  try {
    const { out } = await runCli(ws.root, ['--format', 'json', ...(walk ? ['.'] : Object.keys(files))]);
    const results = JSON.parse(out) as { filePath: string; messages: { ruleId: string; severity: number; line: number }[] }[];
    return results.flatMap((r) => r.messages.map((m) => `${r.filePath.slice(ws.root.length + 1)}:${m.line} [${m.ruleId}] ${m.severity === 2 ? 'error' : 'warning'}`));
  } finally {
    ws.cleanup();
  }
}

describe('endpoint settings under the names and places real projects use (issue 23, kinds 6–8)', () => {
  describe('env-legacy-name in a dotenv template follows the same evidence as .env', () => {
    const template = 'OPENAI_API_BASE=https://api.deepseek.com/v1\n';
    const reader = 'import os\nbase = os.getenv("OPENAI_API_BASE")\n';

    it('silent when the project code below the template reads OPENAI_API_BASE; a warning when nothing does', async () => {
      assert.deepEqual(await lintFiles({ '.env.example': template, 'app/main.py': reader }), []);
      assert.deepEqual(await lintFiles({ '.env.example': template, 'app/main.py': 'print(1)\n' }), ['.env.example:1 [env-legacy-name] warning']);
      assert.deepEqual(await lintFiles({ '.env': template, 'app/main.py': reader }), []);
    });

    it('a read in a sibling project is not reached by the .env a template stands for', async () => {
      const grammars = await loadGrammars();
      const index = new EnvIndex();
      const files = { 'svc/.env.example': template, 'other/main.py': reader, 'svc/app/main.py': reader };
      for (const [path, text] of Object.entries(files)) index.set(indexDocument({ path, text }, grammars));
      const extraction = extract('dotenv', template, 'svc/.env.example', grammars);
      resolve(extraction, DEFAULT_CONFIG);
      const setting = extraction.settings[0];
      assert.deepEqual(envReadersOf(index.viewFor('svc/.env.example'), 'svc/.env.example', setting).map((r) => r.at.path), ['svc/app/main.py']);
      // the loaded-definition path is unchanged: a template applies to no reader through the load chain
      assert.deepEqual(index.viewFor('svc/.env.example').readersOf('OPENAI_API_BASE', setting.keyRange.start), []);
    });
  });

  describe('JSON files that configure models are read', () => {
    const table = '{"gpt": {"base_url": "https://api.openai.com/v1/chat/completions"}}\n';

    it('config-named JSON with an endpoint-shaped key is a candidate; data JSON is not even read', () => {
      for (const path of ['configs/models.json', 'llm_config.json', 'model_endpoints.json', 'providers.json', 'conf/eval.json']) {
        assert.equal(isExcludedByName(path, DEFAULT_CONFIG), false, path);
        assert.equal(isCandidate(path, table, DEFAULT_CONFIG), true, path);
      }
      assert.equal(isCandidate('configs/models.json', '{"architectures": ["LlamaForCausalLM"]}', DEFAULT_CONFIG), false);
      for (const path of ['data/train.json', 'tsconfig.json', 'package.json', 'package-lock.json', 'results/outputs.json', 'src/data/providers.json', 'frontend/src/i18n/models.json']) assert.equal(isExcludedByName(path, DEFAULT_CONFIG), true, path);
    });

    it('reports the endpoint path in a models table and nothing in the same text under a data name', async () => {
      assert.deepEqual(await lintFiles({ 'configs/models.json': table, 'data/samples.json': table }, true), ['configs/models.json:1 [base-url-endpoint-path] error']);
    });
  });

  describe('config files that Python code loads and hands to a client', () => {
    const reads = async (path: string, text: string) => {
      const extraction = extract('python', text, path, await loadGrammars());
      return loadedConfigReads(path, text, extraction).map((r) => `${r.files.join('|')}#${r.key} ${r.consumer.id}`);
    };

    it('follows json.load / yaml.safe_load / tomllib.load through subscripts, .get, for-loops and plain assignments', async () => {
      const text = [
        'import json, yaml, tomllib',
        'from openai import OpenAI',
        'with open("configs/models.json") as f:',
        '    MODELS = json.load(f)',
        'CFG = yaml.safe_load(open("conf/llm.yaml"))',
        'with open("agent.toml", "rb") as fh:',
        '    AGENT = tomllib.load(fh)',
        'def client_for(name):',
        '    entry = MODELS[name]',
        '    return OpenAI(base_url=entry["base_url"])',
        'judge = OpenAI(base_url=CFG["judge"].get("api_base"))',
        'for name, spec in AGENT["providers"].items():',
        '    OpenAI(base_url=spec["base_url"])',
        'base = CFG["llm"]["base_url"]',
        'llm = OpenAI(base_url=base)',
        'other = OpenAI(base_url=make_url())',
        '',
      ].join('\n');
      assert.deepEqual(await reads('app/client.py', text), [
        'configs/models.json|app/configs/models.json#base_url openai-sdk',
        'conf/llm.yaml|app/conf/llm.yaml#api_base openai-sdk',
        'agent.toml|app/agent.toml#base_url openai-sdk',
        'conf/llm.yaml|app/conf/llm.yaml#base_url openai-sdk',
      ]);
      assert.deepEqual(await reads('client.py', 'from openai import OpenAI\nc = OpenAI(base_url=cfg["base_url"])\n'), [], 'no load, nothing to follow');
      const viaPath = [
        'import json, os',
        'from openai import OpenAI',
        'CONFIG_PATH = os.path.join(os.path.dirname(__file__), "configs", "model_configs.json")',
        'with open(CONFIG_PATH, "r") as f:',
        '    MODEL_CONFIGS = json.load(f)',
        'spec = MODEL_CONFIGS["qwen"]',
        'client = OpenAI(base_url=spec["base_url"], api_key=spec.get("api_key"))',
        '',
      ].join('\n');
      assert.deepEqual(await reads('agents/llm.py', viaPath), [
        'configs/model_configs.json|agents/configs/model_configs.json#base_url openai-sdk',
        'configs/model_configs.json|agents/configs/model_configs.json#api_key openai-sdk',
      ]);
    });

    it('the loaded file is judged with that client: a bare local host gets the /v1 warning, with the read as related location', async () => {
      const models = '{\n  "local": {"base_url": "http://localhost:8000"},\n  "hosted": {"base_url": "https://api.openai.com/v1"}\n}\n';
      const code = 'import json\nfrom openai import OpenAI\nwith open("configs/models.json") as f:\n    MODELS = json.load(f)\nclient = OpenAI(base_url=MODELS["local"]["base_url"])\n';
      assert.deepEqual(await lintFiles({ 'configs/models.json': models, 'client.py': code }, true), ['configs/models.json:2 [base-url-missing-v1] warning']);
      assert.deepEqual(await lintFiles({ 'configs/models.json': models }, true), [], 'no client visible: no consumer, no /v1 finding');
      const yaml = 'llm:\n  base_url: http://gpu-box.example.com:11434\n';
      const yamlCode = 'import yaml\nfrom openai import OpenAI\nCFG = yaml.safe_load(open("conf/llm.yaml"))\nllm = OpenAI(base_url=CFG["llm"]["base_url"])\n';
      assert.deepEqual(await lintFiles({ 'conf/llm.yaml': yaml, 'train/run.py': yamlCode }, true), ['conf/llm.yaml:2 [base-url-missing-v1] warning']);
    });

    it('the loaded file depends on the code that loads it (editor caches key on the env index signature)', async () => {
      const grammars = await loadGrammars();
      const index = new EnvIndex();
      const models = '{"local": {"base_url": "http://localhost:8000"}}\n';
      index.set(indexDocument({ path: 'configs/models.json', text: models }, grammars));
      const before = index.dependencySignature('configs/models.json');
      const code = 'import json\nfrom openai import OpenAI\nMODELS = json.load(open("configs/models.json"))\nc = OpenAI(base_url=MODELS["local"]["base_url"])\n';
      index.set(indexDocument({ path: 'client.py', text: code }, grammars));
      assert.notEqual(index.dependencySignature('configs/models.json'), before);
    });
  });

  describe('container runs set the container environment', () => {
    it('docker/podman run -e K=V, --env K=V and --env=K=V are env settings of that command; -e K alone and other commands are not', async () => {
      const grammars = await loadGrammars();
      const text = 'docker run --rm -e A_BASE_URL=http://a/v1 --env B_BASE_URL=http://b/v1 --env=C_BASE_URL=http://c/v1 -e D_BASE_URL img\npodman create -e E_BASE_URL=http://e/v1 img\ndocker exec -e F_BASE_URL=http://f/v1 ctr sh\n';
      const env = extract('shell', text, 'run.sh', grammars).settings.filter((s) => s.kind === 'env');
      assert.deepEqual(env.map((s) => [s.key, s.value, text.slice(s.keyRange.start, s.keyRange.end)]), [
        ['A_BASE_URL', 'http://a/v1', 'A_BASE_URL'],
        ['B_BASE_URL', 'http://b/v1', 'B_BASE_URL'],
        ['C_BASE_URL', 'http://c/v1', 'C_BASE_URL'],
        ['E_BASE_URL', 'http://e/v1', 'E_BASE_URL'],
      ]);
      assert.equal(new Set(env.slice(0, 3).map((s) => s.group)).size, 1, 'one command, one env block');
      assert.notEqual(env[3].group, env[0].group);
    });
  });

  describe('any *.toml, and kebab-case keys and flags', () => {
    it('a TOML, Python or shell file is a candidate for base-url / api-key / api-base spelled with a dash', () => {
      assert.equal(isCandidate('tools/agent.toml', '[model]\nbase-url = "http://x/v1"\n', DEFAULT_CONFIG), true);
      assert.equal(isCandidate('serve.sh', 'mytool --api-base http://x/v1\n', DEFAULT_CONFIG), true);
      assert.equal(isCandidate('run.py', 'parser.add_argument("--api-key")\n', DEFAULT_CONFIG), true);
      assert.equal(isCandidate('tools/other.toml', '[tool.black]\nline-length = 100\n', DEFAULT_CONFIG), false);
    });
  });

  describe('role names of agent frameworks and eval tools', () => {
    it('apiBaseUrl / api_base_url are base URLs; api_keys lists are keys', async () => {
      const grammars = await loadGrammars();
      const yaml = 'p:\n  apiBaseUrl: http://x/v1\n  api_base_url: http://y/v1\n  api_keys:\n    - a\n    - b\n';
      const resolution = resolve(extract('yaml', yaml, 'c.yaml', grammars), DEFAULT_CONFIG);
      assert.deepEqual(resolution.byRole('baseUrl').map((s) => s.key), ['apiBaseUrl', 'api_base_url']);
      assert.deepEqual(resolution.byRole('apiKey').map((s) => s.path), ['p.api_keys[0]', 'p.api_keys[1]']);
    });
  });

  describe('known local servers by port', () => {
    const url = (u: string) => parseBaseUrl(u)!;

    it('names the server of a default port on a host no profile knows; not for local hosts (matched by profile) or other ports', () => {
      assert.deepEqual(serverOnPort(url('http://gpu.example.com:11434'), []), { server: 'Ollama', port: '11434' });
      assert.deepEqual(serverOnPort(url('http://47.100.1.2:8000'), []), { server: 'vLLM', port: '8000' });
      assert.equal(serverOnPort(url('http://gpu.example.com:9000'), []), undefined);
      assert.equal(serverOnPort(url('http://gpu.example.com'), []), undefined);
      const local = url('http://localhost:30000');
      assert.equal(serverOnPort(local, matchProviders('http://localhost:30000')), undefined);
      assert.ok(matchProviders('http://localhost:30000').some((p) => p.id === 'sglang'));
    });

    it('https:// to a plain-HTTP server port: any port for base URLs, distinctive ports (or model-server names) for other names', () => {
      assert.equal(plainHttpServer(url('https://127.0.0.1:11434'), 'OLLAMA_HOST', false), 'Ollama');
      assert.equal(plainHttpServer(url('https://127.0.0.1:8000'), 'APP_URL', false), undefined);
      assert.equal(plainHttpServer(url('https://127.0.0.1:8000'), 'VLLM_ENDPOINT', false), 'vLLM');
      assert.equal(plainHttpServer(url('https://127.0.0.1:8000'), 'base_url', true), 'vLLM');
      assert.equal(plainHttpServer(url('https://127.0.0.1:8080'), 'base_url', true), undefined);
      assert.equal(plainHttpServer(url('http://127.0.0.1:11434'), 'x', false), undefined);
      assert.equal(plainHttpServer(url('https://ollama.example.com:11434'), 'x', false), undefined, 'a public host may have its own certificate');
    });
  });
});
