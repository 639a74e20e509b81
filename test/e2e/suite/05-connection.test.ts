import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type ConsentAnswer, type ConsentRequest, type RolloutLintTestHooks, runLensCommand, testHooks } from './hooks';
import { type Scenario, startScriptedServer } from './scripted-server';
import { codeOf, contributedCommands, eventually, extension, findDiagnostic, ours, rangeInText, skipBecause, waitForDiagnostics, writeFile } from './support';

const COMMAND = 'rolloutLint.testConnection';
const RESET = 'rolloutLint.resetConnectionApprovals';
/** A name that never resolves (RFC 6761 `.test`), mapped to 127.0.0.1 by the test hook. */
const TEST_HOST = 'rollout-lint-e2e.test';
const FILE_KEY = 'sk-test-e2e-0000000000000000000000000file';
const ENV_KEY = 'sk-test-e2e-00000000000000000000000000env';

describe('Test TaoToken Connection', function () {
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  const savedKey = process.env.OPENAI_API_KEY;

  before(async function () {
    if (!contributedCommands().includes(COMMAND)) {
      skipBecause(this, `${COMMAND} is not in package.json contributes.commands yet (built by the Test Connection issue)`);
    }
    await extension().activate();
    assert.ok((await vscode.commands.getCommands(true)).includes(COMMAND), `${COMMAND} is contributed but not registered`);
    server = await startScriptedServer();
  });

  after(async () => {
    if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = savedKey;
    if (!server) return;
    await server.close();
    const hooks = (extension().exports as { testHooks?: RolloutLintTestHooks } | undefined)?.testHooks;
    hooks?.setHostOverrides({});
    hooks?.setConsentHandler(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /** A `.env` with base URL and key in one block: the key may go to that base without asking. */
  async function probeScenario(scenario: Scenario) {
    const uri = await writeFile(`scratch/connection/${scenario}/.env`, `OPENAI_BASE_URL=http://127.0.0.1:${server.port}/${scenario}/v1\nOPENAI_API_KEY=${FILE_KEY}\n`);
    const before = server.seen.length;
    const report = await runLensCommand(uri, 0, COMMAND);
    assert.ok(report, 'the command resolves to the probe report');
    assert.equal(JSON.stringify(report).includes(FILE_KEY), false, 'the report never carries the full key');
    return { report, requests: server.seen.slice(before) };
  }

  const cases: [Scenario, string, (r: NonNullable<Awaited<ReturnType<typeof probeScenario>>['report']>) => void][] = [
    ['ok', 'ok', (r) => assert.equal(r.logprobsShape, 'chat')],
    ['unauthorized', 'unauthorized', () => {}],
    ['no-logprobs', 'no-logprobs', (r) => assert.match(r.explanation.en, /log ?prob/i)],
    ['paused', 'paused', (r) => assert.match(r.explanation.en, /paus/i)],
  ];
  for (const [scenario, verdict, extra] of cases) {
    it(`reports "${verdict}" for a server that answers ${scenario}`, async () => {
      const { report, requests } = await probeScenario(scenario);
      assert.equal(report.verdict, verdict, `verdict; explanation: ${report.explanation?.en}`);
      assert.equal(report.key.sent, true, 'the key from the same .env block is sent without asking');
      assert.ok(requests.length > 0, 'the scripted server was called');
      assert.ok(requests.every((r) => r.authorization === `Bearer ${FILE_KEY}`), 'every request carries the key as a bearer token');
      extra(report);
    });
  }

  it('after a connection test lists /models, a model the server does not list gets the did-you-mean (issue 26)', async () => {
    const text = `OPENAI_BASE_URL=http://127.0.0.1:${server.port}/models/v1\nOPENAI_API_KEY=${FILE_KEY}\nOPENAI_MODEL=qwen3-4b-instuct\n`;
    const uri = await writeFile('scratch/connection/models/.env', text);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    // Before any test of this base URL nothing is known about its models: no finding once the server has linted the file.
    await eventually(async () => ((await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(0, 20)))?.length ? true : undefined), 'a hover on the base URL');
    assert.equal(ours(uri).filter((d) => codeOf(d) === 'model-not-served').length, 0, 'no model finding before the connection test');
    const before = server.seen.length;
    const report = await runLensCommand(uri, 0, COMMAND);
    assert.equal(report?.verdict, 'ok', report?.explanation?.en);
    assert.ok(server.seen.slice(before).some((r) => r.method === 'GET' && r.path === '/models/v1/models'), 'the probe asked the fake server for /models');
    const diagnostics = await waitForDiagnostics(uri, (d) => d.some((x) => codeOf(x) === 'model-not-served'), 'model-not-served after the connection test');
    const found = findDiagnostic(diagnostics, 'model-not-served', rangeInText(text, 'qwen3-4b-instuct'));
    assert.equal(found.severity, vscode.DiagnosticSeverity.Error, 'a /models list verified today makes it an error');
    assert.match(found.message, /not among the models http:\/\/127\.0\.0\.1:\d+\/models\/v1\/models listed today \("qwen3-4b-instruct"\)\. Did you mean "qwen3-4b-instruct"\?/);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, found.range, vscode.CodeActionKind.QuickFix.value);
    assert.ok(actions?.some((a) => a.title.startsWith('Use "qwen3-4b-instruct"')), `the did-you-mean is a quick fix; got ${JSON.stringify(actions?.map((a) => a.title))}`);
  });

  describe('consent for a key from another origin', () => {
    const asked: ConsentRequest[] = [];
    let answer: ConsentAnswer = 'cancel';
    let uri: vscode.Uri;

    before(async () => {
      testHooks().setHostOverrides({ [TEST_HOST]: '127.0.0.1' });
      testHooks().setConsentHandler((request) => {
        asked.push(request);
        return answer;
      });
      process.env.OPENAI_API_KEY = ENV_KEY;
      uri = await writeFile('scratch/connection/consent/.env', `# key comes from the environment\nOPENAI_BASE_URL=http://${TEST_HOST}:${server.port}/ok/v1\n`);
    });

    const withKey = (from: number) => server.seen.slice(from).filter((r) => r.authorization?.includes(ENV_KEY));

    it('asks before sending, and Cancel sends nothing', async () => {
      answer = 'cancel';
      const seenBefore = server.seen.length;
      await runLensCommand(uri, 1, COMMAND);
      assert.equal(asked.length, 1, 'the consent modal was reached once');
      assert.match(asked[0].origin, new RegExp(TEST_HOST.replace(/\./g, '\\.')));
      assert.equal(asked[0].message.includes(ENV_KEY), false, 'the modal never shows the full key');
      assert.equal(withKey(seenBefore).length, 0, 'no request carried the key after Cancel');
    });

    it('Send once sends the key to the mapped name, and asks again next time', async () => {
      answer = 'once';
      const seenBefore = server.seen.length;
      const report = await runLensCommand(uri, 1, COMMAND);
      assert.equal(asked.length, 2);
      assert.equal(report?.verdict, 'ok', report?.explanation?.en);
      const sent = withKey(seenBefore);
      assert.ok(sent.length > 0, 'the key was sent after Send once');
      assert.ok(sent.every((r) => r.host === `${TEST_HOST}:${server.port}`), `Host header keeps the name: ${sent.map((r) => r.host).join(', ')}`);
      answer = 'cancel';
      await runLensCommand(uri, 1, COMMAND);
      assert.equal(asked.length, 3, 'Send once is not remembered');
    });

    it('Always for this origin is remembered until approvals are reset', async () => {
      answer = 'always';
      await runLensCommand(uri, 1, COMMAND);
      const count = asked.length;
      answer = 'cancel';
      const seenBefore = server.seen.length;
      const report = await runLensCommand(uri, 1, COMMAND);
      assert.equal(asked.length, count, 'no second question for an approved origin');
      assert.equal(report?.verdict, 'ok');
      assert.ok(withKey(seenBefore).length > 0);
      if (contributedCommands().includes(RESET)) {
        await vscode.commands.executeCommand(RESET);
        await runLensCommand(uri, 1, COMMAND);
        assert.equal(asked.length, count + 1, 'asks again after Reset Connection Approvals');
      }
    });
  });
});
