import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Language, Parser } from 'web-tree-sitter';
import { extractShell, isServerLaunch } from '../../../server/src/core/formats/shell';
import type { Extraction, Range, RequestSite, Setting } from '../../../server/src/core/model/types';

let bash: Language;

/** Initialises web-tree-sitter only when no other suite has (a second init invalidates loaded grammars). */
async function loadBash(): Promise<Language> {
  try {
    new Parser().delete();
  } catch {
    await Parser.init();
  }
  return Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
}

const extract = (text: string): Extraction => extractShell(text, bash);
const slice = (text: string, r: Range): string => text.slice(r.start, r.end);

function find(x: Extraction, key: string, kind?: Setting['kind'], group?: string): Setting {
  const s = x.settings.find((t) => t.key === key && (kind === undefined || t.kind === kind) && (group === undefined || t.group === group));
  assert.ok(s, `no ${kind ?? ''} setting ${key} in ${x.settings.map((t) => `${t.kind}:${t.key}@${t.group}`).join(', ')}`);
  return s;
}

function onlySite(x: Extraction): RequestSite {
  assert.equal(x.requestSites.length, 1, `sites: ${x.requestSites.map((s) => s.callee).join(', ')}`);
  return x.requestSites[0];
}

/** Asserts a setting's key, raw and content by slicing the text with its ranges. */
function assertRanges(text: string, s: Setting, key: string, raw: string, content: string): void {
  assert.equal(slice(text, s.keyRange), key, 'keyRange');
  assert.equal(s.raw, raw, 'raw');
  assert.equal(slice(text, s.valueRange), raw, 'valueRange');
  assert.equal(slice(text, s.contentRange), content, 'contentRange');
}

/** Reads a case script from the project's copy of the cases, or the shared folder; undefined when neither exists. */
function caseScript(id: string): string | undefined {
  for (const root of [join(__dirname, '..', '..', 'cases'), '/work/shared/cases']) {
    const path = join(root, id, 'run.sh');
    if (existsSync(path)) return readFileSync(path, 'utf8');
  }
  return undefined;
}

describe('shell extractor', () => {
  before(async () => {
    bash = await loadBash();
  });

  describe('env assignments', () => {
    it('reads export, plain, local, declare -x and readonly assignments as file-level env settings', () => {
      const text = 'export SGLANG_API_KEY=sk-test-0000\nHOST="0.0.0.0"\nf() { local L=1; }\ndeclare -x D=2\nreadonly R=3\nexport ONLY\n';
      const x = extract(text);
      assert.deepEqual(x.settings.map((s) => [s.kind, s.key, s.value, s.group]), [
        ['env', 'SGLANG_API_KEY', 'sk-test-0000', 'file'],
        ['env', 'HOST', '0.0.0.0', 'file'],
        ['env', 'L', '1', 'file'],
        ['env', 'D', '2', 'file'],
        ['env', 'R', '3', 'file'],
      ]);
      const key = find(x, 'SGLANG_API_KEY');
      assertRanges(text, key, 'SGLANG_API_KEY', 'sk-test-0000', 'sk-test-0000');
      assert.equal(slice(text, key.statementRange), 'export SGLANG_API_KEY=sk-test-0000');
      assert.equal(key.path, 'SGLANG_API_KEY');
      assert.equal(key.format, 'shell');
      assert.equal(key.command, undefined);
      assert.equal(find(x, 'L').valueType, 'string', 'numbers stay strings in env values');
      assert.equal(x.bindings.HOST, find(x, 'HOST'));
    });

    it('resolves backslash escapes in unquoted values and keeps an empty value', () => {
      const text = 'A=a\\ b\\$c\nB=\nC=~/x\n';
      const x = extract(text);
      assert.equal(find(x, 'A').value, 'a b$c');
      assertRanges(text, find(x, 'A'), 'A', 'a\\ b\\$c', 'a\\ b\\$c');
      const b = find(x, 'B');
      assert.equal(b.value, '');
      assert.deepEqual(b.valueRange, { start: text.indexOf('B=') + 2, end: text.indexOf('B=') + 2 });
      assert.equal(find(x, 'C').value, '~/x');
    });

    it('keeps single-quoted content literally', () => {
      const text = "export R='${X} \\n $(date)'\n";
      const r = find(extract(text), 'R');
      assert.equal(r.value, '${X} \\n $(date)');
      assert.equal(r.valueType, 'string');
      assert.equal(r.quote, "'");
      assertRanges(text, r, 'R', "'${X} \\n $(date)'", '${X} \\n $(date)');
    });

    it('applies double-quote escapes and marks expansions dynamic', () => {
      const text = 'A="say \\"hi\\" \\$5 \\x"\nB="http://$HOST:8000/v1"\nC="$(hostname)"\nD=$X\n';
      const x = extract(text);
      const a = find(x, 'A');
      assert.equal(a.value, 'say "hi" $5 \\x');
      assert.equal(a.quote, '"');
      assert.equal(slice(text, a.contentRange), 'say \\"hi\\" \\$5 \\x');
      for (const key of ['B', 'C', 'D']) {
        const s = find(x, key);
        assert.equal(s.value, undefined, key);
        assert.equal(s.valueType, 'dynamic', key);
      }
      assert.equal(slice(text, find(x, 'B').contentRange), 'http://$HOST:8000/v1');
      assert.deepEqual(x.envReads.map((r) => [r.name, r.defaultValue, slice(text, r.range)]), [
        ['HOST', undefined, '$HOST'],
        ['X', undefined, '$X'],
      ]);
    });

    it('turns a value that is exactly ${K:-default} into an env read and an envDefault setting', () => {
      const text = 'export OPENAI_BASE_URL="${OPENAI_BASE_URL:-http://127.0.0.1:30000/v1}"\nP=${PORT-8000}\nQ=${Q:=x y}\nE=${E:-}\nM="${HOST:-0.0.0.0}:8000"\n';
      const x = extract(text);
      const url = find(x, 'OPENAI_BASE_URL', 'env');
      assert.equal(url.valueType, 'dynamic');
      assert.equal(url.value, undefined);
      const def = find(x, 'OPENAI_BASE_URL', 'envDefault');
      assert.equal(def.envName, 'OPENAI_BASE_URL');
      assert.equal(def.value, 'http://127.0.0.1:30000/v1');
      assert.equal(def.group, 'file');
      assertRanges(text, def, 'OPENAI_BASE_URL', 'http://127.0.0.1:30000/v1', 'http://127.0.0.1:30000/v1');
      assert.equal(find(x, 'PORT', 'envDefault').value, '8000');
      assert.equal(find(x, 'Q', 'envDefault').value, 'x y');
      assert.equal(find(x, 'E', 'envDefault').value, '');
      assert.equal(x.settings.some((s) => s.kind === 'envDefault' && s.key === 'HOST'), false, 'embedded defaults give no setting');
      assert.deepEqual(x.envReads.map((r) => [r.name, r.defaultValue]), [
        ['OPENAI_BASE_URL', 'http://127.0.0.1:30000/v1'],
        ['PORT', '8000'],
        ['Q', 'x y'],
        ['E', ''],
        ['HOST', '0.0.0.0'],
      ]);
    });

    it('reads env prefixes of a command, also through env', () => {
      const text = 'echo start\nOPENAI_BASE_URL=http://x/v1 OPENAI_API_KEY="sk-test-1" python rollout.py\nnohup env CUDA_VISIBLE_DEVICES=0 python3 -u serve.py &\n';
      const x = extract(text);
      const base = find(x, 'OPENAI_BASE_URL');
      const at = text.indexOf('OPENAI_BASE_URL');
      assert.equal(base.kind, 'env');
      assert.equal(base.group, `cmd@${at}`);
      assert.equal(base.command, 'python rollout.py');
      assert.equal(find(x, 'OPENAI_API_KEY').group, `cmd@${at}`);
      assert.equal(slice(text, base.statementRange), 'OPENAI_BASE_URL=http://x/v1 OPENAI_API_KEY="sk-test-1" python rollout.py');
      const cuda = find(x, 'CUDA_VISIBLE_DEVICES');
      assert.equal(cuda.command, 'python3 serve.py');
      assertRanges(text, cuda, 'CUDA_VISIBLE_DEVICES', '0', '0');
      assert.deepEqual(Object.keys(x.bindings), []);
    });

    it('separates assignments that tree-sitter folds into the next line\'s command', () => {
      const text = 'A=1 B=2\nfoo --x 1\n';
      const x = extract(text);
      assert.equal(find(x, 'A').group, 'file');
      assert.equal(find(x, 'B').group, 'file');
      const flag = find(x, '--x');
      assert.equal(flag.group, `cmd@${text.indexOf('foo')}`);
      assert.equal(slice(text, flag.statementRange), 'foo --x 1');
    });
  });

  describe('flags', () => {
    it('reads --flag value, --flag=value, boolean flags and ignores short flags', () => {
      const text = 'python3 -u train.py -n 4 --rollout-batch-size 16 --address="http://127.0.0.1:8265" --name=a\\ b --logprobs --top_logprobs 5 --temp -0.5 --debug > out.log 2>&1\n';
      const x = extract(text);
      assert.deepEqual(x.settings.map((s) => [s.key, s.value, s.valueType]), [
        ['--rollout-batch-size', '16', 'number'],
        ['--address', 'http://127.0.0.1:8265', 'string'],
        ['--name', 'a b', 'string'],
        ['--logprobs', 'true', 'boolean'],
        ['--top_logprobs', '5', 'number'],
        ['--temp', '-0.5', 'string'],
        ['--debug', 'true', 'boolean'],
      ]);
      for (const s of x.settings) {
        assert.equal(s.kind, 'flag');
        assert.equal(s.command, 'python3 train.py');
        assert.equal(s.group, 'cmd@0');
        assert.equal(slice(text, s.keyRange), s.key);
      }
      assertRanges(text, find(x, '--address'), '--address', '"http://127.0.0.1:8265"', 'http://127.0.0.1:8265');
      assert.equal(find(x, '--address').quote, '"');
      const logprobs = find(x, '--logprobs');
      assert.equal(logprobs.raw, '');
      assert.deepEqual(logprobs.valueRange, { start: logprobs.keyRange.end, end: logprobs.keyRange.end });
      assert.deepEqual(find(x, '--debug').valueRange, { start: text.indexOf(' > out'), end: text.indexOf(' > out') });
    });

    it('names the command each flag belongs to', () => {
      const cases: [string, string][] = [
        ['python3 train.py --a 1', 'python3 train.py'],
        ['python3 -m sglang.launch_server --a 1', 'python3 -m sglang.launch_server'],
        ['/opt/venv/bin/vllm serve Qwen/Qwen3-4B --a 1', 'vllm serve'],
        ['swift rollout --a 1', 'swift rollout'],
        ['sglang_router --a 1', 'sglang_router'],
        ['uvicorn app:app --a 1', 'uvicorn'],
        ['ray job submit --a 1', 'ray job submit'],
        ['curl --a 1 http://x', 'curl'],
        ['torchrun --nproc_per_node 8 x.py --a 1', 'torchrun x.py'],
        ['nohup python -u x.py --a 1', 'python x.py'],
        ['uv run python x.py --a 1', 'python x.py'],
        ['"$PYTHON" x.py --a 1', '"$PYTHON" x.py'],
      ];
      for (const [line, command] of cases) {
        const x = extract(`${line}\n`);
        const setting = line.startsWith('curl') ? find(x, 'url') : find(x, '--a');
        assert.equal(setting.command, command, line);
      }
    });

    it('gives flags after `--` of ray job submit to the submitted command', () => {
      const text = 'ray job submit --address="http://127.0.0.1:8265" -- python3 train_async.py --rollout-batch-size 16 --top_logprobs 1\n';
      const x = extract(text);
      assert.equal(find(x, '--address').command, 'ray job submit');
      assert.equal(find(x, '--address').group, 'cmd@0');
      const inner = find(x, '--top_logprobs');
      assert.equal(inner.command, 'python3 train_async.py');
      assert.equal(inner.group, `cmd@${text.indexOf('python3')}`);
      const site = onlySite(x);
      assert.equal(slice(text, site.anchorRange), 'python3');
      assert.equal(slice(text, site.range), 'python3 train_async.py --rollout-batch-size 16 --top_logprobs 1');
    });

    it('follows backslash line continuations with exact ranges', () => {
      const text = 'python train.py \\\n    --model-path /m \\\n    --logprobs \\\n    --port 30000\necho done\n';
      const x = extract(text);
      assertRanges(text, find(x, '--model-path'), '--model-path', '/m', '/m');
      assertRanges(text, find(x, '--port'), '--port', '30000', '30000');
      assert.equal(find(x, '--logprobs').valueType, 'boolean');
      const site = onlySite(x);
      assert.deepEqual(site.insertion, { offset: text.indexOf('30000') + 5, prefix: ' \\\n    ', suffix: '' });
      const fixed = text.slice(0, site.insertion!.offset) + site.insertion!.prefix + '--top-logprobs 1' + text.slice(site.insertion!.offset);
      assert.match(fixed, /--port 30000 \\\n {4}--top-logprobs 1\necho done/);
    });
  });

  describe('arrays', () => {
    it('groups array flags under array:NAME and gives them the command that spreads the array', () => {
      const text = [
        'ROLLOUT_ARGS=(',
        '   --rollout-batch-size 16  # per step',
        '   --sglang-router-ip ${ROUTER_IP} --sglang-router-port 30000',
        '   --use-flag',
        ')',
        'EVAL_ARGS=( --top-logprobs 3 )',
        'UNUSED=( --x 1 )',
        'python3 train_async.py ${ROLLOUT_ARGS[@]} --top_logprobs 1',
        'python3 eval.py "${EVAL_ARGS[@]}"',
        '',
      ].join('\n');
      const x = extract(text);
      const size = find(x, '--rollout-batch-size');
      assert.equal(size.group, 'array:ROLLOUT_ARGS');
      assert.equal(size.command, 'python3 train_async.py');
      assertRanges(text, size, '--rollout-batch-size', '16', '16');
      assert.equal(slice(text, size.statementRange).split('\n')[0], 'ROLLOUT_ARGS=(');
      const ip = find(x, '--sglang-router-ip');
      assert.equal(ip.valueType, 'dynamic');
      assert.equal(ip.raw, '${ROUTER_IP}');
      assert.equal(find(x, '--use-flag').valueType, 'boolean');
      assert.equal(find(x, '--top-logprobs').command, 'python3 eval.py');
      assert.equal(find(x, '--x').command, 'array:UNUSED');
      assert.ok(x.comments.some((c) => c.text === '# per step'));
      assert.equal(x.requestSites.length, 2);
      const [train, evaluate] = x.requestSites;
      assert.deepEqual(Object.keys(train.params).sort(), ['rollout_batch_size', 'sglang_router_ip', 'sglang_router_port', 'top_logprobs', 'use_flag']);
      assert.equal(train.isRollout, true);
      assert.equal(train.rolloutReason, 'command carries --rollout-batch-size');
      assert.equal(evaluate.params.top_logprobs, find(x, '--top-logprobs'));
    });

    it('spreads $ARGS of a known array and ends a boolean flag before a spread', () => {
      const text = 'ARGS=(--top_logprobs 2)\npython x.py --logprobs $ARGS\n';
      const x = extract(text);
      assert.equal(find(x, '--logprobs').valueType, 'boolean');
      assert.equal(find(x, '--top_logprobs').command, 'python x.py');
      assert.deepEqual(Object.keys(onlySite(x).params).sort(), ['logprobs', 'top_logprobs']);
    });

    it('uses the last assignment before the command, plus += additions', () => {
      const text = 'A=(--logprobs)\nA=(--top-logprobs 1)\nA+=(--max-logprobs 5)\npython x.py ${A[@]}\n';
      const site = onlySite(extract(text));
      assert.deepEqual(Object.keys(site.params).sort(), ['max_logprobs', 'top_logprobs']);
    });
  });

  describe('curl', () => {
    it('reads the URL, the Authorization header and a JSON body as a request site', () => {
      const text = 'curl -sS https://api.example.com/v1/chat/completions -H "Content-Type: application/json" -H "Authorization: Bearer $OPENAI_API_KEY" -d \'{"model":"m", "logprobs": true, "top_logprobs": 30, "messages": []}\'\n';
      const x = extract(text);
      const url = find(x, 'url');
      assert.equal(url.kind, 'flag');
      assert.equal(url.command, 'curl');
      assert.equal(url.value, 'https://api.example.com/v1/chat/completions');
      const auth = find(x, 'Authorization');
      assert.equal(auth.kind, 'flag');
      assert.equal(auth.valueType, 'dynamic');
      assert.equal(slice(text, auth.keyRange), 'Authorization');
      assert.equal(slice(text, auth.contentRange), 'Bearer $OPENAI_API_KEY');
      assert.equal(slice(text, auth.valueRange), '"Authorization: Bearer $OPENAI_API_KEY"');
      const site = onlySite(x);
      assert.equal(site.apiKind, 'chat');
      assert.equal(site.style, 'flags');
      assert.equal(site.endpoint, 'https://api.example.com/v1/chat/completions');
      assert.equal(slice(text, site.anchorRange), 'curl');
      assert.deepEqual(Object.keys(site.params), ['model', 'logprobs', 'top_logprobs', 'messages']);
      const top = site.params.top_logprobs;
      assert.equal(top.value, '30');
      assert.equal(top.valueType, 'number');
      assert.equal(slice(text, top.keyRange), 'top_logprobs');
      assert.equal(slice(text, top.valueRange), '30');
      assert.equal(site.params.logprobs.valueType, 'boolean');
      assertRanges(text, site.params.model, 'model', '"m"', 'm');
      assert.equal(site.params.messages.valueType, 'list');
    });

    it('maps body offsets through double-quote escapes and marks expanded strings dynamic', () => {
      const text = 'curl "$BASE/generate" --header \'Authorization: Bearer sk-test-0000\' --data "{\\"text\\": \\"$PROMPT\\", \\"return_logprob\\": true}"\n';
      const x = extract(text);
      const auth = find(x, 'Authorization');
      assert.equal(auth.value, 'Bearer sk-test-0000');
      assert.equal(auth.quote, "'");
      assert.equal(slice(text, auth.contentRange), 'Bearer sk-test-0000');
      const site = onlySite(x);
      assert.equal(site.apiKind, 'sglang-generate');
      assert.equal(site.endpoint, undefined);
      assert.equal(site.params.text.valueType, 'dynamic');
      assert.equal(slice(text, site.params.text.contentRange), '$PROMPT');
      assert.equal(slice(text, site.params.text.valueRange), '"$PROMPT\\"');
      assert.equal(slice(text, site.params.return_logprob.valueRange), 'true');
      assert.equal(slice(text, site.params.return_logprob.keyRange), 'return_logprob');
    });

    it('tells completions from chat and skips bodies that are not JSON objects', () => {
      assert.equal(onlySite(extract('curl http://h/v1/completions -d \'{"prompt": "x"}\'\n')).apiKind, 'completions');
      assert.equal(extract('curl http://h/v1/chat/completions -d @body.json\n').requestSites.length, 0);
    });
  });

  describe('consumer evidence', () => {
    it('records variables joined with a literal API path', () => {
      const text = 'curl "$BASE/v1/chat/completions"\npython x.py --url ${OPENAI_BASE_URL}/chat/completions --out $HOME/x\nURL=${ROUTER_URL%/}/v1/models?x=1\n';
      const x = extract(text);
      assert.deepEqual(
        x.consumerEvidence.map((e) => [e.target, e.consumer.id, e.consumer.appendedPath, e.consumer.via, slice(text, e.range)]),
        [
          ['env:BASE', 'v1-appending', '/v1/chat/completions', '"$BASE/v1/chat/completions"', '"$BASE/v1/chat/completions"'],
          ['env:OPENAI_BASE_URL', 'raw', '/chat/completions', '${OPENAI_BASE_URL}/chat/completions', '${OPENAI_BASE_URL}/chat/completions'],
          ['env:ROUTER_URL', 'v1-appending', '/v1/models', '${ROUTER_URL%/}/v1/models?x=1', '${ROUTER_URL%/}/v1/models?x=1'],
        ],
      );
    });

    it('shortens a long word in via to 60 characters', () => {
      const text = `curl "$BASE/v1/chat/completions?${'a'.repeat(80)}"\n`;
      const [evidence] = extract(text).consumerEvidence;
      assert.equal(evidence.consumer.via.length, 60);
      assert.ok(evidence.consumer.via.endsWith('…'));
    });
  });

  describe('request sites', () => {
    it('makes one site per command with a log-prob flag, with rollout detection and insertion', () => {
      const text = 'swift rollout --model /m --max_logprobs 64 --port 8000 &\npython train.py --logprobs --top-logprobs 2\npython plain.py --x 1\n';
      const x = extract(text);
      assert.equal(x.requestSites.length, 2);
      const [rollout, train] = x.requestSites;
      assert.equal(rollout.callee, 'swift rollout');
      assert.equal(rollout.isRollout, true);
      assert.equal(rollout.rolloutReason, 'command "swift rollout" names rollout');
      assert.equal(rollout.apiKind, 'unknown');
      assert.equal(rollout.style, 'flags');
      assert.equal(slice(text, rollout.range), 'swift rollout --model /m --max_logprobs 64 --port 8000');
      assert.equal(slice(text, rollout.anchorRange), 'swift');
      assert.deepEqual(rollout.insertion, { offset: text.indexOf(' &'), prefix: ' ', suffix: '' });
      assert.equal(rollout.params.max_logprobs.value, '64');
      assert.equal(train.isRollout, false);
      assert.equal(train.rolloutReason, undefined);
      assert.deepEqual(Object.keys(train.params), ['logprobs', 'top_logprobs']);
    });

    it('spans env prefixes and wrappers, anchors at the program and names rollout scripts', () => {
      const text = 'OPENAI_BASE_URL=http://x/v1 nohup python run_rollout.py --logprobs\n';
      const site = onlySite(extract(text));
      assert.equal(slice(text, site.range), text.trimEnd());
      assert.equal(slice(text, site.anchorRange), 'python');
      assert.equal(site.callee, 'python run_rollout.py');
      assert.equal(site.rolloutReason, 'command "python run_rollout.py" names rollout');
      assert.equal(site.params.logprobs.value, 'true');
    });
  });

  describe('comments and positions', () => {
    it('collects every comment, the shebang included', () => {
      const text = '#!/usr/bin/env bash\n# rollout-lint-disable-next-line api-key-committed\nexport K=v # trailing\n';
      assert.deepEqual(extract(text).comments.map((c) => [c.text, slice(text, c.range)]), [
        ['#!/usr/bin/env bash', '#!/usr/bin/env bash'],
        ['# rollout-lint-disable-next-line api-key-committed', '# rollout-lint-disable-next-line api-key-committed'],
        ['# trailing', '# trailing'],
      ]);
    });

    it('keeps ranges right after Chinese text', () => {
      const text = '# 中文注释：启动推理服务 🚀\nexport OPENAI_BASE_URL="http://127.0.0.1:30000/v1/v1" # 基础地址\npython 训练.py --top_logprobs 64\n';
      const x = extract(text);
      assertRanges(text, find(x, 'OPENAI_BASE_URL'), 'OPENAI_BASE_URL', '"http://127.0.0.1:30000/v1/v1"', 'http://127.0.0.1:30000/v1/v1');
      assertRanges(text, find(x, '--top_logprobs'), '--top_logprobs', '64', '64');
      assert.equal(find(x, '--top_logprobs').command, 'python 训练.py');
      assert.equal(slice(text, x.comments[1].range), '# 基础地址');
    });

    it('reads a CRLF script without carriage returns in values, comments or continuations', () => {
      const text = '# 启动\r\nexport K=v\r\npython x.py --a 1 \\\r\n  --logprobs \\\r\n  --b 2 # c\r\n';
      const x = extract(text);
      assertRanges(text, find(x, 'K'), 'K', 'v', 'v');
      assert.equal(find(x, 'K').value, 'v');
      assert.equal(find(x, '--logprobs').valueType, 'boolean');
      assertRanges(text, find(x, '--b'), '--b', '2', '2');
      assert.deepEqual(x.comments.map((c) => slice(text, c.range)), ['# 启动', '# c']);
      assert.deepEqual(onlySite(x).insertion, { offset: text.indexOf('2 # c') + 1, prefix: ' \\\r\n  ', suffix: '' });
    });
  });

  describe('bad input', () => {
    it('reports an unterminated quote and keeps what comes before it', () => {
      const text = 'export A=1\nexport B=\'abc\npython x.py --a 1\n';
      const x = extract(text);
      assert.equal(find(x, 'A').value, '1');
      assert.equal(x.parseProblems.length, 1);
      assert.match(x.parseProblems[0].message, /Unterminated quote/);
      assert.equal(slice(text, x.parseProblems[0].range), "'abc");
    });

    it('reports an unclosed $( and still reads the commands inside', () => {
      const text = 'export A=$(date\npython x.py --a 1\n';
      const x = extract(text);
      assert.equal(x.parseProblems.length, 1);
      assert.match(x.parseProblems[0].message, /"\)" is missing/);
      assert.equal(slice(text, x.parseProblems[0].range), '$(date');
      assert.equal(find(x, 'A').valueType, 'dynamic');
      assert.equal(find(x, '--a').value, '1');
    });

    it('reports stray syntax and reads the statements after it', () => {
      const text = 'python x.py --a 1 ) fi\nexport C=1\n';
      const x = extract(text);
      assert.equal(x.parseProblems.length, 1);
      assert.equal(slice(text, x.parseProblems[0].range), 'python x.py --a 1 ) fi');
      assert.equal(find(x, 'C').value, '1');
    });

    it('never throws and keeps every range inside the text', () => {
      const alphabet = fc.constantFrom(...'ab=-_ $"\'`\\(){}[]#\n\r\t;|&<>中😀:/.0123456789'.split(''), 'export ', '--top_logprobs ', '${K:-', 'curl ', ' -d ', '{"a":1}', 'ARGS=(', '${A[@]}', '\\\n', '<<EOF\n');
      fc.assert(
        fc.property(fc.array(alphabet, { maxLength: 60 }), (parts) => {
          const text = parts.join('');
          const x = extract(text);
          const ranges: Range[] = [
            ...x.settings.flatMap((s) => [s.keyRange, s.valueRange, s.contentRange, s.statementRange]),
            ...x.requestSites.flatMap((s) => [s.range, s.anchorRange]),
            ...x.consumerEvidence.map((e) => e.range),
            ...x.envReads.map((r) => r.range),
            ...x.comments.map((c) => c.range),
            ...x.parseProblems.map((p) => p.range),
          ];
          for (const r of ranges) assert.ok(r.start >= 0 && r.start <= r.end && r.end <= text.length, `${JSON.stringify(r)} in ${JSON.stringify(text)}`);
          for (const s of x.settings) if (s.raw !== '' || s.valueType !== 'boolean') assert.equal(slice(text, s.valueRange), s.raw);
        }),
        { numRuns: 300 },
      );
    });

    it('reads binary bytes without throwing', () => {
      let text = '';
      for (let i = 0; i < 4096; i++) text += String.fromCharCode((i * 7919) % 256);
      assert.doesNotThrow(() => extract(text));
    });

    it('completes a 1 MB script', () => {
      const block = 'export OPENAI_BASE_URL="http://127.0.0.1:30000/v1"\nARGS=( --rollout-batch-size 16 --top_logprobs 1 )\npython3 train.py ${ARGS[@]} \\\n  --logprobs --x "$BASE/v1/chat/completions" # 注释\n';
      const text = block.repeat(Math.ceil(1_000_000 / block.length));
      const x = extract(text);
      const blocks = Math.ceil(1_000_000 / block.length);
      assert.equal(x.requestSites.length, blocks);
      assert.equal(x.comments.length, blocks);
      assert.equal(x.parseProblems.length, 0);
      const last = x.requestSites[blocks - 1];
      assert.deepEqual(Object.keys(last.params).sort(), ['logprobs', 'rollout_batch_size', 'top_logprobs', 'x']);
    });
  });

  describe('cases', () => {
    it('case-16: a single-quoted ${sk-…} key stays literal', function () {
      const text = caseScript('case-16');
      if (text === undefined) this.skip();
      const key = find(extract(text), '--openai_key');
      assert.equal(key.value, '${sk-test-0000000000000000000000000000}');
      assert.equal(key.quote, "'");
      assert.equal(key.valueType, 'string');
      assert.equal(key.command, 'python3 make_book.py');
      assert.equal(slice(text, key.contentRange), key.value);
      assert.equal(text.slice(0, key.keyRange.start).split('\n').length, 4, 'line 4');
    });

    it('case-27: --top_logprobs belongs to the trainer, --max_logprobs to swift rollout', function () {
      const text = caseScript('case-27');
      if (text === undefined) this.skip();
      const x = extract(text);
      const top = find(x, '--top_logprobs');
      assert.equal(top.value, '64');
      assert.equal(top.command, 'python train_opsd.py');
      assert.equal(text.slice(0, top.keyRange.start).split('\n').length, 7, 'line 7');
      assert.equal(find(x, '--max_logprobs').command, 'swift rollout');
      assert.deepEqual(x.requestSites.map((s) => [s.callee, s.isRollout, Object.keys(s.params).includes('top_logprobs')]), [
        ['swift rollout', true, false],
        ['python train_opsd.py', true, true],
      ]);
    });

    it('case-33: the no_proxy export and the router ip/port flags', function () {
      const text = caseScript('case-33');
      if (text === undefined) this.skip();
      const x = extract(text);
      const noProxy = find(x, 'no_proxy');
      assert.equal(noProxy.value, '10.0.0.0/8,localhost,127.0.0.1');
      assert.equal(noProxy.group, 'file');
      assert.equal(text.slice(0, noProxy.keyRange.start).split('\n').length, 4, 'line 4');
      const ip = find(x, '--sglang-router-ip');
      const port = find(x, '--sglang-router-port');
      assert.equal(ip.value, '10.1.2.3');
      assert.equal(port.value, '30000');
      assert.equal(ip.command, 'python train.py');
      assert.equal(ip.group, port.group);
    });
  });

  describe('isServerLaunch', () => {
    it('knows commands that start a server', () => {
      for (const command of [
        'python -m sglang.launch_server',
        'python3 -m sglang.launch_server --host 0.0.0.0',
        'sglang.launch_server',
        'python -m vllm.entrypoints.openai.api_server',
        'vllm serve',
        '/opt/venv/bin/vllm serve Qwen/Qwen3-4B',
        'swift rollout',
        'swift deploy',
        'uvicorn',
        'gunicorn',
        'python -m sglang_router.launch_router',
        'sglang_router.launch_router',
        'python -m sglang_router.launch_server',
        'trl vllm-serve',
        'lmdeploy serve',
        'ollama serve',
        'text-generation-launcher',
        'nohup python3 -m sglang.launch_server',
      ]) {
        assert.equal(isServerLaunch(command), true, command);
      }
    });

    it('is false for clients and other commands', () => {
      for (const command of ['python3 train.py', 'swift sft', 'vllm bench', 'ray job submit', 'curl', 'ollama run', 'python -m sglang.bench_serving', '', 'constructor', 'python -m']) {
        assert.equal(isServerLaunch(command), false, command);
      }
    });
  });
});
