import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli/main';

/** `file method effectiveUrl` of each `rollout-lint endpoints --json` row in `cwd`. */
async function rows(cwd: string): Promise<string[]> {
  let stdout = '';
  await main(['endpoints', '--json', '.'], { stdout: (t) => void (stdout += t), stderr: () => undefined, env: { LANG: 'en_US.UTF-8' }, cwd, isTTY: false });
  return (JSON.parse(stdout) as { file: string; method: string; effectiveUrl: string }[]).map((r) => `${r.file} ${r.method} ${r.effectiveUrl}`);
}

/**
 * An environment variable read inside a client's `base_url` reaches that client's calls (issue 30): the row
 * of `OpenAI(base_url=os.environ["OPENAI_BASE_URL"])` shows its `completions.create`, not the calls of
 * another client built without `base_url`.
 */
describe('resolve: an env read passed as base_url decides by that client\'s calls', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'rollout-lint-env-calls-'));
    writeFileSync(join(root, '.env'), 'OPENAI_BASE_URL=http://127.0.0.1:8000/v1\n');
    writeFileSync(
      join(root, 'run.py'),
      ['import os', 'from openai import OpenAI', '', 'client = OpenAI(base_url=os.environ["OPENAI_BASE_URL"])', 'client.completions.create(model="m", prompt="x", logprobs=5)', '', 'other = OpenAI(base_url="http://127.0.0.1:9000/v1")', 'other.models.list()', ''].join('\n'),
    );
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('the read\'s row is the legacy completions request of the client it is passed to', async () => {
    const got = await rows(root);
    assert.ok(got.includes('run.py POST http://127.0.0.1:8000/v1/completions'), got.join('\n'));
    assert.ok(got.includes('run.py GET http://127.0.0.1:9000/v1/models'), got.join('\n'));
    assert.ok(!got.some((r) => r.startsWith('run.py') && r.includes('8000/v1/chat/completions')), got.join('\n'));
  });
});
