import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { main } from '../../../server/src/cli/main';
import type { EslintResult } from '../../../server/src/cli/format/json';
import { UPDATE_GOLDENS } from '../../support/lint';

/**
 * Multi-file workspaces under test/workspaces/<name>/: the CLI is run from each workspace's root
 * (so the env index sees every file) and its findings, hints included, must equal `EXPECTED.txt`
 * (`path:line:col: [rule-id] severity`, `#` comments allowed; an empty file = silence).
 * Each workspace is linted from a copy outside this repository: inside it, the files would sit under
 * `test/`, which the evidence model treats as test code (`testGlobs`) and keeps silent.
 */
const WORKSPACES = join(__dirname, '..', '..', 'workspaces');

async function lintWorkspace(source: string): Promise<{ lines: string[]; results: EslintResult[] }> {
  const copy = mkdtempSync(join(tmpdir(), 'rl-ws-'));
  const dir = join(copy, basename(source));
  cpSync(source, dir, { recursive: true });
  try {
    return await lintCopy(dir);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

async function lintCopy(dir: string): Promise<{ lines: string[]; results: EslintResult[] }> {
  let stdout = '';
  let stderr = '';
  const code = await main(['.', '--format', 'json', '--include-hints', '--exit-zero'], { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: { LANG: 'en_US.UTF-8' }, cwd: dir, isTTY: false });
  assert.equal(stderr, '');
  assert.equal(code, 0);
  const results = JSON.parse(stdout) as EslintResult[];
  const severity = (s: number, m: { severity: number }) => (s === 2 ? 'error' : (m as { messageId?: string }) && 'warning');
  const lines = results.flatMap((r) => r.messages.map((m) => `${r.filePath.slice(dir.length + 1)}:${m.line}:${m.column}: [${m.ruleId ?? 'parse-error'}] ${severity(m.severity, m)}`));
  return { lines, results };
}

describe('multi-file workspaces (cross-file findings through the env index)', () => {
  for (const name of readdirSync(WORKSPACES).sort()) {
    const dir = join(WORKSPACES, name);
    const expectedFile = join(dir, 'EXPECTED.txt');
    it(`${name}: findings equal EXPECTED.txt`, async () => {
      const { lines } = await lintWorkspace(dir);
      if (UPDATE_GOLDENS || !existsSync(expectedFile)) writeFileSync(expectedFile, lines.length ? `${lines.join('\n')}\n` : '');
      const expected = readFileSync(expectedFile, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
      assert.deepEqual(lines, expected);
    });
  }

  it('a read and its definition each name the other file (message and relatedInformation data)', async () => {
    const dir = join(WORKSPACES, 'openclaw-rl-cross');
    const { results } = await lintWorkspace(dir);
    const read = results.find((r) => r.filePath.endsWith('policy_serving.py'))!.messages[0];
    assert.equal(read.ruleId, 'base-url-duplicate-v1');
    assert.match(read.message, /^POLICY_BASE_URL from scripts\/run_rollout\.sh:3: /);
    assert.match(read.message, /\/v1\/v1\/chat\/completions/);
    const definition = results.find((r) => r.filePath.endsWith('run_rollout.sh'))!.messages[0];
    assert.equal(definition.ruleId, 'base-url-duplicate-v1');
    assert.match(definition.message, /policy_serving\.py:5/);
  });
});
