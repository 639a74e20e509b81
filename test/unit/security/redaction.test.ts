import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CodeActionRequest,
  CodeLensRequest,
  HoverRequest,
  type CodeAction,
  type Diagnostic,
  type FullDocumentDiagnosticReport,
} from 'vscode-languageserver-protocol';
import fc from 'fast-check';
import { FORMATTERS } from '../../../server/src/cli/format/index';
import { runPing } from '../../../server/src/cli/ping';
import { lintDocument } from '../../../server/src/core/lint';
import { loadGrammars } from '../../../server/src/node/grammars';
import { fuzzParameters } from '../../support/fuzz';
import { redact, redactTrace } from '../../../server/src/core/redact';
import { loopbackTransport, startScriptedServer, type ScriptedServer } from '../../support/scripted-server';
import { runCli, workspace } from '../cli/helpers';
import { fileUri, TestClient } from '../lsp/harness';

/** Planted secrets: provider-shaped keys, a key without a known prefix, URL passwords and a credential query value. */
const SECRETS = {
  yamlKey: 'sk-proj-Ya7Kq2Wm9Xp4Lr8Tz3Nv6Bc1Hd5Fg0Js',
  pythonKey: 'sk-ant-api03-Pq8Zt4Mw1Ry7Ux3Vk6Sj9Hb2Gn5',
  envKey: 'sk-Ev2Rm8Kt5Wq1Zx7Cp4Ln9Bs3Hj6Fd0Ga',
  barekey: 'b7Tq3Xz9Mk2Wp6Rn1Vj8Ls4Hc5Fd0Ge',
  password1: 'PASSWORDabc123',
  password2: 'PASSWORDdef456',
  query: 'QUERYSECRET789xyz',
};

const FILES: Record<string, string> = {
  // A YAML syntax error right after a key: the yaml library's message quotes the token.
  'bad.yaml': `rollout:\n  base_url: https://u:${SECRETS.password1}@relay.example.com/v1/v1\n${SECRETS.yamlKey}\n  api_key: x\n`,
  // An unterminated Python string that holds a key.
  'client.py': `from openai import OpenAI\nc = OpenAI(base_url="https://relay.example.com/v1/v1", api_key="${SECRETS.pythonKey}\n`,
  'openclaw.json': JSON.stringify({ models: { providers: { r: { baseUrl: `https://bob:${SECRETS.password2}@relay.example.com/v1?key=${SECRETS.query}`, apiKey: SECRETS.envKey } } } }, null, 2),
  '.env': `OPENAI_BASE_URL=https://bob:${SECRETS.password2}@relay.example.com/v1/v1\nOPENAI_API_KEY= ${SECRETS.envKey}\nDEEPSEEK_API_KEY="Bearer ${SECRETS.barekey}"\nDEEPSEEK_BASE_URL=https://api.deepseek.com/v1/v1?utm_source=x\n`,
  'run.sh': `export OPENAI_BASE_URL="https://u:${SECRETS.password1}@relay.example.com/v1/"\nexport OPENAI_API_KEY="${SECRETS.envKey} "\npython train.py --api-key "${SECRETS.barekey}"\n`,
};

function leaks(channel: string, text: string): string[] {
  const found: string[] = [];
  for (const [name, secret] of Object.entries(SECRETS)) {
    // The whole secret, and any 12-character piece of it (a prefix or suffix shown is a leak too).
    for (let i = 0; i + 12 <= secret.length; i += 4) {
      if (text.includes(secret.slice(i, i + 12))) {
        found.push(`${channel}: ${name} (${secret.slice(i, i + 12)})`);
        break;
      }
    }
  }
  return found;
}

describe('redaction at every boundary (issue 13 items 4 and 5)', function () {
  this.timeout(120_000);
  let ws: { root: string; cleanup: () => void };
  before(() => {
    ws = workspace(FILES);
  });
  after(() => ws?.cleanup());

  it('redact() masks known secrets, key-shaped tokens, Bearer credentials and URL credentials, and is idempotent', () => {
    const text = `Unexpected scalar token in YAML stream: "${SECRETS.yamlKey}" at https://u:${SECRETS.password1}@h/v1?api_key=${SECRETS.query} Bearer ${SECRETS.barekey} ${SECRETS.barekey}`;
    const once = redact(text, [SECRETS.barekey]);
    assert.deepEqual(leaks('redact', once), []);
    assert.equal(redact(once, [SECRETS.barekey]), once);
    assert.match(once, /sk-proj-…6Fj|sk-proj-…/);
    assert.equal(redact('base URL "https://api.openai.com/v1/v1" repeats /v1/v1'), 'base URL "https://api.openai.com/v1/v1" repeats /v1/v1');
  });

  it('every CLI format (text, json, sarif, github) and stderr', async () => {
    const problems: string[] = [];
    for (const format of ['text', 'json', 'sarif', 'github']) {
      const r = await runCli(ws.root, ['.', '--format', format, '--include-hints']);
      assert.ok(r.out.length > 100, `${format} printed findings`);
      problems.push(...leaks(`${format} stdout`, r.out), ...leaks(`${format} stderr`, r.err));
    }
    const parse = await runCli(ws.root, ['bad.yaml', 'client.py', '--format', 'json']);
    assert.match(parse.out, /"fatal": true/);
    assert.deepEqual(problems, []);
  });

  it('LSP diagnostics, code actions, hover, code lenses, rolloutLint/endpoints and logs', async () => {
    const client = await TestClient.start({ pull: true, root: ws.root, initializationOptions: { testConnectionCommand: 'rolloutLint.testConnection' }, settings: { trace: { server: 'verbose' } } });
    const seen: string[] = [];
    try {
      for (const [name, text] of Object.entries(FILES)) {
        const uri = fileUri(join(ws.root, name));
        const languageId = name.endsWith('.py') ? 'python' : name.endsWith('.sh') ? 'shellscript' : name.endsWith('.json') ? 'json' : name.endsWith('.yaml') ? 'yaml' : 'dotenv';
        await client.open(uri, languageId, text);
        const report = (await client.pull(uri)) as FullDocumentDiagnosticReport;
        seen.push(JSON.stringify(report));
        for (const diagnostic of report.items as Diagnostic[]) {
          const actions = (await client.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic] } })) as CodeAction[];
          seen.push(JSON.stringify(actions.map((a) => ({ title: a.title, command: a.command }))));
        }
        const lines = text.split('\n');
        for (let line = 0; line < lines.length; line++) {
          for (let character = 0; character < lines[line].length; character += 7) {
            seen.push(JSON.stringify(await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } })));
          }
        }
        seen.push(JSON.stringify(await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })));
      }
      seen.push(JSON.stringify(await client.connection.sendRequest('rolloutLint/endpoints')));
      seen.push(...client.logs);
    } finally {
      await client.stop();
    }
    assert.ok(seen.some((s) => s.includes('parse-error')));
    assert.deepEqual(seen.flatMap((s, i) => leaks(`lsp #${i}`, s)), []);
  });

  it('the client trace channel (trace.server: verbose) never holds document text or keys', () => {
    const didOpen = `[Trace - 10:00:00] Sending notification 'textDocument/didOpen'.\nParams: ${JSON.stringify({ textDocument: { uri: 'file:///w/.env', languageId: 'dotenv', version: 1, text: FILES['.env'] } }, null, 4)}`;
    const result = `[Trace] Received response 'rolloutLint/endpointAt' in 3ms.\nResult: ${JSON.stringify({ baseUrl: `https://bob:${SECRETS.password2}@relay.example.com/v1`, apiKey: { key: 'OPENAI_API_KEY', value: SECRETS.envKey } })}`;
    assert.deepEqual([...leaks('didOpen', redactTrace(didOpen)), ...leaks('result', redactTrace(result))], []);
    assert.match(redactTrace(didOpen), /characters of document text not logged/);
    assert.match(readFileSync(join(__dirname, '..', '..', '..', 'client', 'src', 'extension.ts'), 'utf8'), /outputChannel: redactingChannel\(log\)/);
  });

  it('a key planted at a random place of a random document is never printed (property)', async () => {
    const grammars = await loadGrammars();
    const key = 'sk-proj-Rm3Xw8Kt1Zq6Vn4Lp9Hc2Jd7Fg5Bs0Ya';
    const templates: [string, string[]][] = [
      ['.env', ['OPENAI_API_KEY=@', 'OPENAI_BASE_URL=https://u:@@h.example.com/v1/v1', '# @', 'X="@', 'OPENAI_API_KEY= @ # c', '@']],
      ['c.yaml', ['rollout:', '  api_key: @', '  base_url: "https://h.example.com/v1/v1?key=@"', '@', '  - [@', '  b: "@', '"x": y: @']],
      ['openclaw.json', ['{"models": {"providers": {"a": {"baseUrl": "https://h.example.com/v1/v1", "apiKey": "@"', '"@"', '}}}', '{', ',@']],
      ['c.py', ['from openai import OpenAI', 'c = OpenAI(base_url="https://h.example.com/v1/v1", api_key="@")', 'x = "@', '# @', 'f(@)', "y = '''@"]],
      ['run.sh', ['export OPENAI_API_KEY=@', 'curl -H "Authorization: Bearer @" https://h.example.com/v1/v1/chat/completions', 'echo "@', 'x=$(@']],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...templates), fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '\r\n'), ([path, lines], picks, eol) => {
        const text = picks.map((p) => lines[p % lines.length].replace(/@/g, key)).join(eol) + eol;
        const outcome = lintDocument({ path, text }, { grammars });
        const results = [{ absPath: `/w/${path}`, relPath: path, format: outcome.document.format, text, findings: outcome.findings, failures: outcome.failures, secrets: outcome.secrets }];
        for (const [name, format] of Object.entries(FORMATTERS)) {
          const printed = format({ results, includeHints: true, quiet: false, color: false, root: '/w', locale: 'en' });
          assert.ok(!printed.includes(key.slice(8, 20)) && !printed.includes(key.slice(-12)), `${name} printed the key for\n${text}\n${printed}`);
        }
      }),
      fuzzParameters(150),
    );
  });

  describe('ping', () => {
    let server: ScriptedServer;
    before(async () => {
      server = await startScriptedServer([
        { method: 'GET', path: '/v1/models', status: 401, body: { error: { message: `Incorrect API key provided: ${SECRETS.envKey.slice(0, 14)}********${SECRETS.envKey.slice(-4)}. Key ${SECRETS.envKey}`, code: 'invalid_api_key' } } },
        { method: 'POST', path: '/v1/chat/completions', status: 401, body: { error: { message: `bad key ${SECRETS.envKey}` } } },
      ]);
    });
    after(async () => server?.close());

    async function ping(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
      let out = '';
      const transport = loopbackTransport();
      try {
        const code = await runPing(args, { stdout: (s) => (out += s), stderr: (s) => (out += s), env, cwd: ws.root }, transport);
        return { code, out };
      } finally {
        await transport.close();
      }
    }

    it('text, --json, usage errors and a server echoing the key back', async () => {
      const env = { OPENAI_API_KEY: SECRETS.envKey, OPENAI_BASE_URL: `http://127.0.0.1:${server.port}/v1` };
      const outputs = [
        await ping([], env),
        await ping(['--json'], env),
        await ping(['--consumer', SECRETS.envKey], env),
        await ping(['--base-url', `not a url ${SECRETS.yamlKey}`], env),
        await ping(['--base-url', `http://u:${SECRETS.password1}@127.0.0.1:${server.port}/v1?api_key=${SECRETS.query}`, '--json'], env),
      ];
      assert.ok(outputs[0].out.includes('401'), outputs[0].out);
      assert.deepEqual(outputs.flatMap((o, i) => leaks(`ping #${i}`, o.out)), []);
    });

    it('a user:pass@ base URL is a usage error that says so, not connection-refused', async () => {
      const before = server.requests.length;
      const r = await ping(['--base-url', `http://u:${SECRETS.password1}@127.0.0.1:${server.port}/v1`]);
      assert.equal(r.code, 2);
      assert.match(r.out, /carries credentials/);
      assert.doesNotMatch(r.out, /refused/);
      assert.equal(server.requests.length, before, 'nothing was sent');
      const zh = await ping(['--base-url', `http://u:${SECRETS.password1}@127.0.0.1:${server.port}/v1`, '--lang', 'zh-CN']);
      assert.match(zh.out, /凭据/);
    });
  });
});
