import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodeLensRequest, HoverRequest, type CodeLens, type Hover, type MarkupContent, type Range } from 'vscode-languageserver-protocol';
import { isolatedCopy } from '../../support/lint';
import { fileUri, FIXTURE_WORKSPACE, TestClient, textAt } from './harness';

describe('LSP hover and code lens (real server over stdio)', () => {
  let ws: ReturnType<typeof isolatedCopy>;
  before(() => (ws = isolatedCopy(FIXTURE_WORKSPACE)));
  after(() => ws.cleanup());

  async function withClient<T>(options: { locale?: string; lens?: boolean }, run: (client: TestClient) => Promise<T>): Promise<T> {
    const initializationOptions: Record<string, unknown> = { locale: options.locale ?? 'en' };
    if (options.lens) initializationOptions.testConnectionCommand = true;
    const client = await TestClient.start({ pull: true, root: ws.root, initializationOptions });
    try {
      return await run(client);
    } finally {
      await client.stop();
    }
  }

  async function hover(client: TestClient, rel: string, languageId: string, line: number, character: number): Promise<string | undefined> {
    const uri = fileUri(join(ws.root, rel));
    await client.open(uri, languageId, readFileSync(join(ws.root, rel), 'utf8'));
    const result = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } })) as Hover | null;
    await client.close(uri);
    return result ? (result.contents as MarkupContent).value : undefined;
  }

  it('shows the effective request URL per consumer and the provider on a base URL', () =>
    withClient({}, async (client) => {
      const text = await hover(client, '.env', 'dotenv', 1, 30);
      assert.ok(text);
      assert.match(text, /base URL `OPENAI_BASE_URL`/);
      assert.match(text, /Provider: TaoToken/);
      assert.match(text, /Documented OpenAI-style base: `https:\/\/taotoken\.net\/api\/v1` · log probs in chat completions: supported/);
      assert.match(text, /openai SDK .*`https:\/\/taotoken\.net\/api\/v1\/v1\/chat\/completions`/);
    }));

  it('every finding under the cursor says why, in one line', () =>
    withClient({}, async (client) => {
      const text = await hover(client, '.env', 'dotenv', 1, 30);
      assert.ok(text);
      assert.match(text, /`base-url-duplicate-v1` \(error\) · why: OPENAI_BASE_URL is read by openai-sdk/);
    }));

  it('shows one URL per client where the .env loaders and SDK joins disagree (a #fragment)', () =>
    withClient({}, async (client) => {
      writeFileSync(join(ws.root, 'fragment.env'), 'OPENAI_BASE_URL="http://127.0.0.1:9/v1#prod"\n');
      const text = await hover(client, 'fragment.env', 'dotenv', 0, 30);
      assert.ok(text);
      assert.match(text, /openai-node \(node dotenv\).*: POST `http:\/\/127\.0\.0\.1:9\/v1`/);
      assert.match(text, /openai-python 3\.x \(python-dotenv\).*: POST `http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions` \(assumed/);
    }));

  it('says plainly when the consumer is unknown', () =>
    withClient({}, async (client) => {
      const text = await hover(client, 'config/rollout.yaml', 'yaml', 5, 20);
      assert.ok(text);
      assert.match(text, /Consumer unknown/);
      assert.match(text, /not one Rollout Lint knows/);
    }));

  it('masks an API key, gives its length and the loaders that keep its whitespace, never the key', () =>
    withClient({}, async (client) => {
      const text = await hover(client, '.env', 'dotenv', 2, 25);
      assert.ok(text);
      assert.match(text, /API key `OPENAI_API_KEY`/);
      assert.match(text, /Value: `sk-…abcd` \(35 chars\)$/m);
      assert.match(text, /kept by: Node dotenv, python-dotenv/);
      assert.doesNotMatch(text, /0000000000/);
    }));

  it('shows a placeholder key as written, as the finding\'s message does (it is no secret)', () =>
    withClient({}, async (client) => {
      writeFileSync(join(ws.root, 'scripts', 'placeholder.sh'), 'export OPENAI_BASE_URL=https://taotoken.net/api/v1\nexport OPENAI_API_KEY=YOUR_API_KEY\n');
      const text = await hover(client, 'scripts/placeholder.sh', 'shellscript', 1, 25);
      assert.ok(text);
      assert.match(text, /Value: `YOUR_API_KEY` \(12 chars\)$/m);
      assert.match(text, /`api-key-placeholder`/);
      assert.match(text, /"YOUR_API_KEY"|YOUR_API_KEY/);
    }));

  it('names a finding\'s severity in the UI language (no English word in the Chinese hover)', () =>
    withClient({ locale: 'zh-cn' }, async (client) => {
      writeFileSync(join(ws.root, 'scripts', 'placeholder.sh'), 'export OPENAI_BASE_URL=https://taotoken.net/api/v1\nexport OPENAI_API_KEY=YOUR_API_KEY\n');
      const text = await hover(client, 'scripts/placeholder.sh', 'shellscript', 1, 25);
      assert.match(text ?? '', /`api-key-placeholder`（错误）· 依据：/);
      assert.doesNotMatch(text ?? '', /（(error|warning|hint)）/);
    }));

  it('on os.getenv("NAME") lists the definitions of the workspace in load order, nearest .env first (keys masked)', () =>
    withClient({}, async (client) => {
      let url = await hover(client, 'train/rollout_client.py', 'python', 5, 20);
      // the workspace env index is built in the background; until then the folder's .env files answer
      while (url && !url.includes('Definitions in load order')) {
        assert.match(url, /`\.env`: `https:\/\/taotoken\.net\/api\/v1`/);
        await new Promise((resolve) => setTimeout(resolve, 50));
        url = await hover(client, 'train/rollout_client.py', 'python', 5, 20);
      }
      assert.ok(url);
      assert.match(url, /environment variable `OPENAI_BASE_URL`/);
      assert.match(url, /\d\. `train\/\.env:1` `https:\/\/taotoken\.net\/api\/v1` · \.env/);
      assert.match(url, /1\. `scripts\/launch\.sh:2` .* · process environment/);
      const key = await hover(client, 'train/rollout_client.py', 'python', 4, 80);
      assert.ok(key);
      assert.match(key, /\d\. `train\/\.env:2` `sk-…ijkl, 34 chars`/);
      assert.match(key, /\d\. `\.env:3` `sk-…abcd, \d+ chars`/);
      assert.doesNotMatch(key, /3333333333/);
    }));

  it('speaks Chinese for locale zh-cn', () =>
    withClient({ locale: 'zh-cn' }, async (client) => {
      const text = await hover(client, 'config/rollout.yaml', 'yaml', 5, 20);
      assert.match(text ?? '', /使用方未知/);
    }));

  it('has no code lens unless the client says the test-connection command exists', () =>
    withClient({}, async (client) => {
      assert.equal(client.initializeResult.capabilities.codeLensProvider, undefined);
    }));

  it('puts a "Test connection" lens above each base URL, and rolloutLint/endpointAt resolves its argument', () =>
    withClient({ lens: true }, async (client) => {
      const uri = fileUri(join(ws.root, 'train/.env'));
      const source = readFileSync(join(ws.root, 'train/.env'), 'utf8');
      await client.open(uri, 'dotenv', source);
      const lenses = (await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) as CodeLens[];
      assert.equal(lenses.length, 1);
      assert.equal(lenses[0].range.start.line, 0);
      const arg = lenses[0].command!.arguments![0] as { uri: string; offset: number };
      assert.deepEqual({ title: lenses[0].command!.title, command: lenses[0].command!.command }, { title: 'Test connection', command: 'rolloutLint.testConnection' });
      assert.deepEqual(arg, { uri, offset: source.indexOf('https://') });
      const info = (await client.connection.sendRequest('rolloutLint/endpointAt', arg)) as Record<string, unknown>;
      assert.equal(info.baseUrl, 'https://taotoken.net/api/v1');
      assert.deepEqual(info.providers, ['taotoken']);
      assert.deepEqual(info.requests, [{ consumer: 'openai-sdk', url: 'https://taotoken.net/api/v1/chat/completions' }]);
      const apiKey = info.apiKey as { key: string; range: Range; version: number };
      assert.deepEqual(Object.keys(apiKey).sort(), ['key', 'range', 'version']);
      assert.equal(apiKey.key, 'OPENAI_API_KEY');
      assert.equal(textAt(source, apiKey.range), 'sk-test-3333333333333333333333ijkl', 'the location of the key in the editor text');
      assert.ok(!JSON.stringify(info).includes('sk-test-3333'), 'no key in the response');
    }));
});
