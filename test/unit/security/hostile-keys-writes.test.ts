import assert from 'node:assert/strict';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodeActionRequest, ExecuteCommandRequest, type CodeAction, type FullDocumentDiagnosticReport, type TextDocumentEdit, type WorkspaceEdit } from 'vscode-languageserver-protocol';
import { evidenceSecretSpans, redact } from '../../../server/src/core/redact';
import { writeRefusal } from '../../../server/src/node/write-guard';
import { runCli, workspace } from '../cli/helpers';
import { applyLspEdits, fileUri, TestClient } from '../lsp/harness';

/** Fake, low-entropy prefix-less keys (Azure-style 32 hex, Mistral/Together-style). */
const HEX = '0123456789abcdef0123456789abcdef';
const PLAIN = 'AbCdEfGh0123456789AbCdEfGh012345';

function editsOf(edit: WorkspaceEdit | undefined, uri: string) {
  const change = edit?.documentChanges?.find((c): c is TextDocumentEdit => 'textDocument' in c && c.textDocument.uri === uri);
  assert.ok(change, `an edit for ${uri}`);
  return change.edits as { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[];
}

/** Issue 29 items 4, 5, 6: masking by evidence, writes stay in the work tree, ping uses the effective definition. */
describe('hostile keys and writes', function () {
  this.timeout(20_000);

  it('evidence, not prefix: key-named values, fallback literals, getenv defaults, "Bearer " + literal', () => {
    const lines = [
      `AZURE_OPENAI_API_KEY=${HEX}`,
      `  api_key: "${HEX}"`,
      `const c = new OpenAI({ apiKey: process.env.MISTRAL_API_KEY ?? "${PLAIN}" });`,
      `key = os.getenv("TOGETHER_API_KEY", "${PLAIN}")`,
      `key = os.environ.get("TOGETHER_API_KEY") or "${PLAIN}"`,
      `headers = {"Authorization": "Bearer " + "${HEX}"}`,
      `vllm serve m --api-key ${PLAIN}`,
    ];
    for (const line of lines) {
      const spans = evidenceSecretSpans(line);
      assert.equal(spans.length >= 1, true, line);
      const masked = redact(line);
      assert.ok(!masked.includes(HEX.slice(4, 28)) && !masked.includes(PLAIN.slice(4, 28)), masked);
    }
    for (const ok of ['api_key: os.environ["OPENAI_API_KEY"]', 'OPENAI_API_KEY=YOUR_API_KEY', 'apiKey: process.env.OPENAI_API_KEY', 'api_key_env: OPENAI_API_KEY', 'the api_key contains whitespace']) {
      assert.deepEqual(evidenceSecretSpans(ok), [], ok);
    }
  });

  it('prefix-less keys on lines that do not parse are masked in the text report; --diff masks keys on context lines', async () => {
    const ws = workspace({
      'b.yaml': `llm: {base_url: https://x.example/v1/v1, api_key: ${HEX}\n`,
      'c.py': `import requests\nr = requests.post("https://x.example/v1/v1/chat/completions", headers={"Authorization": "Bearer " + "${HEX}"})\n`,
      '.env': `OPENAI_BASE_URL=https://x.example/v1/v1\nAZURE_OPENAI_API_KEY=${HEX}\nMISTRAL_API_KEY=${PLAIN}\n`,
    });
    try {
      for (const args of [['.', '--include-hints'], ['--diff', '.'], ['.', '--format', 'json'], ['.', '--format', 'sarif'], ['.', '--format', 'github'], ['endpoints', '.']]) {
        const r = await runCli(ws.root, args);
        for (const key of [HEX, PLAIN]) assert.ok(!`${r.out}${r.err}`.includes(key.slice(6, 26)), `${args.join(' ')} printed a key:\n${r.out}`);
      }
      const diff = await runCli(ws.root, ['--diff', '.']);
      assert.match(diff.out, /^ AZURE_OPENAI_API_KEY=…cdef, 32 chars$/m);
      assert.match(diff.out, /^\+OPENAI_BASE_URL=https:\/\/x\.example\/v1$/m);
    } finally {
      ws.cleanup();
    }
  });

  it('--fix does not write through a symlink whose target is outside the work tree, and says so', async () => {
    const outside = workspace({ 'victim.env': 'OPENAI_BASE_URL=https://x.example/v1/v1\n' });
    const ws = workspace({ '.git/HEAD': 'ref: refs/heads/main\n', 'inside.env': 'OPENAI_BASE_URL=https://x.example/v1/v1\n' });
    try {
      symlinkSync(join(outside.root, 'victim.env'), join(ws.root, '.env'));
      symlinkSync(join(ws.root, 'inside.env'), join(ws.root, 'in-tree.env'));
      assert.match(writeRefusal(join(ws.root, '.env')) ?? '', /outside its work tree/);
      assert.equal(writeRefusal(join(ws.root, 'in-tree.env')), undefined);
      assert.equal(writeRefusal(join(ws.root, 'inside.env')), undefined);
      const r = await runCli(ws.root, ['--fix', '.env', 'in-tree.env']);
      assert.match(r.err, /\.env: not fixed: a symbolic link to a file outside its work tree; not written/);
      assert.equal(readFileSync(join(outside.root, 'victim.env'), 'utf8'), 'OPENAI_BASE_URL=https://x.example/v1/v1\n');
      assert.equal(readFileSync(join(ws.root, 'inside.env'), 'utf8'), 'OPENAI_BASE_URL=https://x.example/v1\n', 'a link inside the work tree is fixed');
    } finally {
      ws.cleanup();
      outside.cleanup();
    }
  });

  it('editor: JSON5 fix-all edits never span the key; endpointAt masks URL credentials; fix-all refuses a symlink out of the tree', async () => {
    const outside = workspace({ 'victim.env': 'OPENAI_BASE_URL=https://x.example/v1/v1\n' });
    const ws = workspace({ '.git/HEAD': 'ref: refs/heads/main\n' });
    symlinkSync(join(outside.root, 'victim.env'), join(ws.root, '.env'));
    const client = await TestClient.start({ pull: true, root: ws.root, disabledSupport: true });
    try {
      const uri = fileUri(join(ws.root, 'x.json5'));
      const text = `{ baseUrl: 'https://api.example.com/v1/v1', apiKey: '${HEX} ' }\n`;
      writeFileSync(join(ws.root, 'x.json5'), text);
      await client.open(uri, 'json5', text);
      await client.pull(uri);
      const actions = (await client.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [], only: ['source.fixAll'] } })) as CodeAction[];
      const edits = editsOf(actions[0]?.edit, uri);
      assert.equal(applyLspEdits(text, edits), `{ baseUrl: 'https://api.example.com/v1', apiKey: '${HEX}' }\n`);
      assert.ok(edits.every((e) => !e.newText.includes(HEX.slice(8, 20))), JSON.stringify(edits));
      assert.ok(edits.every((e) => e.range.end.character - e.range.start.character < 10), JSON.stringify(edits));

      const cred = fileUri(join(ws.root, 'cred.env'));
      await client.open(cred, 'dotenv', `OPENAI_BASE_URL=https://user:${PLAIN}@api.example.com/v1?api_key=${HEX}\n`);
      await client.pull(cred);
      const info = (await client.connection.sendRequest('rolloutLint/endpointAt', { uri: cred, offset: 20 })) as { baseUrl: string; requests: { url: string }[] };
      assert.equal(info.baseUrl, 'https://user:****@api.example.com/v1?api_key=****');
      assert.ok(!JSON.stringify(info).includes(PLAIN.slice(4, 20)) && !JSON.stringify(info).includes(HEX.slice(4, 20)), JSON.stringify(info));

      const link = fileUri(join(ws.root, '.env'));
      await client.open(link, 'dotenv', 'OPENAI_BASE_URL=https://x.example/v1/v1\n');
      const { items } = (await client.pull(link)) as FullDocumentDiagnosticReport;
      assert.ok(items.some((d) => d.code === 'base-url-duplicate-v1'));
      // the single quick fix and the line disable are shown disabled, with the reason; nothing edits the link
      const quick = (await client.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri: link }, range: items[0].range, context: { diagnostics: items } })) as CodeAction[];
      assert.ok(quick.every((a) => a.edit === undefined), JSON.stringify(quick));
      const fix = quick.find((a) => a.title === 'Remove the repeated /v1');
      assert.match(fix?.disabled?.reason ?? '', /^\.env is a symbolic link to a file outside its work tree/);
      assert.ok(quick.some((a) => a.title.startsWith('Disable ') && a.disabled !== undefined));
      const result = (await client.connection.sendRequest(ExecuteCommandRequest.type, { command: 'rolloutLint.server.fixAll', arguments: [{ uri: link }] })) as { fixed: number; notFixed?: string };
      assert.equal(result.fixed, 0);
      assert.match(result.notFixed ?? '', /outside its work tree/);
      const linkActions = (await client.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri: link }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [], only: ['source.fixAll'] } })) as CodeAction[];
      assert.deepEqual(linkActions, []);
    } finally {
      await client.stop();
      ws.cleanup();
      outside.cleanup();
    }
  });

  it('ping --from probes the last of duplicate definitions (as every loader) and says which line', async () => {
    const ws = workspace({ '.env': 'OPENAI_BASE_URL=http://127.0.0.1:9/p1\nOPENAI_API_KEY=sk-abcdefABCDEF0123456789xyzQ\nOPENAI_BASE_URL=http://127.0.0.1:9/p2\n' });
    try {
      const r = await runCli(ws.root, ['ping', '--from', '.env', '--timeout', '2000']);
      assert.match(r.err, /base URL from \.env:3 \(the last of 2 definitions of OPENAI_BASE_URL; loaders use the last\)/);
      assert.match(r.out, /127\.0\.0\.1:9\/p2/);
      assert.doesNotMatch(r.out, /\/p1/);
    } finally {
      ws.cleanup();
    }
  });
});
