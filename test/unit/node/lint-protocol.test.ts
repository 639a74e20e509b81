import assert from 'node:assert/strict';
import { join } from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import { postReply, type MainCall } from '../../../server/src/node/lint-protocol';

/**
 * Runs `test/support/call-sync-worker.ts` making one synchronous call per timeout, and answers each
 * call on this thread through `postReply` after `busyMs(call)` of blocking work (the server's main
 * thread busy with something else; `undefined`: never answered). Resolves with what each call returned in the worker.
 */
function run(timeouts: number[], busyMs: (call: MainCall) => number | undefined): Promise<unknown[]> {
  const flag = new SharedArrayBuffer(4);
  const view = new Int32Array(flag);
  const channel = new MessageChannel();
  const worker = new Worker(join(__dirname, '..', '..', 'support', 'call-sync-worker.ts'), { workerData: { flag, port: channel.port2, timeouts }, transferList: [channel.port2], execArgv: ['--require', 'tsx/cjs'] });
  channel.port1.on('message', (call: MainCall) => {
    const busy = busyMs(call);
    if (busy === undefined) return; // never answered
    const until = Date.now() + busy;
    while (Date.now() < until) {
      // blocked, as the main thread is while it answers an earlier request
    }
    postReply(channel.port1, view, call, `answer to ${call.args[0]}`);
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (answers: unknown[]) => {
      channel.port1.close();
      void worker.terminate();
      resolve(answers);
    });
    worker.once('error', reject);
  });
}

describe('lint worker synchronous calls (callSync / postReply)', function () {
  this.timeout(60_000);

  it('each call gets its own answer', async () => {
    assert.deepEqual(await run([10_000, 10_000, 10_000], () => 0), [{ result: 'answer to file1' }, { result: 'answer to file2' }, { result: 'answer to file3' }]);
  });

  it('a reply that arrives after its call timed out is dropped, not taken for the next call', async () => {
    // Call 1 times out after 200 ms; its answer comes at ~1 s, just before call 2's: call 2 must get its own.
    const answers = await run([200, 10_000], (call) => (call.call === 1 ? 1000 : 0));
    assert.deepEqual(answers, ['timed out', { result: 'answer to file2' }]);
  });

  it('a call whose answer never comes times out, and the next call is answered', async () => {
    assert.deepEqual(await run([300, 10_000], (call) => (call.call === 1 ? undefined : 0)), ['timed out', { result: 'answer to file2' }]);
  });
});
