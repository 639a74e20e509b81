import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ConfigurationRequest, ResponseError } from 'vscode-languageserver-protocol';
import { say } from '../../../server/src/lsp/messages';
import { isolatedCopy } from '../../support/lint';
import { fileUri, FIXTURE_WORKSPACE, TestClient, until } from './harness';

/** A stack as Node prints it: kept verbatim (English) inside the translated line. */
const STACK = 'Error: boom\n    at lint (/srv/server.js:10:5)\n    at run (/srv/server.js:20:3)';

describe('LSP: error lines in Output follow the UI language, stacks kept (issue 25)', () => {
  it('every error line the server logs has a Chinese frame and keeps the error text as Node gave it', () => {
    const ids = ['log.workerFailed', 'log.ruleFailed', 'log.lintFailed', 'log.configurationFailed', 'log.grammarsFailed', 'log.envIndexFailed', 'log.scanFailed', 'log.uncaught', 'log.unhandled'] as const;
    for (const id of ids) {
      const data = { file: 'rollout/a.py', ruleId: 'logprobs-missing', scope: 'file:///w', error: STACK };
      const zh = say('zh-CN', id, data);
      const en = say('en', id, data);
      assert.ok(zh.endsWith(STACK) && en.endsWith(STACK), `${id}: the stack is kept whole`);
      const frame = zh.slice(0, -STACK.length);
      assert.match(frame, /[\u4e00-\u9fff]/, `${id}: the frame is Chinese: ${frame}`);
      // outside ids, paths and protocol names (workspace/configuration, wasm, Promise) no English word is left
      const words = frame.replace(/rollout\/a\.py|logprobs-missing|file:\/\/\/w|workspace\/configuration|wasm|Promise|lint/g, '').match(/[A-Za-z]{3,}/g);
      assert.equal(words, null, `${id}: English words in the Chinese frame: ${frame}`);
    }
  });

  it('a failed workspace/configuration request is logged in Chinese in a zh-cn session', async () => {
    const ws = isolatedCopy(FIXTURE_WORKSPACE);
    const client = await TestClient.start({ pull: true, root: ws.root, initializationOptions: { locale: 'zh-cn' } });
    try {
      client.connection.onRequest(ConfigurationRequest.type, () => {
        throw new ResponseError(-32603, 'client went away');
      });
      const uri = fileUri(join(ws.root, 'scratch.env'));
      await client.open(uri, 'dotenv', 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\n');
      await client.pull(uri);
      const line = await until(async () => client.logs.find((l) => l.includes('client went away')));
      assert.match(line, /^读取 file:\/\/\S+ 的设置（workspace\/configuration）失败：client went away$/);
    } finally {
      await client.stop();
      ws.cleanup();
    }
  });
});
