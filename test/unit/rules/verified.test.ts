import assert from 'node:assert/strict';
import { lintDocument } from '../../../server/src/core/lint';
import { applyEdits } from '../../../server/src/core/fix';
import type { VerifiedEndpoint } from '../../../server/src/core/model/verified';
import { findVerified } from '../../../server/src/core/model/verified';
import { loadGrammars } from '../../../server/src/node/grammars';

const TEXT = '# 中文注释\nOPENAI_BASE_URL=https://taotoken.net/api\n';
const PROOF: VerifiedEndpoint = {
  baseUrl: 'https://taotoken.net/api',
  consumer: 'openai-sdk',
  workingBaseUrl: 'https://taotoken.net/api/v1',
  url: 'https://taotoken.net/api/v1/chat/completions',
  at: Date.UTC(2025, 0, 1, 12, 34),
};

async function missingV1(verified?: VerifiedEndpoint[], text = TEXT, locale: 'en' | 'zh-CN' = 'en') {
  return lintDocument({ path: '.env', text }, { grammars: await loadGrammars(), onlyRules: ['base-url-missing-v1'], verified, locale }).findings;
}

describe('base-url-missing-v1 and verified probe results (LintOptions.verified)', () => {
  it('without a probe result, TaoToken …/api under the openai SDK is a hint', async () => {
    const [finding] = await missingV1();
    assert.deepEqual([finding.messageId, finding.severity], ['profile', 'hint']);
  });

  it('a verified other base turns the hint into a warning whose fix is the proven base', async () => {
    const [finding] = await missingV1([PROOF]);
    assert.deepEqual([finding.messageId, finding.severity], ['verified', 'warning']);
    const start = TEXT.indexOf('https://');
    assert.deepEqual(finding.range, { start, end: start + 'https://taotoken.net/api'.length }, 'range after Chinese text stays right');
    assert.equal(finding.message, 'base URL "https://taotoken.net/api": OPENAI_BASE_URL (openai SDK) calls https://taotoken.net/api/chat/completions, which did not answer as an API in the connection test, while https://taotoken.net/api/v1/chat/completions did; use https://taotoken.net/api/v1');
    assert.deepEqual(finding.fixes.map((f) => [f.title, f.safety, applyEdits(TEXT, f.edits)]), [['Use the verified base https://taotoken.net/api/v1', 'unsafe', '# 中文注释\nOPENAI_BASE_URL=https://taotoken.net/api/v1\n']]);
    const [zh] = await missingV1([PROOF], TEXT, 'zh-CN');
    assert.match(zh.message, /测试连接时它没有作为 API 应答/);
  });

  it('a probe that found the configured base working drops the finding', async () => {
    assert.deepEqual(await missingV1([{ ...PROOF, workingBaseUrl: 'https://taotoken.net/api/' }]), []);
  });

  it('a result for another base URL or consumer changes nothing; a newer result wins', async () => {
    const [other] = await missingV1([{ ...PROOF, baseUrl: 'https://taotoken.net/api/v2' }, { ...PROOF, consumer: 'anthropic' }]);
    assert.deepEqual([other.messageId, other.severity], ['profile', 'hint']);
    const newest = findVerified([PROOF, { ...PROOF, workingBaseUrl: PROOF.baseUrl, at: PROOF.at + 1 }], 'HTTPS://TaoToken.net/api/', 'openai-sdk');
    assert.equal(newest?.at, PROOF.at + 1);
  });

  it('a bare host with a verified base gets the proven fix instead of the /v1 guess', async () => {
    const text = 'OPENAI_BASE_URL=http://127.0.0.1:9999\n';
    const [guess] = await missingV1(undefined, text);
    assert.equal(guess.messageId, 'bare');
    const [proven] = await missingV1([{ ...PROOF, baseUrl: 'http://127.0.0.1:9999', workingBaseUrl: 'http://127.0.0.1:9999/api/v1', url: 'http://127.0.0.1:9999/api/v1/chat/completions' }], text);
    assert.deepEqual([proven.messageId, applyEdits(text, proven.fixes[0].edits)], ['verified', 'OPENAI_BASE_URL=http://127.0.0.1:9999/api/v1\n']);
  });
});
