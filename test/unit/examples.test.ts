import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../server/src/cli/main';
import type { EslintResult } from '../../server/src/cli/format/json';
import { UPDATE_GOLDENS } from '../support/lint';

const ROOT = join(__dirname, '..', '..');
const EXPECTED = join(ROOT, 'examples', 'EXPECTED.txt');

/** Runs the CLI in-process from the repository root and returns stdout and the exit code. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: { LANG: 'en_US.UTF-8' }, cwd: ROOT, isTTY: false });
  return { code, stdout, stderr };
}

describe('examples/ (what `npm start` shows)', () => {
  it('finds exactly the findings listed in examples/EXPECTED.txt', async () => {
    const { code, stdout, stderr } = await cli(['examples', '--format', 'json', '--include-hints']);
    assert.equal(stderr, '');
    assert.equal(code, 1, 'the examples contain errors, so the exit code is 1');
    const results = JSON.parse(stdout) as EslintResult[];
    const lines = results.flatMap((r) =>
      r.messages.map((m) => `${r.filePath.slice(ROOT.length + 1)}:${m.line}:${m.column}: [${m.ruleId ?? 'parse-error'}] ${m.severity === 2 ? 'error' : 'warning'}`),
    );
    if (UPDATE_GOLDENS) writeFileSync(EXPECTED, `${lines.join('\n')}\n`);
    const expected = readFileSync(EXPECTED, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
    assert.deepEqual(lines, expected);
  });

  it('npm start exits 0 with --exit-zero and prints a summary', async () => {
    const { code, stdout } = await cli(['examples', '--exit-zero']);
    assert.equal(code, 0);
    assert.match(stdout, /✖ \d+ problems \(\d+ errors?, \d+ warnings?\)/);
  });

  it('the clean files in examples/ produce nothing', async () => {
    const clean = ['examples/openclaw-rl/.env.example', 'examples/openclaw-rl/configs/eval.yaml', 'examples/openclaw-rl/rollout/proxy.py'];
    const { code, stdout } = await cli([...clean, '--format', 'json', '--include-hints']);
    assert.equal(code, 0);
    assert.deepEqual((JSON.parse(stdout) as EslintResult[]).flatMap((r) => r.messages), []);
  });
});
