import assert from 'node:assert/strict';
import { promptForApiKey, resetApprovals } from '../../../client/src/connection/api-key';
import { Approvals, decideKey, storedKeyName, type BlockKey, type ConsentAnswer, type ConsentRequest, type KeyInputs } from '../../../client/src/connection/keys';
import { fakeContext, fakeHost, fakeMemento, fakeSecrets } from './fakes';

const KEY = 'sk-test-0000000000000000000000000000keys';
const OTHER = 'sk-test-1111111111111111111111111111othr';
const LOCAL = 'http://127.0.0.1:8000/v1';

/** Runs `decideKey` with a scripted consent answer; returns the decision and the questions asked. */
async function decide(input: Partial<KeyInputs> & { baseUrl: string }, answer: ConsentAnswer = 'cancel') {
  const asked: ConsentRequest[] = [];
  const decision = await decideKey({
    consumer: 'openai-sdk',
    env: {},
    secrets: fakeSecrets(),
    approvals: new Approvals(fakeMemento()),
    language: 'en',
    ask: async (request) => {
      asked.push(request);
      return answer;
    },
    ...input,
  });
  return { decision, asked };
}

const block = (value: string, baseUrl: string): BlockKey => ({ name: 'OPENAI_API_KEY', value, baseUrl, file: '.env' });

describe('Test Connection key binding (DESIGN "Security model")', () => {
  it('sends the key of the same block to its own base URL without asking', async () => {
    const { decision, asked } = await decide({ baseUrl: LOCAL, blockKey: block(KEY, LOCAL) });
    assert.equal(decision?.apiKey, KEY);
    assert.equal(decision?.source, 'file');
    assert.equal(asked.length, 0);
    assert.match(decision!.line, /^sk-…keys, 40 chars · the same block of \.env \(OPENAI_API_KEY\)$/);
  });

  it('never sends a block key to another origin without consent', async () => {
    const { decision, asked } = await decide({ baseUrl: 'http://127.0.0.1:9000/v1', blockKey: block(KEY, LOCAL) });
    assert.equal(decision, undefined, 'Cancel: nothing is decided, nothing may be sent');
    assert.equal(asked.length, 1);
    assert.equal(asked[0].origin, 'http://127.0.0.1:9000');
  });

  it('uses the key stored for this origin (Set API Key), and only for it', async () => {
    const secrets = fakeSecrets({ [storedKeyName('http://127.0.0.1:8000')]: KEY, [storedKeyName('https://taotoken.net')]: OTHER });
    const here = await decide({ baseUrl: LOCAL, secrets });
    assert.equal(here.decision?.apiKey, KEY);
    assert.equal(here.decision?.source, 'stored');
    const elsewhere = await decide({ baseUrl: 'http://127.0.0.1:9000/v1', secrets });
    assert.equal(elsewhere.decision?.apiKey, undefined);
    assert.equal(elsewhere.asked.length, 0, 'nothing to ask about: no candidate key');
  });

  it('sends X_API_KEY to X_BASE_URL of the same environment, and a provider key to its documented origin', async () => {
    const byBase = await decide({ baseUrl: LOCAL, env: { LOCAL_API_KEY: KEY, LOCAL_BASE_URL: 'http://127.0.0.1:8000/v1' } });
    assert.equal(byBase.decision?.apiKey, KEY);
    assert.equal(byBase.decision?.source, 'env:LOCAL_API_KEY');
    const byProfile = await decide({ baseUrl: 'https://taotoken.net/api/v1', env: { TAOTOKEN_API_KEY: OTHER } });
    assert.equal(byProfile.decision?.apiKey, OTHER);
    assert.equal(byProfile.asked.length, 0);
  });

  it('asks before sending OPENAI_API_KEY to a built-in provider it does not belong to', async () => {
    const { decision, asked } = await decide({ baseUrl: 'https://taotoken.net/api/v1', env: { OPENAI_API_KEY: KEY } });
    assert.equal(decision, undefined);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].origin, 'https://taotoken.net');
    assert.match(asked[0].message, /sk-…keys, 40 chars from the environment variable OPENAI_API_KEY to https:\/\/taotoken\.net/);
    assert.ok(!JSON.stringify(asked).includes(KEY), 'the question never shows the key');
  });

  it('Send once sends and is not remembered; Always is remembered per origin and key source until reset', async () => {
    const approvals = new Approvals(fakeMemento());
    const env = { OPENAI_API_KEY: KEY };
    const once = await decide({ baseUrl: LOCAL, env, approvals }, 'once');
    assert.equal(once.decision?.apiKey, KEY);
    assert.equal((await decide({ baseUrl: LOCAL, env, approvals }, 'cancel')).asked.length, 1, 'asked again after Send once');
    const always = await decide({ baseUrl: LOCAL, env, approvals }, 'always');
    assert.equal(always.decision?.apiKey, KEY);
    const later = await decide({ baseUrl: LOCAL, env, approvals }, 'cancel');
    assert.equal(later.asked.length, 0, 'approved: no question');
    assert.equal(later.decision?.apiKey, KEY);
    assert.match(later.decision!.line, /approved for this origin/);
    const otherOrigin = await decide({ baseUrl: 'http://127.0.0.1:9000/v1', env, approvals }, 'cancel');
    assert.equal(otherOrigin.asked.length, 1, 'an approval covers one origin');
    const otherSource = await decide({ baseUrl: LOCAL, env: {}, approvals, blockKey: block(OTHER, 'http://127.0.0.1:9000/v1') }, 'cancel');
    assert.equal(otherSource.asked.length, 1, 'an approval covers one key source');
    assert.equal(await approvals.reset(), 1);
    assert.equal((await decide({ baseUrl: LOCAL, env, approvals }, 'cancel')).asked.length, 1, 'asked again after reset');
  });

  it('with no key anywhere, sends none and says how to store one', async () => {
    const { decision, asked } = await decide({ baseUrl: LOCAL, env: { DEEPSEEK_API_KEY: OTHER } });
    assert.equal(asked.length, 0);
    assert.equal(decision?.apiKey, undefined);
    assert.deepEqual(decision?.note, { id: 'keyNote.none', data: { origin: 'http://127.0.0.1:8000' } });
    assert.match(decision!.line, /Set API Key/);
  });

  it('speaks Chinese for zh-cn', async () => {
    const asked: ConsentRequest[] = [];
    await decideKey({ baseUrl: LOCAL, consumer: 'openai-sdk', env: { OPENAI_API_KEY: KEY }, secrets: fakeSecrets(), approvals: new Approvals(fakeMemento()), language: 'zh-cn', ask: async (r) => (asked.push(r), 'cancel') });
    assert.match(asked[0].message, /是否将 API 密钥 sk-…keys，40 个字符（来自环境变量 OPENAI_API_KEY）发往 http:\/\/127\.0\.0\.1:8000？/);
  });
});

describe('Set API Key and Reset Connection Approvals', () => {
  it('stores a typed key under its origin (masked input), shows only the mask, and an empty key removes it', async () => {
    const host = fakeHost({ inputs: ['http://127.0.0.1:8000/v1/', ` ${KEY} `] });
    const ctx = fakeContext(host);
    assert.equal(await promptForApiKey(ctx), true);
    assert.equal(host.secrets.data.get(storedKeyName('http://127.0.0.1:8000')), KEY);
    assert.equal(host.record.inputs[1].password, true);
    assert.ok(![...ctx.logs, ...host.record.messages.map((m) => m.message)].some((t) => t.includes(KEY)));
    assert.match(host.record.messages[0].message, /sk-…keys, 40 chars for http:\/\/127\.0\.0\.1:8000/);
    const again = fakeHost({ inputs: [''] });
    again.secrets.data.set(storedKeyName('http://127.0.0.1:8000'), KEY);
    assert.equal(await promptForApiKey(fakeContext(again), 'http://127.0.0.1:8000'), false);
    assert.equal(again.secrets.data.size, 0);
  });

  it('rejects an origin that is not an http(s) URL and stores nothing', async () => {
    const host = fakeHost({ inputs: ['taotoken.net', KEY] });
    assert.equal(await promptForApiKey(fakeContext(host)), false);
    assert.equal(host.secrets.data.size, 0);
    assert.equal(host.record.inputs[0].validate?.('ftp://x'), 'Enter an absolute http:// or https:// URL');
  });

  it('Reset Connection Approvals clears the approvals in globalState', async () => {
    const host = fakeHost();
    await new Approvals(host.globalState).add('http://127.0.0.1:8000', 'env:OPENAI_API_KEY');
    assert.equal(await resetApprovals(fakeContext(host)), 1);
    assert.equal(new Approvals(host.globalState).has('http://127.0.0.1:8000', 'env:OPENAI_API_KEY'), false);
    assert.match(host.record.messages[0].message, /1 removed/);
  });
});
