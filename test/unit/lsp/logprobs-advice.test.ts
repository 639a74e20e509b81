import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  CodeActionRequest,
  CodeActionTriggerKind,
  HoverRequest,
  type CodeAction,
  type FullDocumentDiagnosticReport,
  type Hover,
  type MarkupContent,
  type TextDocumentEdit,
} from 'vscode-languageserver-protocol';
import { isolatedCopy } from '../../support/lint';
import { applyLspEdits, fileUri, FIXTURE_WORKSPACE, TestClient } from './harness';

/** The seed's demo script: a TaoToken client and a chat call without logprobs, in a file no rollout glob matches (shared with the e2e steps). */
const DEMO = readFileSync(join(__dirname, '..', '..', 'fixtures', 'lsp', 'taotoken-demo.py'), 'utf8');
const CALL_LINE = 3;
const CREATE = DEMO.split('\n')[CALL_LINE].indexOf('create(');
const KIND = 'refactor.rewrite.rollout-lint.logprobs';

const CORPUS = join(__dirname, '..', '..', 'corpus', 'false-positives');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
}

describe('LSP: log-prob advice on a request no rule flags (issue 25 item 4)', () => {
  let ws: ReturnType<typeof isolatedCopy>;
  let client: TestClient;
  let version = 1;
  before(async () => {
    ws = isolatedCopy(FIXTURE_WORKSPACE);
    client = await TestClient.start({ pull: true, root: ws.root, initializationOptions: { locale: 'en' } });
  });
  after(async () => {
    await client.stop();
    ws.cleanup();
  });

  async function open(rel: string, text: string): Promise<{ uri: string; items: FullDocumentDiagnosticReport['items'] }> {
    const uri = fileUri(join(ws.root, rel));
    await client.open(uri, 'python', text, ++version);
    return { uri, items: ((await client.pull(uri)) as FullDocumentDiagnosticReport).items };
  }

  async function hover(uri: string, line: number, character: number): Promise<string | undefined> {
    const h = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } })) as Hover | null;
    return h ? (h.contents as MarkupContent).value : undefined;
  }

  function actions(uri: string, line: number, character: number, context: { triggerKind?: CodeActionTriggerKind; only?: string[] } = {}): Promise<CodeAction[]> {
    const at = { line, character };
    return client.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: { start: at, end: at }, context: { diagnostics: [], ...context } }) as Promise<CodeAction[]>;
  }

  it('the demo script gets no diagnostic, a hover at the call that says what a rollout needs, and the fix when asked', async () => {
    const { uri, items } = await open('demo.py', DEMO);
    assert.deepEqual(items.map((d) => d.code), [], 'nothing in Problems');
    const text = await hover(uri, CALL_LINE, CREATE + 2);
    assert.ok(text, 'a hover on create');
    assert.match(text, /this chat completions request does not ask for log probs/);
    assert.match(text, /If this call samples an RL rollout, .*add `logprobs=True`/);
    assert.match(text, /`top_logprobs` \(0–20, only with logprobs on\)/);
    assert.match(text, /"Ask for log probs for a rollout: add logprobs=True" from the Quick Fix or Refactor menu/);
    assert.ok(await hover(uri, CALL_LINE, DEMO.split('\n')[CALL_LINE].indexOf('client') + 1), 'the whole callee (client.chat.completions.create) hovers');
    assert.equal(await hover(uri, CALL_LINE, 2), undefined, 'no advice on the assigned name');
    assert.equal(await hover(uri, CALL_LINE + 2, 8), undefined, 'no advice on the arguments');

    const offered = await actions(uri, CALL_LINE, CREATE + 2, { triggerKind: CodeActionTriggerKind.Invoked });
    const action = offered.find((a) => a.kind === KIND);
    assert.ok(action, `the rewrite is offered; got ${JSON.stringify(offered.map((a) => a.title))}`);
    assert.equal(action.title, 'Ask for log probs for a rollout: add logprobs=True');
    assert.equal(action.diagnostics, undefined, 'tied to no diagnostic');
    const change = action.edit!.documentChanges![0] as TextDocumentEdit;
    const fixed = applyLspEdits(DEMO, change.edits as Parameters<typeof applyLspEdits>[1]);
    assert.match(fixed, /messages=\[\{"role": "user", "content": "hello"\}\],\n    logprobs=True,\n\)/);

    // Asked by the editor on its own (the lightbulb), or for quick fixes only: nothing.
    assert.deepEqual((await actions(uri, CALL_LINE, CREATE + 2, { triggerKind: CodeActionTriggerKind.Automatic })).filter((a) => a.kind === KIND), []);
    assert.deepEqual((await actions(uri, CALL_LINE, CREATE + 2, { triggerKind: CodeActionTriggerKind.Invoked, only: ['quickfix'] })).filter((a) => a.kind === KIND), []);
    assert.equal((await actions(uri, CALL_LINE, CREATE + 2, { triggerKind: CodeActionTriggerKind.Invoked, only: ['refactor'] })).filter((a) => a.kind === KIND).length, 1);

    // Applied: still clean, and the call no longer gets the advice.
    await client.replace(uri, ++version, fixed);
    assert.deepEqual(((await client.pull(uri)) as FullDocumentDiagnosticReport).items.map((d) => d.code), []);
    assert.equal(await hover(uri, CALL_LINE, CREATE + 2), undefined);
    assert.deepEqual((await actions(uri, CALL_LINE, CREATE + 2, { triggerKind: CodeActionTriggerKind.Invoked })).filter((a) => a.kind === KIND), []);
    await client.close(uri);
  });

  it('in a rollout file the rule reports the call, and the advice steps aside', async () => {
    const { uri, items } = await open('train/demo_rollout.py', DEMO);
    assert.deepEqual(items.map((d) => d.code), ['logprobs-missing']);
    const text = await hover(uri, CALL_LINE, CREATE + 2);
    assert.ok(text);
    assert.match(text, /`logprobs-missing` \(warning\)/);
    assert.doesNotMatch(text, /this chat completions request does not ask for log probs/);
    assert.deepEqual((await actions(uri, CALL_LINE, CREATE + 2, { triggerKind: CodeActionTriggerKind.Invoked })).filter((a) => a.kind === KIND), []);
    await client.close(uri);
  });

  it('the false-positive corpus stays clean in Problems: the advice is a hover, never a diagnostic', async () => {
    const pythons = files(CORPUS).filter((f) => f.endsWith('.py'));
    assert.ok(pythons.length >= 4);
    let advised = 0;
    for (const file of pythons) {
      const text = readFileSync(file, 'utf8');
      const { uri, items } = await open(`corpus/${relative(CORPUS, file)}`, text);
      assert.deepEqual(items.map((d) => d.code), [], relative(CORPUS, file));
      const line = text.split('\n').findIndex((l) => l.includes('.completions.create('));
      if (line >= 0 && (await hover(uri, line, text.split('\n')[line].indexOf('create(') + 1))?.includes('does not ask for log probs')) advised++;
      await client.close(uri);
    }
    assert.ok(advised >= 1, 'the Flask chatbot call gets the advice on hover');
  });

  it('zh-cn: the hover and the action are in Chinese', async () => {
    const zh = await TestClient.start({ pull: true, root: ws.root, initializationOptions: { locale: 'zh-cn' } });
    try {
      const uri = fileUri(join(ws.root, 'demo-zh.py'));
      await zh.open(uri, 'python', DEMO, 1);
      const h = (await zh.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: CALL_LINE, character: CREATE + 2 } })) as Hover | null;
      assert.match((h!.contents as MarkupContent).value, /此 chat completions 请求未请求 logprobs[\s\S]*请添加 `logprobs=True`/);
      const at = { line: CALL_LINE, character: CREATE + 2 };
      const acts = (await zh.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: { start: at, end: at }, context: { diagnostics: [], triggerKind: CodeActionTriggerKind.Invoked } })) as CodeAction[];
      assert.deepEqual(acts.filter((a) => a.kind === KIND).map((a) => a.title), ['为 rollout 请求 logprobs：添加 logprobs=True']);
    } finally {
      await zh.stop();
    }
  });
});
