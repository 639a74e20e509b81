import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileChangeType, type MarkupContent, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { TestClient, fileUri } from './harness';

/** The key a drift message starts with. */
const firstWord = (message: string | MarkupContent): string => /^(\S+)/.exec(typeof message === 'string' ? message : message.value)![1];

/**
 * `dotenv-example-drift` in the editor follows the template as it is now: a saved change to
 * `.env.example` (a file-watch event) and an unsaved edit of an open template both reach the
 * hints of `.env`, without a server restart.
 */
describe('dotenv-example-drift in the language server follows its template', function () {
  this.timeout(30_000);
  let dir: string;
  let client: TestClient;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rl-drift-'));
    writeFileSync(join(dir, '.env'), 'A=1\n');
    writeFileSync(join(dir, '.env.example'), 'A=\nB=\n');
    client = await TestClient.start({ pull: true, root: dir });
  });
  afterEach(async () => {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const driftKeys = async (uri: string): Promise<string[]> => {
    const report = await client.pull(uri);
    assert.equal(report.kind, 'full');
    return report.items
      .filter((d) => d.code === 'dotenv-example-drift')
      .map((d) => firstWord(d.message))
      .sort();
  };

  it('a saved template change (file-watch event) changes the hints of the open .env', async () => {
    const env = fileUri(join(dir, '.env'));
    await client.open(env, 'dotenv', 'A=1\n');
    assert.deepEqual(await driftKeys(env), ['B']);
    writeFileSync(join(dir, '.env.example'), 'A=\nB=\nC=\n');
    await client.watched([{ uri: fileUri(join(dir, '.env.example')), type: FileChangeType.Changed }]);
    assert.deepEqual(await driftKeys(env), ['B', 'C']);
  });

  it('an unsaved edit of the open template counts, as the editor shows it', async () => {
    const env = fileUri(join(dir, '.env'));
    const example = fileUri(join(dir, '.env.example'));
    await client.open(env, 'dotenv', 'A=1\n');
    await client.open(example, 'dotenv', 'A=\nB=\n');
    assert.deepEqual(await driftKeys(env), ['B']);
    await client.replace(example, 2, 'A=\nD=\n');
    assert.deepEqual(await driftKeys(env), ['D']);
    assert.deepEqual(await driftKeys(example), []);
    await client.close(example); // the disk has A and B again
    assert.deepEqual(await driftKeys(env), ['B']);
  });
});

describe('dotenv-example-drift with pushed diagnostics follows an unsaved template', function () {
  this.timeout(30_000);
  it('the open .env is published again when its open template changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rl-drift-push-'));
    writeFileSync(join(dir, '.env'), 'A=1\n');
    writeFileSync(join(dir, '.env.example'), 'A=\nB=\n');
    const client = await TestClient.start({ pull: false, root: dir });
    try {
      const env = fileUri(join(dir, '.env'));
      const example = fileUri(join(dir, '.env.example'));
      const keys = (p: PublishDiagnosticsParams) => p.diagnostics.filter((d) => d.code === 'dotenv-example-drift').map((d) => firstWord(d.message)).sort().join(',');
      await client.open(env, 'dotenv', 'A=1\n');
      await client.waitForPublish(env, (p) => keys(p) === 'B');
      await client.open(example, 'dotenv', 'A=\nB=\n');
      const since = client.published.length;
      await client.replace(example, 2, 'A=\nE=\n');
      const p = await client.waitForPublish(env, (q) => keys(q) !== 'B', since);
      assert.equal(keys(p), 'E');
    } finally {
      await client.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
