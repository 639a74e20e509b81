/**
 * A worker thread for `test/unit/node/lint-protocol.test.ts`: makes the synchronous calls the lint
 * worker makes (`callSync`), with the timeouts it is given, and posts what each call returned.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { callSync } from '../../server/src/node/lint-protocol';

const { flag, port, timeouts } = workerData as { flag: SharedArrayBuffer; port: MessagePort; timeouts: number[] };
const view = new Int32Array(flag);
const answers = timeouts.map((timeoutMs, i) => callSync(port, view, { call: i + 1, job: 1, method: 'gitState', args: [`file${i + 1}`] }, timeoutMs) ?? 'timed out');
parentPort!.postMessage(answers);
