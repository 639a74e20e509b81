import assert from 'node:assert/strict';
import { providerForProbe } from '../../../server/src/core/probe/provider';
import { urlVariants } from '../../../server/src/core/probe/url';
import { CHAT_WITH_LOGPROBS, CHAT_WITHOUT_LOGPROBS, MODELS, paths, probeScripted } from './helpers';

describe('probe: provider profiles', () => {
  it('providerForProbe: documented bases on the target origin, concrete for placeholders', () => {
    const dash = providerForProbe('https://dashscope.aliyuncs.com', 'openai-sdk');
    assert.equal(dash?.id, 'dashscope');
    assert.deepEqual(dash?.documented, ['https://dashscope.aliyuncs.com/compatible-mode/v1'], 'the intl base is another origin and never tried');
    const azure = providerForProbe('https://my-res.openai.azure.com', 'openai-sdk');
    assert.deepEqual([azure?.id, azure?.documented], ['azure-openai', ['https://my-res.openai.azure.com/openai/v1']]);
    assert.equal(providerForProbe('https://taotoken.net/api/v1', 'openai-sdk')?.documented.length, 0, 'the documented base itself is no correction');
    assert.equal(providerForProbe('https://taotoken.net/api/v1', 'anthropic')?.documented[0], 'https://taotoken.net/api');
    assert.equal(providerForProbe('http://10.0.0.5:30000', 'openai-sdk')?.name, 'local SGLang / OpenClaw-RL proxy');
    assert.equal(providerForProbe('http://10.0.0.5:30000', 'openai-sdk')?.documented[0], 'http://10.0.0.5:30000/v1');
    assert.equal(providerForProbe('https://platform.openai.com/docs', 'openai-sdk')?.websiteApiBase, 'https://api.openai.com/v1');
    assert.equal(providerForProbe('https://api.example.com/v1', 'openai-sdk'), undefined);
  });

  it('urlVariants tries the documented base before guessing /v1', () => {
    const variants = urlVariants('https://open.bigmodel.cn', 'openai-sdk', 'https://open.bigmodel.cn/chat/completions', 3, ['https://open.bigmodel.cn/api/paas/v4']);
    assert.deepEqual(variants.map((v) => `${v.reason} ${v.baseUrl}`), ['documented https://open.bigmodel.cn/api/paas/v4', 'add-v1 https://open.bigmodel.cn/v1']);
  });

  it('404 on a bare DashScope host: did you mean the documented base (verified), verdict names the provider', async () => {
    const { report, server } = await probeScripted(
      [
        { method: 'POST', path: '/chat/completions', status: 404, body: { error: { message: 'not found' } } },
        { method: 'POST', path: '/compatible-mode/v1/chat/completions', status: 200, body: CHAT_WITH_LOGPROBS },
      ],
      { baseUrl: 'http://dashscope.aliyuncs.com', model: 'qwen-plus' },
    );
    assert.equal(report.verdict, 'not-found');
    assert.equal(report.provider?.id, 'dashscope');
    assert.ok(report.fix?.verified && report.fix.baseUrl.endsWith('/compatible-mode/v1'), JSON.stringify(report.fix));
    assert.match(report.fix!.reason.en, /Alibaba Cloud DashScope documents/);
    assert.match(report.explanation.en, /Provider: Alibaba Cloud DashScope/);
    assert.match(report.explanation.en, /Did you mean http:\/\/dashscope\.aliyuncs\.com:\d+\/compatible-mode\/v1\?/);
    assert.match(report.explanation['zh-CN'], /服务商：阿里云 DashScope/);
    assert.ok(paths(server).includes('POST /compatible-mode/v1/chat/completions'));
  });

  it('model-not-found on Groq links the models list', async () => {
    const { report } = await probeScripted(
      [
        { method: 'GET', path: '/openai/v1/models', status: 200, body: MODELS('llama-3.3-70b-versatile') },
        { method: 'POST', path: '/openai/v1/chat/completions', status: 404, body: { error: { message: 'The model `llama-70b` does not exist', code: 'model_not_found' } } },
      ],
      { baseUrl: 'http://api.groq.com/openai/v1', model: 'llama-70b' },
    );
    assert.equal(report.verdict, 'model-not-found');
    assert.match(report.explanation.en, /Groq lists its models at http:\/\/api\.groq\.com:\d+\/openai\/v1\/models/);
  });

  it('no-logprobs from a provider documented as returning none says so', async () => {
    const { report } = await probeScripted([{ method: 'POST', path: '/v1/chat/completions', status: 200, body: CHAT_WITHOUT_LOGPROBS }], { baseUrl: 'http://api.anthropic.com/v1', model: 'claude' });
    assert.equal(report.verdict, 'no-logprobs');
    assert.match(report.explanation.en, /Anthropic documents that chat completions return no log probs \(https:\/\/platform\.claude\.com/);
  });

  it("a provider's website answering HTML names the API base", async () => {
    const { report } = await probeScripted(
      [{ method: 'POST', path: '/docs/overview/chat/completions', status: 200, content_type: 'text/html', body: '<!doctype html><html><body>docs</body></html>' }],
      { baseUrl: 'http://platform.openai.com/docs/overview', model: 'gpt' },
    );
    assert.equal(report.verdict, 'html-not-api');
    assert.match(report.explanation.en, /This is OpenAI's website, not its API; OpenAI documents the API base https:\/\/api\.openai\.com\/v1/);
  });
});
