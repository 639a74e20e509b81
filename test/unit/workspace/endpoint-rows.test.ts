import assert from 'node:assert/strict';
import { lintDocument } from '../../../server/src/core/lint';
import { endpointRows } from '../../../server/src/core/workspace/endpoints';
import { loadGrammars } from '../../../server/src/node/grammars';

/** The rows of one file, each as `key: worst severity or "clean"` (what the view's icon shows). */
async function rowsOf(path: string, text: string) {
  const outcome = lintDocument({ path, text }, { grammars: await loadGrammars() });
  return endpointRows(outcome).map((r) => ({ key: r.key, rules: r.findings.map((f) => `${f.ruleId} ${f.severity}`).sort() }));
}

describe('endpointRows agree with the findings', () => {
  it('a base URL whose paired key is a placeholder is not clean (scripts/launch.sh of the e2e workspace)', async () => {
    const rows = await rowsOf('scripts/launch.sh', 'export OPENAI_BASE_URL=https://taotoken.net/api/v1/\nexport OPENAI_API_KEY=YOUR_API_KEY\n');
    assert.deepEqual(rows.map((r) => r.rules.filter((x) => x.startsWith('api-key'))), [['api-key-placeholder error']]);
  });

  it('a clean base URL and key give a clean row; a placeholder key in another block does not count', async () => {
    const rows = await rowsOf('agent.py', 'from openai import OpenAI\na = OpenAI(base_url="https://taotoken.net/api/v1", api_key="sk-live-Zq8Xw3Lm9Pv2Rt6Yb1Nc4Hd7Kf0Js5Ag")\nb = OpenAI(base_url="https://api.openai.com/v1", api_key="YOUR_API_KEY")\n');
    assert.ok(rows.some((r) => r.key === 'base_url' && r.rules.length === 0), JSON.stringify(rows));
    assert.equal(rows.filter((r) => r.rules.some((x) => x.startsWith('api-key-placeholder'))).length, 1);
  });

  it('log-prob findings of the file\'s requests count for its rows (the "logprobs: missing" line)', async () => {
    const rows = await rowsOf('rollout/worker.py', 'from openai import OpenAI\nclient = OpenAI(base_url="https://taotoken.net/api/v1")\nr = client.chat.completions.create(model="m", messages=[])\n');
    assert.deepEqual(rows[0].rules, ['logprobs-missing warning']);
  });
});
