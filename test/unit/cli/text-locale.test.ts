import assert from 'node:assert/strict';
import { join } from 'node:path';
import { main } from '../../../server/src/cli/main';

const ROOT = join(__dirname, '..', '..', '..');

describe('text output in Chinese', () => {
  it('severity words and the summary line follow --lang zh-CN', async () => {
    let out = '';
    const code = await main(['examples/openclaw-rl/.env', '--lang', 'zh-CN'], { stdout: (t) => void (out += t), stderr: () => undefined, env: {}, cwd: ROOT, isTTY: false });
    assert.equal(code, 1);
    assert.match(out, /^examples\/openclaw-rl\/\.env:3:17: 错误: base URL .*以接口路径 \/chat\/completions 结尾/m);
    assert.match(out, /^examples\/openclaw-rl\/\.env:4:16: 警告: /m);
    assert.match(out, /^examples\/openclaw-rl\/\.env:4:16: 警告: .*\[api-key-whitespace\] \[\*\]$/m);
    assert.match(out, /✖ 共 2 个问题（1 个错误，1 个警告）\n\[\*\] 1 个可用 --fix 自动修复；另有 1 个可用 --fix-unsafe 修复（可能改变含义，请检查）\n$/);
  });
});
