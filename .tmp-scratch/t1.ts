import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedCopy } from '/work/main/test/support/lint';
import { fileUri, FIXTURE_WORKSPACE, TestClient } from '/work/main/test/unit/lsp/harness';
(async () => {
  const ws = isolatedCopy(FIXTURE_WORKSPACE);
  const t0 = Date.now();
  const client = await TestClient.start({ pull: false, root: ws.root, noConfiguration: true, initializationOptions: { locale: 'zh-cn', rolloutLint: { rules: { 'api-key-whitespace': 'off' } } } });
  console.log('started', Date.now() - t0);
  const uri = fileUri(join(ws.root, '.env'));
  await client.open(uri, 'dotenv', readFileSync(join(ws.root, '.env'), 'utf8'));
  const p = await client.waitForPublish(uri, (p) => p.version === 1);
  console.log('published', Date.now() - t0, client.published.map(p => [p.uri.slice(-20), p.version]));
  console.log(client.logs);
  const t1=Date.now(); await client.stop(); console.log('stop took', Date.now()-t1); ws.cleanup();
  console.log('stopped', Date.now() - t0);
})();
