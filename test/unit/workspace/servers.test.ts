import assert from 'node:assert/strict';
import { didYouMean, serverLaunches, servesModel, type ServerLaunch } from '../../../server/src/core/workspace/servers';
import { extract } from '../../../server/src/core/formats';
import type { Grammars } from '../../../server/src/core/formats/treesitter';
import { runCli, workspace } from '../cli/helpers';
import { lintDocument } from '../../../server/src/core/lint';
import { loadGrammars } from '../../../server/src/node/grammars';
import type { VerifiedEndpoint } from '../../../server/src/core/model/verified';
import { parseVerifiedEndpoints } from '../../../server/src/lsp/verified';

let grammars: Grammars;
/** Launches as the index reads them: from the words the shell extractor (or the YAML extraction) recorded. */
const shellLaunches = (path: string, text: string): ServerLaunch[] => serverLaunches(path, text, extract('shell', text, path, grammars));
const composeLaunches = (path: string, text: string): ServerLaunch[] => serverLaunches(path, text, extract('yaml', text, path, grammars));

describe('server launches (served model names)', () => {
  before(async () => {
    grammars = await loadGrammars();
  });

  it('reads vllm serve with wrappers, continuations, several served names and --api-key', () => {
    const text = '#!/bin/bash\n# vllm serve commented --port 1\nCUDA_VISIBLE_DEVICES=0 nohup vllm serve /models/Qwen3-4B \\\n  --served-model-name policy ref \\\n  --port 8001 --api-key "$KEY" > log 2>&1 &\n';
    const [launch, ...rest] = shellLaunches('a.sh', text);
    assert.equal(rest.length, 0);
    assert.deepEqual({ engine: launch.engine, port: launch.port, names: launch.names, complete: launch.complete, apiKey: launch.apiKey }, { engine: 'vllm', port: 8001, names: ['policy', 'ref'], complete: true, apiKey: true });
    assert.equal(launch.at.start.line, 2);
    assert.equal(text.slice(launch.at.range.start, launch.at.range.start + 10), 'vllm serve');
  });

  it('uses the model as the served name, engine default ports, and SGLang --model-path', () => {
    const launches = shellLaunches('b.sh', 'vllm serve Qwen/Qwen3-4B\npython3 -m sglang.launch_server --model-path Qwen/Qwen3-8B\npython -m vllm.entrypoints.openai.api_server --model=/ckpt/step_10 --port 9000\n');
    assert.deepEqual(launches.map((l) => [l.engine, l.port, l.names]), [['vllm', 8000, ['Qwen/Qwen3-4B']], ['sglang', 30000, ['Qwen/Qwen3-8B']], ['vllm', 9000, ['/ckpt/step_10']]]);
  });

  it('marks names unknown for a variable, a missing model or LoRA loaded at run time; a variable port is undefined', () => {
    const launches = shellLaunches('c.sh', 'vllm serve "$MODEL" --port 8002\npython3 -m sglang.launch_server --port 30000\nvllm serve m --enable-lora --port $PORT\nvllm serve m --lora-modules sql=/a/b --port 8003\n');
    assert.deepEqual(launches.map((l) => [l.port, l.names, l.complete]), [[8002, [], false], [30000, [], false], [undefined, ['m'], false], [8003, ['m', 'sql'], true]]);
  });

  it('reads Compose services: vllm/vllm-openai image with list command, string command', () => {
    const yaml = 'services:\n  vllm:\n    image: vllm/vllm-openai:latest\n    command: ["--model", "Qwen/Qwen3-4B", "--served-model-name", "policy"]\n  sg:\n    image: lmsysorg/sglang\n    command: python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --port 30001\n  web:\n    image: nginx\n    command: ["nginx"]\n';
    assert.deepEqual(composeLaunches('docker-compose.yaml', yaml).map((l) => [l.service, l.engine, l.port, l.names]), [['vllm', 'vllm', 8000, ['policy']], ['sg', 'sglang', 30001, ['Qwen/Qwen3-8B']]]);
  });

  it('reads launches as the shell grammar does: compound commands, $\'…\' quoting, `-u`, not heredoc bodies or comments', () => {
    const text = "if true; then vllm serve m --served-model-name $'pol\\x69cy' --port 8001; fi\n{ vllm serve m --port 8002; } &\nfoo && python3 -u -m sglang.launch_server --model-path q --port 8003 >log 2>&1 &\ncat > r.sh <<'EOF'\nvllm serve fake --port 9\nEOF\nA=1 \\\n  vllm serve m \\\n  --served-model-name \"a b\" 'c' \\\n  --port 8004 # vllm serve no --port 1\n";
    const launches = shellLaunches('g.sh', text);
    assert.deepEqual(launches.map((l) => [l.engine, l.port, l.names, l.at.start.line]), [['vllm', 8001, ['policy'], 0], ['vllm', 8002, ['m'], 1], ['sglang', 8003, ['q'], 2], ['vllm', 8004, ['a b', 'c'], 7]]);
    assert.equal(text.slice(launches[3].at.range.start, launches[3].at.range.end), 'vllm serve m');
  });

  it('reads Compose string commands with shell quoting and line breaks between words (go-shellwords), and every list item', () => {
    const yaml = "services:\n  a:\n    image: vllm/vllm-openai\n    command: |\n      --model m --port 8001\n      --served-model-name 'policy'\n  b:\n    command: python3 -m sglang.launch_server --model-path \"/m/my model\" --port 8002\n  c:\n    image: vllm/vllm-openai\n    command:\n      - --model\n      - m\n      - --port\n      - 8003\n      - --served-model-name\n      - ${NAME}\n";
    const launches = composeLaunches('compose.yaml', yaml);
    assert.deepEqual(launches.map((l) => [l.service, l.port, l.names, l.complete]), [['a', 8001, ['policy'], true], ['b', 8002, ['/m/my model'], true], ['c', 8003, [], false]]);
    assert.equal(yaml.slice(launches[0].at.range.start, launches[0].at.range.end), '--model m --port 8001');
  });

  it('never throws on odd input', () => {
    for (const text of ['vllm serve', 'vllm serve "unterminated', '\\', 'python -m', 'services:\n  x: [', 'vllm serve m --port 99999999']) {
      shellLaunches('x.sh', text);
      composeLaunches('x.yaml', `services:\n  a:\n    image: vllm/vllm-openai\n    command: ${text}\n`);
    }
    // a command string nested deeper than any script is not parsed (tree-sitter's memory grows steeply with nesting)
    assert.deepEqual(composeLaunches('x.yaml', `services:\n  a:\n    command: vllm serve ${'$('.repeat(5000)}\n`), []);
  });

  it('finds every launch of a long script', () => {
    const line = 'vllm serve m --served-model-name a --port 8000 &\n';
    assert.equal(shellLaunches('s.sh', line.repeat(2000)).length, 2000);
    assert.equal(shellLaunches('s.sh', line.repeat(4000)).length, 4000);
  });

  it('suggests the served name with the same last segment, else the nearest, else the only one', () => {
    assert.equal(didYouMean('Qwen/Qwen3-4B', ['/models/Qwen3-4B', 'other']), '/models/Qwen3-4B');
    assert.equal(didYouMean('polcy', ['policy', 'reference']), 'policy');
    assert.equal(didYouMean('gpt-4o', ['policy']), 'policy');
    assert.equal(didYouMean('gpt-4o', ['policy', 'reference']), undefined);
  });

  it('SGLang accepts <served>:<adapter>; vLLM only exact names', () => {
    const [sg] = shellLaunches('s.sh', 'python3 -m sglang.launch_server --model-path m --served-model-name policy\n');
    assert.ok(servesModel(sg, 'policy:lora1'));
    const [vl] = shellLaunches('v.sh', 'vllm serve m --served-model-name policy\n');
    assert.ok(!servesModel(vl, 'policy:lora1'));
    assert.ok(!servesModel(vl, 'Policy'));
  });
});

describe('model-not-served from the CLI (launch script in another file)', () => {
  it('reports the request with a did-you-mean and the launch line as related', async () => {
    const ws = workspace({
      '.rolloutlintrc.json': '{}',
      'scripts/serve.sh': '#!/bin/bash\nvllm serve /models/Qwen3-4B --served-model-name policy --port 8000\n',
      'rollout.py': 'from openai import OpenAI\n\nclient = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")\nr = client.chat.completions.create(model="Qwen/Qwen3-4B", messages=[])\n',
    });
    try {
      const { out } = await runCli(ws.root, ['--format', 'json']);
      const results = JSON.parse(out) as { filePath: string; messages: { ruleId: string; line: number; message: string; related?: { path: string; line: number }[] }[] }[];
      const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'model-not-served'));
      assert.equal(found.length, 1);
      assert.equal(found[0].line, 4);
      assert.match(found[0].message, /Did you mean "policy"\?/);
      assert.deepEqual(found[0].related?.map((r) => [r.path, r.line]), [['scripts/serve.sh', 2]]);
    } finally {
      ws.cleanup();
    }
  });
});

describe('model-not-served from a connection test\'s /models list (LintOptions.verified)', () => {
  const text = 'OPENAI_BASE_URL=https://llm.example.com/v1\nOPENAI_MODEL=qwen3-4b\n';
  const entry = (at: number, models?: string[]): VerifiedEndpoint => ({ baseUrl: 'https://llm.example.com/v1', consumer: 'openai-sdk', workingBaseUrl: 'https://llm.example.com/v1', url: 'https://llm.example.com/v1/chat/completions', at, ...(models ? { models } : {}) });
  const lint = async (verified: VerifiedEndpoint[]) => lintDocument({ path: '.env', text }, { grammars: await loadGrammars(), onlyRules: ['model-not-served'], verified }).findings;

  it('is an error when today\'s /models of the same base URL does not list the model', async () => {
    const [finding, ...rest] = await lint([entry(Date.now(), ['Qwen/Qwen3-4B', 'other'])]);
    assert.equal(rest.length, 0);
    assert.deepEqual([finding.severity, finding.messageId], ['error', 'notListedSuggest']);
    assert.match(finding.message, /listed today .*Did you mean "Qwen\/Qwen3-4B"\?/);
  });

  it('is a warning when the list is older than today, and silent when it lists the model or lists nothing', async () => {
    const [old] = await lint([entry(Date.now() - 3 * 24 * 3600 * 1000, ['Qwen/Qwen3-4B'])]);
    assert.equal(old.severity, 'warning');
    assert.deepEqual(await lint([entry(Date.now(), ['qwen3-4b'])]), []);
    assert.deepEqual(await lint([entry(Date.now())]), []);
  });
});

describe('verified /models lists from the editor (rolloutLint/verifiedEndpoints)', () => {
  it('keeps a list of strings and drops anything else', () => {
    const base = { baseUrl: 'http://127.0.0.1:8000/v1', consumer: 'openai-sdk', workingBaseUrl: 'http://127.0.0.1:8000/v1', url: 'http://127.0.0.1:8000/v1/chat/completions', at: 1 };
    assert.deepEqual(parseVerifiedEndpoints([{ ...base, models: ['policy'] }])[0].models, ['policy']);
    assert.equal(parseVerifiedEndpoints([{ ...base, models: [1, 2] }])[0].models, undefined);
    assert.equal(parseVerifiedEndpoints([{ ...base, models: 'policy' }])[0].models, undefined);
  });
});
