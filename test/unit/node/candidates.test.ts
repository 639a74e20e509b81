import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isCandidate, isExcludedByName } from '../../../server/src/core/files';
import { DEFAULT_CONFIG, type LintConfig } from '../../../server/src/core/config/config';
import { lintFile } from '../../../server/src/node/lint-file';
import { loadGrammars } from '../../../server/src/node/grammars';
import { NodeWorkspaceFacts } from '../../../server/src/node/facts';
import { walk } from '../../../server/src/node/walk';
import { main } from '../../../server/src/cli/main';

describe('candidacy from the file name (issue 16)', () => {
  const globbed: LintConfig = { ...DEFAULT_CONFIG, jsonGlobs: ['conf/**/*.json'] };

  it('rules out data JSON by name, and nothing that isCandidate could accept', () => {
    const cases: [string, LintConfig, boolean][] = [
      ['data/train_0001.json', DEFAULT_CONFIG, true],
      ['tsconfig.jsonc', DEFAULT_CONFIG, true],
      ['openclaw.json', DEFAULT_CONFIG, false],
      ['a/OpenClaw.JSON', DEFAULT_CONFIG, false],
      ['.claude/settings.json', DEFAULT_CONFIG, false],
      ['.claude/settings.local.json', DEFAULT_CONFIG, false],
      ['conf/x/providers.json', globbed, false],
      ['other/items.json', globbed, true],
      // config-named JSON is read, and linted when it holds an endpoint-shaped key (issue 23)
      ['other/providers.json', DEFAULT_CONFIG, false],
      ['src/data/providers.json', DEFAULT_CONFIG, true],
      ['run.py', DEFAULT_CONFIG, false],
      ['.env', DEFAULT_CONFIG, false],
      ['conf/providers.json5', DEFAULT_CONFIG, false],
    ];
    for (const [path, config, excluded] of cases) {
      assert.equal(isExcludedByName(path, config), excluded, path);
      // Sound: whatever the text, an excluded name is never a candidate.
      if (excluded) assert.equal(isCandidate(path, '{"env": {"OPENAI_BASE_URL": "x"}, "baseUrl": "x"}', config), false, path);
    }
  });

  it('finds *.json5 files with a trigger token by walking, and reads them as JSON5', async () => {
    assert.equal(isCandidate('conf/providers.json5', '{ name: "x" }', DEFAULT_CONFIG), false);
    const dir = mkdtempSync(join(tmpdir(), 'rl-json5-'));
    try {
      mkdirSync(join(dir, 'conf'));
      // JSON5: unquoted keys, a comment, single quotes, a trailing comma.
      writeFileSync(join(dir, 'conf', 'providers.json5'), "{\n  // relay\n  baseUrl: 'https://api.openai.com/v1/v1',\n}\n");
      let stdout = '';
      await main(['.', '--format', 'json', '--exit-zero'], { stdout: (t) => void (stdout += t), stderr: () => undefined, env: { LANG: 'en_US.UTF-8' }, cwd: dir, isTTY: false });
      const results = JSON.parse(stdout) as { filePath: string; messages: { ruleId: string | null; line: number }[] }[];
      const file = results.find((r) => r.filePath.endsWith('providers.json5'));
      assert.ok(file, 'the walker lints conf/providers.json5');
      assert.deepEqual(file.messages.map((m) => `${m.line}:${m.ruleId}`), ['3:base-url-duplicate-v1']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not read an excluded file, but reads it when named explicitly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollout-lint-cand-'));
    try {
      // Larger than the byte limit: reading it would give a skipped-file finding.
      writeFileSync(join(dir, 'data.json'), `{"baseUrl": "${'x'.repeat(2000)}"}`);
      const options = { grammars: await loadGrammars(), config: DEFAULT_CONFIG, maxFileBytes: 100 };
      const skipped = lintFile(join(dir, 'data.json'), 'data.json', options);
      assert.equal(skipped.notCandidate, true);
      assert.deepEqual(skipped.findings, []);
      assert.equal(skipped.text, undefined);
      const forced = lintFile(join(dir, 'data.json'), 'data.json', { ...options, force: true });
      assert.deepEqual(forced.findings.map((f) => f.ruleId), ['skipped-file']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('walk (readdir with file types)', () => {
  it('lists known formats in sorted order with relative paths, skips symlinked directories and other files', function () {
    const root = mkdtempSync(join(tmpdir(), 'rollout-lint-walk-'));
    try {
      mkdirSync(join(root, 'b', 'c'), { recursive: true });
      mkdirSync(join(root, 'node_modules', 'x'), { recursive: true });
      writeFileSync(join(root, 'b', 'c', 'run.sh'), 'echo\n');
      writeFileSync(join(root, 'b', 'a.yaml'), 'a: 1\n');
      writeFileSync(join(root, 'b', 'README.md'), '# x\n');
      writeFileSync(join(root, '.env'), 'A=1\n');
      writeFileSync(join(root, 'node_modules', 'x', '.env'), 'A=1\n');
      try {
        symlinkSync(join(root, 'b'), join(root, 'link'), 'dir');
      } catch {
        // no symlinks here: the rest still holds
      }
      const facts = new NodeWorkspaceFacts(root);
      const { files, problems } = walk(['.'], root, facts, { noIgnore: false, config: DEFAULT_CONFIG });
      assert.deepEqual(problems, []);
      assert.deepEqual(files.map((f) => f.relPath), ['.env', 'b/a.yaml', 'b/c/run.sh']);
      assert.equal(files[1].absPath, join(root, 'b', 'a.yaml'));
      const sub = walk(['b'], root, facts, { noIgnore: false, config: DEFAULT_CONFIG });
      assert.deepEqual(sub.files.map((f) => f.relPath), ['b/a.yaml', 'b/c/run.sh']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
