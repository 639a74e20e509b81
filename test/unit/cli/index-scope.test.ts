import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { runCli, workspace } from './helpers';

/** A `.env` whose base URL a Python module reads and appends `/v1/chat/completions` to: a cross-file finding at the read. */
const FILES = {
  '.env': 'OPENAI_BASE_URL=https://api.example.com/v1\n',
  'serve.py': 'import os\nimport requests\n\nbase = os.getenv("OPENAI_BASE_URL")\nrequests.post(f"{base}/v1/chat/completions", json={"model": "m", "logprobs": True, "top_logprobs": 1})\n',
};

describe('CLI: which files the env index reads when only some paths are named', () => {
  it('in a git work tree, a named file is judged with the definitions of the whole tree', async () => {
    const ws = workspace(FILES);
    try {
      execFileSync('git', ['init', '-q'], { cwd: ws.root });
      const { out } = await runCli(ws.root, ['serve.py', '--format', 'json']);
      const findings = (JSON.parse(out) as { messages: { ruleId: string; message: string }[] }[]).flatMap((r) => r.messages);
      assert.ok(findings.some((f) => f.ruleId === 'base-url-duplicate-v1' && f.message.includes('.env')), JSON.stringify(findings));
    } finally {
      ws.cleanup();
    }
  });

  it('outside any project (no git, no config: a home or temp folder) only the named files are read', async () => {
    const ws = workspace(FILES);
    try {
      const { out } = await runCli(ws.root, ['serve.py', '--format', 'json']);
      const findings = (JSON.parse(out) as { messages: { ruleId: string }[] }[]).flatMap((r) => r.messages);
      assert.deepEqual(findings.filter((f) => f.ruleId === 'base-url-duplicate-v1'), []);
      const named = await runCli(ws.root, ['serve.py', '.env', '--format', 'json']);
      assert.ok((JSON.parse(named.out) as { messages: { ruleId: string }[] }[]).flatMap((r) => r.messages).some((f) => f.ruleId === 'base-url-duplicate-v1'), 'naming the .env too brings the definition in');
    } finally {
      ws.cleanup();
    }
  });
});
