import assert from 'node:assert/strict';
import fs from 'node:fs';
import { join } from 'node:path';
import { runCli, workspace } from './helpers';

/**
 * Issue 27 item 1: the whole-tree run reads each file once, shared by the index pass and the lint
 * (`indexForLint`'s `reads`, `LintFileOptions.preRead`): counted by wrapping `fs.openSync`, which
 * every read of a linted file goes through (`node/read.ts` `readBounded`). Output equals a run that reads twice (the cache path).
 */
describe('CLI whole-tree run reads each file once (--no-cache)', function () {
  this.timeout(120_000);

  it('opens every linted, indexed or candidate-checked file at most once, and reports as before', async () => {
    const ws = workspace({
      '.env': 'OPENAI_BASE_URL=http://localhost:8000/v1/v1\nOPENAI_API_KEY=sk-test\n',
      'conf/task.yaml': 'task: demo\nmetric_list:\n  - metric: acc\n',
      'conf/serve.yaml': 'model: your-model\nbase_url: ${OPENAI_BASE_URL}\n',
      'src/app.py': 'import os\nfrom openai import OpenAI\nclient = OpenAI(base_url=os.environ["OPENAI_BASE_URL"])\n',
      'src/util.py': 'def add(a, b):\n    return a + b\n',
      'run.sh': 'vllm serve m --port 8000\n',
      '\ufeffbom.yaml': '\ufeffapi_key: ""\n',
    });
    const opened = new Map<string, number>();
    const original = fs.openSync;
    try {
      (fs as { openSync: typeof fs.openSync }).openSync = ((path: fs.PathLike, ...rest: unknown[]) => {
        const key = String(path);
        if (key.startsWith(ws.root)) opened.set(key, (opened.get(key) ?? 0) + 1);
        return (original as (...a: unknown[]) => number)(path, ...rest);
      }) as typeof fs.openSync;
      const once = await runCli(ws.root, ['--no-cache', '--format', 'json', '--include-hints', '--exit-zero']);
      const twice = new Map(opened);
      opened.clear();
      (fs as { openSync: typeof fs.openSync }).openSync = original;
      const cached = await runCli(ws.root, ['--cache-location', join(ws.root, '.cache'), '--format', 'json', '--include-hints', '--exit-zero']);
      assert.equal(once.out, cached.out);
      assert.ok(JSON.parse(once.out).some((r: { messages: unknown[] }) => r.messages.length > 0));
      const files = [...twice.keys()].filter((p) => !p.includes('.cache'));
      assert.ok(files.length >= 6, `opened ${files.join(', ')}`);
      for (const [path, n] of twice) assert.equal(n, 1, `${path} opened ${n} times`);
    } finally {
      (fs as { openSync: typeof fs.openSync }).openSync = original;
      ws.cleanup();
    }
  });
});
