import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli/main';

const KEY = 'sk-test-QA9f8e7d6c5b4a39281706f5e4d3c2b1a0';

/** Every 8-character window of the key: none may appear in any output. */
function leaks(output: string): string[] {
  const windows: string[] = [];
  for (let i = 3; i + 8 <= KEY.length - 4; i++) if (output.includes(KEY.slice(i, i + 8))) windows.push(KEY.slice(i, i + 8));
  return windows;
}

describe('no API key in CLI output', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rollout-lint-secrets-'));
    writeFileSync(
      join(dir, '.env'),
      [
        `OPENAI_API_KEY=${KEY} `,
        `OPENAI_BASE_URL=https://user:${KEY}@taotoken.net/api/v1/v1`,
        `GEMINI_BASE_URL=https://gen.example.com/v1?key=${KEY}&utm_source=x`,
        `X_API_KEY="'${KEY}'"`,
        `ANTHROPIC_API_KEY="Bearer ${KEY}"`,
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'client.py'), `from openai import OpenAI\nclient = OpenAI(base_url="http://127.0.0.1:8000/v1/chat/completions", api_key=" ${KEY}")\n`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const format of ['text', 'json', 'sarif', 'github']) {
    for (const lang of ['en', 'zh-CN']) {
      it(`--format ${format} --lang ${lang}`, async () => {
        let out = '';
        const code = await main(['.', '--format', format, '--lang', lang, '--include-hints'], { stdout: (t) => void (out += t), stderr: (t) => void (out += t), env: {}, cwd: dir, isTTY: false });
        assert.equal(code, 1);
        assert.ok(out.length > 200, 'findings were printed');
        assert.deepEqual(leaks(out), []);
      });
    }
  }
});
