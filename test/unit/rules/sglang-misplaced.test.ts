import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintDocument } from '../../../server/src/core/lint';
import { loadGrammars } from '../../../server/src/node/grammars';

describe('logprobs-missing: SGLang logprobs placed inside sampling_params', () => {
  it('names the wrong placement and adds return_logprob at the top level', async () => {
    const text = readFileSync(join(__dirname, '..', '..', 'fixtures', 'logprobs-missing', 'bad', 'sglang-misplaced', 'rollout_client.py'), 'utf8');
    const [finding] = lintDocument({ path: 'rollout_client.py', text }, { grammars: await loadGrammars(), onlyRules: ['logprobs-missing'] }).findings;
    assert.equal(finding.messageId, 'misplaced');
    assert.match(finding.message, /inside sampling_params/);
    assert.deepEqual(finding.fixes[0].edits.map((e) => e.text), [', "return_logprob": True']);
  });
});
