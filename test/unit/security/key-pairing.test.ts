import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runPing } from '../../../server/src/cli/ping';
import { lintDocument } from '../../../server/src/core/lint';
import { pairedKey } from '../../../server/src/core/model/pairing';
import { BUILTIN_PROVIDERS } from '../../../server/src/core/providers/profiles';
import { loadGrammars } from '../../../server/src/node/grammars';
import type { Grammars } from '../../../server/src/core/formats/treesitter';
import { loopbackTransport } from '../../support/scripted-server';
import type { Range } from 'vscode-languageserver-protocol';
import { fileUri, TestClient, textAt } from '../lsp/harness';
import { pingFromFileFixture } from '../probe/helpers';

const ANTHROPIC = 'sk-ant-api03-Q7vT2mXk9LpR4sWn8ZcY1bHd6FjG3aEo';
const OPENAI = 'sk-proj-Z9cY1bHd6FjG3aEoUiKt5yNq0Q7vT2mXk9LpR4s';

describe('a key is paired with the base URL of its own provider (issue 13 item 2)', function () {
  this.timeout(60_000);
  let grammars: Grammars;
  before(async () => {
    grammars = await loadGrammars();
  });

  function paired(path: string, text: string, baseKey: string): string | undefined {
    const outcome = lintDocument({ path, text }, { grammars });
    const base = outcome.resolution.baseUrls.find((b) => b.setting.key === baseKey)!.setting;
    return pairedKey(base, outcome.resolution.settings, BUILTIN_PROVIDERS)?.key;
  }

  it('pairs env variables by family, never by order', () => {
    const env = `ANTHROPIC_API_KEY=${ANTHROPIC}\nOPENAI_BASE_URL=https://api.openai.com/v1\nOPENAI_API_KEY=${OPENAI}\nANTHROPIC_BASE_URL=https://api.anthropic.com\n`;
    assert.equal(paired('.env', env, 'OPENAI_BASE_URL'), 'OPENAI_API_KEY');
    assert.equal(paired('.env', env, 'ANTHROPIC_BASE_URL'), 'ANTHROPIC_API_KEY');
    assert.equal(paired('.env', `ANTHROPIC_AUTH_TOKEN=${ANTHROPIC}\nANTHROPIC_BASE_URL=https://api.anthropic.com\n`, 'ANTHROPIC_BASE_URL'), 'ANTHROPIC_AUTH_TOKEN');
    assert.equal(paired('run.sh', `export ANTHROPIC_API_KEY=${ANTHROPIC}\nexport OPENAI_BASE_URL=https://api.openai.com/v1\n`, 'OPENAI_BASE_URL'), undefined);
    assert.equal(paired('.env', `ANTHROPIC_API_KEY=${ANTHROPIC}\nOPENAI_BASE_URL=https://api.openai.com/v1\n`, 'OPENAI_BASE_URL'), undefined);
  });

  it('pairs within one call, provider entry or mapping', () => {
    assert.equal(paired('c.py', `from openai import OpenAI\nc = OpenAI(base_url="https://api.openai.com/v1", api_key="${OPENAI}")\n`, 'base_url'), 'api_key');
    const openclaw = JSON.stringify({ models: { providers: { a: { baseUrl: 'https://a.example.com/v1', apiKey: OPENAI, api: 'openai-completions' }, b: { baseUrl: 'https://b.example.com/v1', api: 'openai-completions' } } } });
    assert.equal(paired('openclaw.json', openclaw, 'baseUrl'), 'apiKey');
    const outcome = lintDocument({ path: 'openclaw.json', text: openclaw }, { grammars });
    const second = outcome.resolution.baseUrls[1].setting;
    assert.equal(pairedKey(second, outcome.resolution.settings, BUILTIN_PROVIDERS), undefined, 'provider b has no key of its own');
  });

  describe('end to end', () => {
    const fx = pingFromFileFixture('rollout-lint-pairing-');

    async function ping(file: string): Promise<string[]> {
      const before = fx.server.requests.length;
      const transport = loopbackTransport();
      try {
        await runPing(['--from', file, '--json', '--model', 'policy'], { stdout: () => undefined, stderr: () => undefined, env: {}, cwd: fx.dir }, transport);
      } finally {
        await transport.close();
      }
      return fx.server.requests.slice(before).map((r) => String(r.headers.authorization ?? r.headers['x-api-key'] ?? ''));
    }

    it('ping --from never sends the Anthropic key above OPENAI_BASE_URL to the OpenAI base', async () => {
      const file = join(fx.dir, '.env');
      writeFileSync(file, `ANTHROPIC_API_KEY=${ANTHROPIC}\nOPENAI_BASE_URL=http://127.0.0.1:${fx.server.port}/v1\n`);
      const sent = await ping(file);
      assert.ok(sent.length > 0, 'the probe ran');
      assert.ok(sent.every((h) => !h.includes(ANTHROPIC)), `sent ${sent.join(', ')}`);
      writeFileSync(file, `ANTHROPIC_API_KEY=${ANTHROPIC}\nOPENAI_BASE_URL=http://127.0.0.1:${fx.server.port}/v1\nOPENAI_API_KEY=${OPENAI}\n`);
      const paired = await ping(file);
      assert.ok(paired.some((h) => h === `Bearer ${OPENAI}`) && paired.every((h) => !h.includes(ANTHROPIC)), `sent ${paired.join(', ')}`);
    });

    it('rolloutLint/endpointAt never returns a key, only where the paired one is written (issue 13 item 8)', async () => {
      const client = await TestClient.start({ pull: true, root: fx.dir, initializationOptions: { workspaceTrusted: true } });
      try {
        const cases: [string, string, string, string][] = [
          ['y.env', 'dotenv', `\uFEFFANTHROPIC_API_KEY=${ANTHROPIC}\r\nOPENAI_BASE_URL=https://api.openai.com/v1\r\nOPENAI_API_KEY="${OPENAI}"  # 中文注释\r\n`, 'https://'],
          ['c.py', 'python', `from openai import OpenAI\nc = OpenAI(base_url="https://api.openai.com/v1", api_key='${OPENAI}')\n`, 'https://'],
          ['openclaw.json', 'json', JSON.stringify({ models: { providers: { a: { baseUrl: 'https://a.example.com/v1', apiKey: OPENAI, api: 'openai-completions' } } } }, null, 2), 'https://'],
        ];
        for (const [name, languageId, text, at] of cases) {
          const uri = fileUri(join(fx.dir, name));
          await client.open(uri, languageId, text, 3);
          const info = (await client.connection.sendRequest('rolloutLint/endpointAt', { uri, offset: text.indexOf(at) })) as { apiKey?: { key: string; range: Range; version: number } } | null;
          assert.ok(info?.apiKey, name);
          const json = JSON.stringify(info);
          for (const secret of [OPENAI, ANTHROPIC]) for (let i = 0; i + 12 <= secret.length; i += 6) assert.ok(!json.includes(secret.slice(i, i + 12)), `${name}: no piece of a key in ${json}`);
          assert.equal(textAt(text, info.apiKey.range), OPENAI, `${name}: the range holds the paired key in the client's text`);
          assert.equal(info.apiKey.version, 3);
        }
        const escaped = fileUri(join(fx.dir, 'escaped', 'openclaw.json'));
        const text = `{"models":{"providers":{"a":{"baseUrl":"https://a.example.com/v1","apiKey":"sk-\\u0070roj-${OPENAI.slice(8)}","api":"openai-completions"}}}}`;
        await client.open(escaped, 'json', text);
        const info = (await client.connection.sendRequest('rolloutLint/endpointAt', { uri: escaped, offset: text.indexOf('https://') })) as { apiKey?: unknown } | null;
        assert.ok(info);
        assert.equal(info.apiKey, undefined, 'a key whose characters are not verbatim has no location');
      } finally {
        await client.stop();
      }
    });

    it('rolloutLint/endpointAt gives the key of the same family only', async () => {
      const client = await TestClient.start({ pull: true, root: fx.dir, initializationOptions: { workspaceTrusted: false } });
      try {
        const uri = fileUri(join(fx.dir, 'x.env'));
        const text = `ANTHROPIC_API_KEY=${ANTHROPIC}\nOPENAI_BASE_URL=https://api.openai.com/v1\n`;
        await client.open(uri, 'dotenv', text);
        const info = (await client.connection.sendRequest('rolloutLint/endpointAt', { uri, offset: text.indexOf('https://') })) as { apiKey?: unknown } | null;
        assert.ok(info);
        assert.equal(info.apiKey, undefined);
      } finally {
        await client.stop();
      }
    });
  });
});
