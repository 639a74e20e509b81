import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const SERVER = join(ROOT, 'server', 'dist', 'server.js');

/** The Lua block under "**Neovim 0.7–0.10**" in the README, exactly as a user copies it. */
function readmeSnippet(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('**Neovim 0.7–0.10**');
  assert.ok(at >= 0, 'the README has the Neovim 0.7–0.10 snippet');
  const m = /```lua\n([\s\S]*?)```/.exec(readme.slice(at));
  return m![1];
}

function neovimVersion(): string | undefined {
  const r = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? /NVIM v(\S+)/.exec(r.stdout)?.[1] : undefined;
}

/** Runs after start-up (`-c`, once filetype detection is on): opens the file, waits for diagnostics, runs "Show documentation", writes what it saw as JSON. */
const HARNESS = `
local out, target = os.getenv('RL_OUT'), os.getenv('RL_FILE')
vim.cmd('edit ' .. vim.fn.fnameescape(target))
local buf = vim.api.nvim_get_current_buf()
local ok = vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 100)
local report = { filetype = vim.bo[buf].filetype, waited = ok, diagnostics = {} }
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(report.diagnostics, { code = d.code, severity = d.severity, lnum = d.lnum, col = d.col, source = d.source })
end
local clients = vim.lsp.buf_get_clients(buf)
local client = clients[next(clients)]
if client then
  report.client = client.name
  local t0 = vim.loop.hrtime()
  local res = client.request_sync('workspace/executeCommand', { command = 'rolloutLint.server.showDocumentation', arguments = { 'base-url-duplicate-v1' } }, 10000, buf)
  report.show_docs_answered = res ~= nil and res.err == nil
  report.show_docs_ms = (vim.loop.hrtime() - t0) / 1e6
end
local f = io.open(out, 'w')
f:write(vim.fn.json_encode(report))
f:close()
vim.cmd('qa!')
`;

describe('Neovim (README snippet, headless)', function () {
  this.timeout(120_000);
  let work: string;

  before(function () {
    const version = neovimVersion();
    if (!version) {
      console.log('      skipped: nvim is not installed (Debian: apt-get install neovim)');
      this.skip();
    }
    work = mkdtempSync(join(tmpdir(), 'rollout-lint-nvim-'));
  });
  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('attaches to .env.local, shows the findings, applies init_options settings, and Show documentation does not block', () => {
    const bin = join(work, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'rollout-lint-server'), `#!/bin/sh\nexec "${process.execPath}" "${SERVER}" "$@"\n`);
    chmodSync(join(bin, 'rollout-lint-server'), 0o755);
    const project = join(work, 'project');
    execFileSync('git', ['init', '-q', project]);
    // env-legacy-name would warn on OPENAI_API_BASE; the snippet's settings turn it off.
    writeFileSync(join(project, '.env.local'), 'OPENAI_API_BASE=https://api.openai.com/v1\nANTHROPIC_BASE_URL=https://api.anthropic.com/v1/v1\n');
    writeFileSync(join(work, 'init.lua'), readmeSnippet());
    writeFileSync(join(work, 'harness.lua'), HARNESS);
    const out = join(work, 'report.json');
    const r = spawnSync('nvim', ['--headless', '-n', '-i', 'NONE', '-u', join(work, 'init.lua'), '-c', `luafile ${join(work, 'harness.lua')}`], {
      cwd: project,
      encoding: 'utf8',
      timeout: 90_000,
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: work, XDG_CONFIG_HOME: join(work, 'config'), XDG_DATA_HOME: join(work, 'data'), XDG_STATE_HOME: join(work, 'state'), RL_OUT: out, RL_FILE: join(project, '.env.local') },
    });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(report.filetype, 'sh', 'vim.filetype.add maps .env.local');
    assert.equal(report.client, 'rollout_lint');
    assert.ok(report.waited, 'diagnostics arrived');
    assert.deepEqual(report.diagnostics.map((d: { code: string; severity: number; lnum: number }) => [d.code, d.severity, d.lnum]), [['base-url-duplicate-v1', 1, 1]]);
    assert.equal(report.diagnostics[0].source, 'rollout-lint');
    assert.equal(report.show_docs_answered, true);
  });
});
