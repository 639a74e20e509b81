import assert from 'node:assert/strict';
import { lintDocument } from '../../../server/src/core/lint';
import { DEFAULT_CONFIG } from '../../../server/src/core/config/config';
import { loadGrammars } from '../../../server/src/node/grammars';
import type { Grammars } from '../../../server/src/core/formats/treesitter';
import { endpointRows } from '../../../server/src/core/workspace/endpoints';

const BASE = 'base_url="http://127.0.0.1:30000/v1", api_key="EMPTY"';

/**
 * langchain-openai request sites (issue 30): `ChatOpenAI(logprobs=True)` and `.bind(logprobs=True, …)` carry
 * log probs into every request, as langchain-openai 1.6.6 sends them (test/conformance records the bodies).
 */
describe('python: langchain-openai ChatOpenAI and .bind request sites', () => {
  let grammars: Grammars;
  before(async () => {
    grammars = await loadGrammars();
  });
  const lint = (text: string) => lintDocument({ path: 'rollout_policy.py', text: `from langchain_openai import ChatOpenAI\n\n${text}\n` }, { grammars, config: DEFAULT_CONFIG });
  /** `callee: logprobs=…, top_logprobs=…` of each site. */
  const sites = (text: string) =>
    lint(text).extraction.requestSites.map((s) => `${s.callee}: ${['logprobs', 'top_logprobs'].filter((k) => s.params[k]).map((k) => `${k}=${s.params[k].value}`).join(', ')}`);

  it('a constructor naming a log-prob parameter is a chat site; model_kwargs entries count', () => {
    assert.deepEqual(sites(`llm = ChatOpenAI(model="m", ${BASE}, logprobs=True, top_logprobs=3)`), ['ChatOpenAI: logprobs=true, top_logprobs=3']);
    assert.deepEqual(sites(`llm = ChatOpenAI(model="m", ${BASE}, model_kwargs={"logprobs": True})`), ['ChatOpenAI: logprobs=true']);
    assert.deepEqual(sites(`llm = ChatOpenAI(model="m", ${BASE})`), [], 'no log-prob parameter: no site (the requests may get them elsewhere)');
  });

  it('a bind of a constructor in the file carries both, the bind winning; the constructor is no site of its own', () => {
    assert.deepEqual(sites(`llm = ChatOpenAI(model="m", ${BASE}, top_logprobs=4)\npolicy = llm.bind(logprobs=True)`), ['llm.bind: logprobs=true, top_logprobs=4']);
    assert.deepEqual(sites(`policy = ChatOpenAI(model="m", ${BASE}, logprobs=True).bind(logprobs=False)`), ['ChatOpenAI(model="m",base_url="http://127.0.0.1:30000/v1",api_key="EMPTY",logprobs=True).bind: logprobs=false']);
  });

  it('a bind of a model not in sight is a site only when it sets logprobs; a coerced constructor value is unknown', () => {
    assert.deepEqual(sites('policy = model.bind(top_logprobs=3)'), []);
    assert.deepEqual(sites('policy = model.bind(logprobs=True)'), ['model.bind: logprobs=true']);
    // pydantic turns "true" into True: the request has logprobs, the text does not say so as a boolean.
    assert.deepEqual(sites(`llm = ChatOpenAI(model="m", ${BASE}, logprobs="true")`), []);
  });

  it('findings: top_logprobs without logprobs is sent as such (error); the row of each model shows its own log probs', () => {
    const outcome = lint(`policy = ChatOpenAI(model="m", ${BASE}, logprobs=True)\nscorer = ChatOpenAI(model="m", base_url="http://127.0.0.1:30001/v1", api_key="EMPTY", top_logprobs=2)`);
    assert.deepEqual(outcome.findings.filter((f) => f.severity !== 'hint').map((f) => `${f.ruleId} ${f.severity}`), ['top-logprobs-without-logprobs error']);
    const rows = endpointRows(outcome).map((r) => `${r.baseUrl} ${r.logprobs} ${r.findings.map((f) => f.ruleId).join(',')}`);
    assert.deepEqual(rows, ['http://127.0.0.1:30000/v1 requested ', 'http://127.0.0.1:30001/v1 missing top-logprobs-without-logprobs']);
  });
});
