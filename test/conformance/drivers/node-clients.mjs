// Drives the real Node clients (run on Node 24 from test/conformance/run.mjs; the clients come from
// test/conformance/clients/package-lock.json). Input: a JSON file of jobs
// `{id, client, dotenv?, envName?, baseURL?, call?}`; each job makes one call (openai: `call` = chat (default),
// completions, responses, embeddings, models; the others: chat) and ignores the answer:
// the recording server keeps what was sent. A `.env` text is parsed with the real `dotenv.parse()`,
// and its value reaches the SDK through `process.env`, the way `dotenv.config()` hands it over.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(process.env.CONFORMANCE_CLIENTS + '/');
const dotenv = require('dotenv');
const { default: OpenAI } = await import(require.resolve('openai'));
const { default: Anthropic } = await import(require.resolve('@anthropic-ai/sdk'));
const { ChatOpenAI } = await import(require.resolve('@langchain/openai'));

const jobs = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
for (const job of jobs) {
  const saved = { ...process.env };
  try {
    if (job.dotenv !== undefined) {
      const parsed = dotenv.parse(job.dotenv);
      if (parsed[job.envName] !== undefined) process.env[job.envName] = parsed[job.envName];
    }
    const baseURL = job.baseURL;
    if (job.client === 'openai') {
      const client = new OpenAI({ apiKey: 'sk-conformance-fake', maxRetries: 0, timeout: 5000, ...(baseURL !== undefined ? { baseURL } : {}) });
      const call = job.call ?? 'chat';
      if (call === 'chat') await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      else if (call === 'completions') await client.completions.create({ model: 'm', prompt: 'hi', logprobs: 5, max_tokens: 1 });
      else if (call === 'responses') await client.responses.create({ model: 'm', input: 'hi' });
      else if (call === 'embeddings') await client.embeddings.create({ model: 'm', input: 'hi' });
      else if (call === 'models') await client.models.list();
      else throw new Error(`unknown call ${call}`);
    } else if (job.client === 'anthropic') {
      const client = new Anthropic({ apiKey: 'sk-ant-conformance-fake', maxRetries: 0, timeout: 5000, ...(baseURL !== undefined ? { baseURL } : {}) });
      await client.messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] });
    } else if (job.client === 'langchain') {
      const chat = new ChatOpenAI({ model: 'm', apiKey: 'sk-conformance-fake', maxRetries: 0, timeout: 5000, ...(baseURL !== undefined ? { configuration: { baseURL } } : {}) });
      await chat.invoke('hi');
    } else {
      throw new Error(`unknown client ${job.client}`);
    }
  } catch (error) {
    if (process.env.CONFORMANCE_DEBUG) console.error(job.id, String(error).slice(0, 200));
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}
