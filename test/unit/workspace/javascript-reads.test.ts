import assert from 'node:assert/strict';
import { runCli, workspace } from '../cli/helpers';

const READ = 'export const url = `${process.env.ROLLOUT_BASE_URL}/v1/chat/completions`;\n';

/** ESLint-JSON messages as `path:line [rule-id]`, paths relative to the workspace. */
async function findings(root: string, args: string[]): Promise<string[]> {
  const { out } = await runCli(root, [...args, '--format', 'json', '--exit-zero']);
  return (JSON.parse(out) as { filePath: string; messages: { line: number; ruleId: string }[] }[]).flatMap((r) => r.messages.map((m) => `${r.filePath.slice(root.length + 1)}:${m.line} [${m.ruleId}]`));
}

describe('process.env reads in JavaScript/TypeScript through the CLI', () => {
  it('node_modules, build output, declaration files and bundles are never read or reported, even named or with --no-ignore', async () => {
    const ws = workspace({
      '.env': 'ROLLOUT_BASE_URL=https://taotoken.net/api/v1\n',
      'src/rollout.ts': READ,
      'node_modules/pkg/index.js': READ,
      'dist/rollout.js': READ,
      'web/.next/server/page.js': READ,
      'types/env.d.ts': READ,
      'public/app.min.js': READ,
    });
    try {
      const expected = ['.env:1 [base-url-duplicate-v1]', 'src/rollout.ts:1 [base-url-duplicate-v1]'];
      assert.deepEqual(await findings(ws.root, ['.']), expected);
      assert.deepEqual(await findings(ws.root, ['.', '--no-ignore']), expected);
      assert.deepEqual(await findings(ws.root, ['dist/rollout.js', 'node_modules/pkg/index.js', 'public/app.min.js', 'types/env.d.ts']), []);
      const { out } = await runCli(ws.root, ['.', '--format', 'json']);
      const env = (JSON.parse(out) as { filePath: string; messages: { related?: { path: string }[] }[] }[]).find((r) => r.filePath.endsWith('.env'))!;
      assert.deepEqual(env.messages[0].related?.map((p) => p.path), ['src/rollout.ts']);
    } finally {
      ws.cleanup();
    }
  });

  it('a read with no definition, or a file without process.env, says nothing; a suppression comment works at the read', async () => {
    const ws = workspace({
      '.env': 'ROLLOUT_BASE_URL=https://taotoken.net/api/v1\n',
      'src/a.ts': 'export const url = `${process.env.OTHER_BASE_URL}/v1/chat/completions`;\n',
      'src/b.js': 'const base_url = "https://taotoken.net/api/v1";\nfetch(`${base_url}/v1/chat/completions`);\n',
      'src/c.mts': `// rollout-lint-disable-next-line base-url-duplicate-v1\n${READ}`,
      'src/d.cjs': `${READ.trimEnd()} // rollout-lint-disable-line base-url-duplicate-v1\n`,
    });
    try {
      assert.deepEqual(await findings(ws.root, ['.']), ['.env:1 [base-url-duplicate-v1]']);
    } finally {
      ws.cleanup();
    }
  });

  it('a key written in the reading code never reaches the related messages of the definition', async () => {
    const key = 'sk-proj-Zq8xK2mN4vB7cL1pR9sT3wY6';
    const ws = workspace({
      '.env': 'ROLLOUT_BASE_URL=https://taotoken.net/api/v1\n',
      'src/k.ts': `const b = process.env.ROLLOUT_BASE_URL;\nfetch(\`\${b}/v1/chat/completions/${key}\`);\n`,
    });
    try {
      for (const format of ['json', 'sarif', 'text']) {
        const { out } = await runCli(ws.root, ['.', '--format', format, '--exit-zero']);
        assert.match(out, /src\/k\.ts/);
        assert.ok(!out.includes(key.slice(8)), `${format} output holds the key`);
      }
    } finally {
      ws.cleanup();
    }
  });
});
