import assert from 'node:assert/strict';
import { chooseProbeKey } from '../../../server/src/core/probe/keys';
import { renderProbeMessage } from '../../../server/src/core/probe/messages';

const OPENAI_KEY = 'sk-test-OAI0000000000000000000000000a1';
const TAO_KEY = 'sk-test-TAO0000000000000000000000000b2';

function rendered(note: Parameters<typeof renderProbeMessage>[0]): string {
  return renderProbeMessage(note, 'en') + renderProbeMessage(note, 'zh-CN');
}

describe('probe keys: which key may go to which origin (DESIGN "Security model")', () => {
  it('X_API_KEY goes to X_BASE_URL of the same environment', () => {
    const choice = chooseProbeKey({ baseUrl: 'http://localhost:11434/v1', env: { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: 'http://localhost:11434/v1' } });
    assert.equal(choice.apiKey, OPENAI_KEY);
    assert.equal(choice.note.id, 'keyNote.envBase');
  });

  it("X_API_KEY goes to X's documented origin from the profiles", () => {
    assert.equal(chooseProbeKey({ baseUrl: 'https://api.openai.com/v1', env: { OPENAI_API_KEY: OPENAI_KEY } }).apiKey, OPENAI_KEY);
    const tao = chooseProbeKey({ baseUrl: 'https://taotoken.net/api/v1', env: { TAOTOKEN_API_KEY: TAO_KEY, OPENAI_API_KEY: OPENAI_KEY } });
    assert.deepEqual([tao.apiKey, tao.source, tao.note.id], [TAO_KEY, 'TAOTOKEN_API_KEY', 'keyNote.envProfile']);
  });

  it('an OpenAI key is not sent to TaoToken (or anywhere else) without --api-key-env', () => {
    const choice = chooseProbeKey({ baseUrl: 'https://taotoken.net/api/v1', env: { OPENAI_API_KEY: OPENAI_KEY } });
    assert.equal(choice.apiKey, undefined);
    assert.equal(choice.note.id, 'keyNote.notBound');
    assert.match(renderProbeMessage(choice.note, 'en'), /--api-key-env OPENAI_API_KEY/);
  });

  it('origins match exactly: scheme, host and port; no subdomains, no look-alikes', () => {
    const env = { OPENAI_API_KEY: OPENAI_KEY };
    for (const url of ['http://api.openai.com/v1', 'https://api.openai.com:8443/v1', 'https://api.openai.com.evil.example/v1', 'https://evil.example/api.openai.com/v1', 'https://x.api.openai.com/v1']) {
      assert.equal(chooseProbeKey({ baseUrl: url, env }).apiKey, undefined, url);
    }
    assert.equal(chooseProbeKey({ baseUrl: 'https://API.OPENAI.COM:443/v1/', env }).apiKey, OPENAI_KEY);
  });

  it('a key bound by X_BASE_URL wins over one bound by a profile', () => {
    const env = { OPENAI_API_KEY: OPENAI_KEY, MYGW_API_KEY: TAO_KEY, MYGW_BASE_URL: 'https://api.openai.com/v1' };
    assert.equal(chooseProbeKey({ baseUrl: 'https://api.openai.com/v1', env }).source, 'MYGW_API_KEY');
  });

  it('ANTHROPIC_AUTH_TOKEN pairs with ANTHROPIC_BASE_URL', () => {
    const env = { ANTHROPIC_AUTH_TOKEN: TAO_KEY, ANTHROPIC_BASE_URL: 'http://localhost:8000/api/v1' };
    assert.equal(chooseProbeKey({ baseUrl: 'http://localhost:8000/api', env }).apiKey, TAO_KEY);
  });

  it('--api-key-env is the user choice for this run: any origin; an unset name is a usage error', () => {
    const choice = chooseProbeKey({ baseUrl: 'https://taotoken.net/api/v1', env: { OPENAI_API_KEY: OPENAI_KEY }, apiKeyEnv: 'OPENAI_API_KEY' });
    assert.deepEqual([choice.apiKey, choice.note.id], [OPENAI_KEY, 'keyNote.explicit']);
    const missing = chooseProbeKey({ baseUrl: 'https://taotoken.net/api/v1', env: {}, apiKeyEnv: 'NOPE_KEY' });
    assert.deepEqual([missing.apiKey, missing.usageError], [undefined, true]);
  });

  it('a key from a file goes only to the base URL of its own block', () => {
    const fileKey = { value: TAO_KEY, baseUrl: 'https://router.example.com/api/v1/' };
    assert.equal(chooseProbeKey({ baseUrl: 'https://router.example.com/api/v1//chat/completions', env: {}, fileKey }).apiKey, TAO_KEY);
    const other = chooseProbeKey({ baseUrl: 'https://other.example.com/v1', env: {}, fileKey });
    assert.deepEqual([other.apiKey, other.note.id], [undefined, 'keyNote.fileOtherOrigin']);
  });

  it('no key anywhere: says so; empty values do not count', () => {
    const choice = chooseProbeKey({ baseUrl: 'https://taotoken.net/api/v1', env: { OPENAI_API_KEY: '' } });
    assert.deepEqual([choice.apiKey, choice.note.id], [undefined, 'keyNote.none']);
  });

  it('notes never carry a full key', () => {
    const notes = [
      chooseProbeKey({ baseUrl: 'https://api.openai.com/v1', env: { OPENAI_API_KEY: OPENAI_KEY } }).note,
      chooseProbeKey({ baseUrl: 'https://taotoken.net/api/v1', env: { OPENAI_API_KEY: OPENAI_KEY } }).note,
      chooseProbeKey({ baseUrl: 'https://h/v1', env: { OPENAI_API_KEY: OPENAI_KEY }, apiKeyEnv: 'OPENAI_API_KEY' }).note,
      chooseProbeKey({ baseUrl: 'https://h/v1', env: {}, fileKey: { value: OPENAI_KEY, baseUrl: 'https://h/v1' } }).note,
    ];
    for (const note of notes) assert.doesNotMatch(rendered(note), /OAI0000/);
  });
});
