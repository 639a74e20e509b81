import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli/main';
import { RULES } from '../../../server/src/core/rules/index';

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

  it('the notes on stderr (fixed, baseline, --max-warnings) follow --lang zh-CN too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rl-zh-notes-'));
    const run = async (args: string[]) => {
      let err = '';
      const code = await main([...args, '--lang', 'zh-CN'], { stdout: () => undefined, stderr: (t) => void (err += t), env: {}, cwd: dir, isTTY: false });
      return { code, err };
    };
    try {
      writeFileSync(join(dir, 'a.env'), 'OPENAI_BASE_URL=http://0.0.0.0:8000/v1\nOPENAI_API_KEY= sk-test\n');
      const over = await run(['a.env', '--max-warnings', '0']);
      assert.equal(over.code, 1);
      assert.match(over.err, /^rollout-lint: 发现 \d+ 个警告，超过了 --max-warnings 0 的上限\n$/);
      const wrote = await run(['a.env', '--baseline', 'bl.json', '--update-baseline']);
      assert.match(wrote.err, /^rollout-lint: 已将 \d+ 个问题写入基线 bl\.json\n$/);
      const fixed = await run(['a.env', '--fix']);
      assert.match(fixed.err, /^rollout-lint: 已修复 a\.env$/m);
      assert.equal(readFileSync(join(dir, 'a.env'), 'utf8').includes('= sk'), false);
      const stale = await run(['a.env', '--baseline', 'bl.json']);
      assert.match(stale.err, /^rollout-lint: 基线中有 1 个条目不再匹配任何问题/);
      const pruned = await run(['a.env', '--baseline', 'bl.json', '--prune-baseline']);
      assert.match(pruned.err, /^rollout-lint: 已从基线 bl\.json 中删除 1 个/);
      for (const e of [over.err, wrote.err, fixed.err, stale.err, pruned.err]) assert.doesNotMatch(e, /\b(fixed|wrote|removed|warnings? found|baseline entr)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('error notes on stderr (no such file, invalid configuration, not fixed through a symlink, ping input) follow --lang zh-CN', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rl-zh-errors-'));
    const outside = mkdtempSync(join(tmpdir(), 'rl-zh-outside-'));
    const run = async (args: string[], cwd = dir) => {
      let err = '';
      const code = await main([...args, '--lang', 'zh-CN'], { stdout: () => undefined, stderr: (t) => void (err += t), env: {}, cwd, isTTY: false });
      return { code, err };
    };
    try {
      mkdirSync(join(dir, '.git'));
      const missing = await run(['nope.env']);
      assert.equal(missing.code, 2);
      assert.equal(missing.err, 'rollout-lint: nope.env：没有这个文件或文件夹\n');
      writeFileSync(join(dir, '.rolloutlintrc.json'), '{"rules": {"no-such-rule": "error"}}');
      const config = await run(['.']);
      assert.equal(config.code, 2);
      assert.match(config.err, /^rollout-lint: 配置无效\n/);
      rmSync(join(dir, '.rolloutlintrc.json'));
      writeFileSync(join(outside, 'victim.env'), 'OPENAI_API_KEY= sk-test\n');
      symlinkSync(join(outside, 'victim.env'), join(dir, '.env'));
      const refused = await run(['.env', '--fix']);
      assert.match(refused.err, /^rollout-lint: \.env：未修复：这是指向工作区外文件的符号链接，未写入$/m);
      assert.equal(readFileSync(join(outside, 'victim.env'), 'utf8'), 'OPENAI_API_KEY= sk-test\n');
      const ping = await run(['ping', '--base-url', 'localhost:8000/v1']);
      assert.equal(ping.code, 2);
      assert.match(ping.err, /^rollout-lint ping: 不是完整的 http\(s\) URL/);
      for (const e of [missing.err, config.err, refused.err]) assert.doesNotMatch(e, /no such file|invalid configuration|not fixed|symbolic link/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('explain --lang zh-CN says first, in Chinese, what the rule catches and that the page is English', async () => {
    let out = '';
    let err = '';
    const io = { stdout: (t: string) => void (out += t), stderr: (t: string) => void (err += t), env: {}, cwd: ROOT, isTTY: false };
    assert.equal(await main(['explain', 'base-url-duplicate-v1', '--lang', 'zh-CN'], io), 0);
    assert.match(out, /^base-url-duplicate-v1：base URL 导致版本段重复.*\n（规则文档目前只有英文版，以下为英文原文。）\n\n# /);
    assert.equal(await main(['--lang', 'zh', 'explain', 'base-url-dup'], io), 2);
    assert.match(err, /未知的规则 id "base-url-dup"；是否想找 base-url-duplicate-v1/);
    out = '';
    assert.equal(await main(['explain', 'base-url-duplicate-v1'], io), 0);
    assert.match(out, /^# /, 'English: the page alone');
  });

  it('rules --lang zh-CN gives every rule its Chinese summary (from package.nls.zh-cn.json); --json too', async () => {
    const run = async (args: string[]) => {
      let out = '';
      const code = await main(args, { stdout: (t) => void (out += t), stderr: () => undefined, env: {}, cwd: ROOT, isTTY: false });
      return { code, out };
    };
    const zh = await run(['rules', '--lang', 'zh-CN']);
    assert.equal(zh.code, 0);
    assert.match(zh.out, /^base-url-duplicate-v1 +error +safe +all +base URL 导致版本段重复，例如 \/v1\/v1$/m);
    assert.match(zh.out, /\n文档: /);
    const rows = JSON.parse((await run(['rules', '--json', '--lang', 'zh'])).out) as { id: string; summary: string }[];
    assert.equal(rows.length, RULES.length);
    for (const r of rows) assert.match(r.summary, /[\u4e00-\u9fff]/, `${r.id} has a Chinese summary`);
    for (const r of rows) assert.doesNotMatch(r.summary, /（默认：|\[文档\]/, r.id);
    const en = JSON.parse((await run(['rules', '--json', '--lang', 'en'])).out) as { id: string; summary: string }[];
    assert.equal(en[0].summary, RULES[0].meta.title);
  });
});
