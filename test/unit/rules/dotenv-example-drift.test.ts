import assert from 'node:assert/strict';
import { lintDocument } from '../../../server/src/core/lint';
import { NO_FACTS, type WorkspaceFacts } from '../../../server/src/core/model/facts';
import { loadGrammars } from '../../../server/src/node/grammars';

/** `dotenv-example-drift` against every answer `WorkspaceFacts.envFile` can give, on this thread and from the lint worker. */
describe('dotenv-example-drift: sibling answers', () => {
  const lint = async (path: string, envFile: (path: string, file: string) => unknown) => {
    const facts = { ...NO_FACTS, envFile } as WorkspaceFacts;
    const outcome = lintDocument({ path, text: 'OPENAI_BASE_URL=https://api.openai.com/v1\n' }, { grammars: await loadGrammars(), facts });
    return { failures: outcome.failures.map((f) => f.ruleId), drift: outcome.findings.filter((f) => f.ruleId === 'dotenv-example-drift').map((f) => f.data.key) };
  };

  it('a template the worker answers with null, or that lies outside the work tree, is nothing to compare', async () => {
    for (const answer of [null, 'outsideWorkTree', undefined]) {
      assert.deepEqual(await lint('.env', () => answer), { failures: [], drift: [] }, String(answer));
      assert.deepEqual(await lint('.env.example', () => answer), { failures: [], drift: [] }, String(answer));
    }
  });

  it('asks for the template once and compares its keys', async () => {
    let calls = 0;
    const result = await lint('.env', (_path, file) => (file === '.env.example' ? (calls++, { OPENAI_BASE_URL: '', OPENAI_API_KEY: '' }) : undefined));
    assert.deepEqual(result, { failures: [], drift: ['OPENAI_API_KEY'] });
    assert.equal(calls, 1);
  });
});
