import { isolatedCopy } from '/work/main/test/support/lint';
import { FIXTURE_WORKSPACE, TestClient } from '/work/main/test/unit/lsp/harness';
import { ShutdownRequest, ExitNotification } from 'vscode-languageserver-protocol';
(async () => {
  const ws = isolatedCopy(FIXTURE_WORKSPACE);
  const client = await TestClient.start({ pull: false, root: ws.root });
  const t0 = Date.now();
  await client.connection.sendRequest(ShutdownRequest.type);
  console.log('shutdown', Date.now() - t0);
  await client.connection.sendNotification(ExitNotification.type);
  console.log('exit sent', Date.now() - t0);
  await new Promise(r => client.process.on('exit', r));
  console.log('exited', Date.now() - t0);
  ws.cleanup();
})();
