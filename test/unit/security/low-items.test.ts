import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodeActionRequest, type CodeAction } from 'vscode-languageserver-protocol';
import { sanitizeForTerminal } from '../../../server/src/cli/sanitize';
import { runPing } from '../../../server/src/cli/ping';
import { runCli, workspace } from '../cli/helpers';
import { applyLspEdits, fileUri, TestClient } from '../lsp/harness';
import type { TextDocumentEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';

function editsOf(edit: WorkspaceEdit | undefined, uri: string) {
  const change = edit?.documentChanges?.find((c): c is TextDocumentEdit => 'textDocument' in c && c.textDocument.uri === uri);
  assert.ok(change, `an edit for ${uri}`);
  return change.edits as { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[];
}

const KEY = 'sk-proj-Lw4Tn8Qz2Xc6Vb1Nm5Kj9Hg3Fd7Sa0Pe';

/** Issue 13 item 8, the low items, each reproduced. */
describe('low-severity items of issue 13', function () {
  this.timeout(60_000);

  it('an explicitly named FIFO is reported, not waited on, by the CLI and by ping --from', async function () {
    const ws = workspace({});
    try {
      try {
        execFileSync('mkfifo', [join(ws.root, 'pipe.env')]);
      } catch {
        this.skip();
      }
      const r = await runCli(ws.root, ['pipe.env']);
      assert.equal(r.code, 2);
      assert.match(r.err, /not a regular file/);
      let err = '';
      const code = await runPing(['--from', 'pipe.env'], { stdout: () => undefined, stderr: (s) => (err += s), env: {}, cwd: ws.root });
      assert.equal(code, 2);
      assert.match(err, /not a regular file/);
    } finally {
      ws.cleanup();
    }
  });

  it('--fix leaves git-ignored files alone unless named, and says so', async function () {
    if (spawnSync('git', ['--version']).status !== 0) this.skip();
    const bad = 'OPENAI_BASE_URL=https://api.example.com/v1/v1\n';
    const ws = workspace({ '.gitignore': 'local/\n', 'local/.env': bad, '.env': bad });
    try {
      execFileSync('git', ['init', '-q'], { cwd: ws.root });
      const r = await runCli(ws.root, ['.', '--fix']);
      assert.equal(readFileSync(join(ws.root, 'local/.env'), 'utf8'), bad);
      assert.equal(readFileSync(join(ws.root, '.env'), 'utf8'), 'OPENAI_BASE_URL=https://api.example.com/v1\n');
      assert.match(r.err, /local\/\.env: not fixed: git ignores it/);
      assert.match(r.err, /fixed \.env/);
      await runCli(ws.root, ['local/.env', '--fix']);
      assert.equal(readFileSync(join(ws.root, 'local/.env'), 'utf8'), 'OPENAI_BASE_URL=https://api.example.com/v1\n');
    } finally {
      ws.cleanup();
    }
  });

  it('terminal escape sequences in linted values and paths are not printed raw', async () => {
    const ws = workspace({ '.env': 'OPENAI_BASE_URL=api.example.com/v1\x1b]0;pwned\x07\x1b[2J\n' });
    try {
      const r = await runCli(ws.root, ['.', '--include-hints']);
      assert.ok(r.out.includes('[base-url'), r.out);
      assert.doesNotMatch(r.out + r.err, /\x1b|\x07/);
      const gh = await runCli(ws.root, ['.', '--format', 'github']);
      assert.doesNotMatch(gh.out, /\x1b|\x07/);
    } finally {
      ws.cleanup();
    }
    assert.equal(sanitizeForTerminal('a\x1b[31mred\x1b[0m\x1b]2;title\x07b\x9bc\rd\te\n'), 'aredbcd\te\n');
  });

  it('source.fixAll edits never carry an untouched key that sits between two fixes', async () => {
    const ws = workspace({});
    const client = await TestClient.start({ pull: true, root: ws.root });
    try {
      const uri = fileUri(join(ws.root, '.env'));
      const text = `OPENAI_BASE_URL=https://api.example.com/v1/v1\nOPENAI_API_KEY=${KEY}\nLLM_BASE_URL=https://api.example.com/v1?utm_source=x\n`;
      await client.open(uri, 'dotenv', text);
      await client.pull(uri);
      const actions = (await client.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [], only: ['source.fixAll'] } })) as CodeAction[];
      const edits = editsOf(actions[0].edit, uri);
      assert.equal(applyLspEdits(text, edits), `OPENAI_BASE_URL=https://api.example.com/v1\nOPENAI_API_KEY=${KEY}\nLLM_BASE_URL=https://api.example.com/v1\n`);
      assert.ok(edits.length >= 2);
      assert.ok(edits.every((e) => !e.newText.includes(KEY.slice(8, 20))), JSON.stringify(edits));
    } finally {
      await client.stop();
      ws.cleanup();
    }
  });
});
