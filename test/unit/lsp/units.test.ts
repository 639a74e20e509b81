import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyEdits } from '../../../server/src/core/fix';
import { LOCALES } from '../../../server/src/core/messages/locale';
import { kindWanted } from '../../../server/src/lsp/code-actions';
import { DocText, minimalEdit } from '../../../server/src/lsp/convert';
import { disableLineEdit, rcDisableEdits } from '../../../server/src/lsp/disable';
import { code, serverMessageIds } from '../../../server/src/lsp/messages';
import { settingsLayer } from '../../../server/src/lsp/settings';
import { applyLspEdits } from './harness';

describe('LSP adapter units', () => {
  it('minimalEdit turns any text into any other, never splitting a surrogate pair or a CRLF', () => {
    const piece = fc.constantFrom('a', 'b', '\r\n', '\n', '\r', '😀', '中', ' ');
    const text = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const edit = minimalEdit(before, after);
        if (before === after) return edit === undefined;
        assert.ok(edit);
        assert.equal(applyEdits(before, [edit]), after);
        for (const at of [edit.range.start, edit.range.end]) {
          const c = before.charCodeAt(at - 1);
          assert.ok(!(c >= 0xd800 && c <= 0xdbff), 'not inside a surrogate pair');
          assert.ok(!(before[at - 1] === '\r' && before[at] === '\n'), 'not inside a CRLF');
        }
        return true;
      }),
    );
  });

  it('DocText maps core offsets to LSP positions past a BOM and back', () => {
    const doc = new DocText('\ufeffA=1\r\nB=2');
    assert.deepEqual(doc.position(0), { line: 0, character: 1 });
    assert.deepEqual(doc.position(5), { line: 1, character: 0 });
    assert.equal(doc.coreOffset({ line: 1, character: 2 }), 7);
    assert.equal(doc.clientOffset(7), 8);
  });

  it('settingsLayer keeps valid options and explains the invalid ones', () => {
    const { enabled, layer, problems } = settingsLayer({
      enable: true,
      rules: { 'base-url-duplicate-v1': 'hint' },
      rolloutGlobs: ['**/rl/**'],
      maxFileBytes: -3,
      extraProviders: [{ id: 'mine', name: 'Mine', openaiBases: ['https://llm.example.com/v1'], hosts: ['llm.example.com'] }],
    });
    assert.equal(enabled, true);
    assert.deepEqual(layer.rules, { 'base-url-duplicate-v1': 'hint' });
    assert.deepEqual(layer.rolloutGlobs, ['**/rl/**']);
    assert.equal(layer.maxFileBytes, undefined);
    assert.equal(layer.extraProviders?.[0].chatUrl, 'https://llm.example.com/v1/chat/completions');
    assert.equal(layer.extraProviders?.[0].source, 'rolloutLint settings');
    assert.equal(problems.length, 1);
    assert.match(problems[0], /rolloutLint\.maxFileBytes ignored/);
    assert.deepEqual(settingsLayer({ ignore: ["generated/**"] }).layer.ignore, ["generated/**"], "ignore globs from settings, as in .rolloutlintrc.json");
    assert.equal(settingsLayer({ enable: false }).enabled, false);
    assert.deepEqual(settingsLayer(null), { enabled: true, layer: {}, problems: [] });
  });

  it('rejects unknown rule ids in settings without dropping the rest', () => {
    const { layer, problems } = settingsLayer({ rules: { 'no-such-rule': 'off' }, jsonGlobs: ['**/x.json'] });
    assert.equal(layer.rules, undefined);
    assert.deepEqual(layer.jsonGlobs, ['**/x.json']);
    assert.match(problems[0], /unknown rule id "no-such-rule"/);
  });

  it('has every server text in both locales', () => {
    assert.deepEqual(serverMessageIds('zh-CN'), serverMessageIds('en'));
    assert.deepEqual(LOCALES, ['en', 'zh-CN']);
  });

  it('code() survives backticks', () => {
    assert.equal(code('a`b'), '``a`b``');
    assert.equal(code('`x'), '`` `x ``');
  });

  it('kindWanted follows the LSP kind hierarchy', () => {
    assert.ok(kindWanted('source.fixAll.rollout-lint', ['source.fixAll']));
    assert.ok(kindWanted('source.fixAll.rollout-lint', ['source']));
    assert.ok(!kindWanted('source.fixAll.rollout-lint', ['quickfix']));
    assert.ok(!kindWanted('source.fixAllx', ['source.fixAll']));
    assert.ok(kindWanted('quickfix', undefined));
  });

  it('places the disable directive with the document line breaks, in CRLF and after a BOM', () => {
    const text = '\ufeffA=1\r\n  B=2\r\n';
    const doc = new DocText(text);
    const edit = disableLineEdit(doc, 'yaml', 1, 'x-rule');
    assert.equal(applyLspEdits(text, [edit]), '\ufeffA=1\r\n  # rollout-lint-disable-next-line x-rule\r\n  B=2\r\n');
    const shell = 'cmd \\\n  --a \\\\\n  --b x\n';
    const inner = disableLineEdit(new DocText(shell), 'shell', 2, 'r');
    assert.equal(applyLspEdits(shell, [inner]).split('\n')[2], '  # rollout-lint-disable-next-line r', 'an escaped backslash ends the continuation');
  });

  it('rcDisableEdits writes a new file, fills an empty one, and edits an existing one', () => {
    const created = rcDisableEdits(undefined, 'r1');
    assert.equal(created.create, true);
    assert.deepEqual(JSON.parse(applyLspEdits('', created.edits)), { rules: { r1: 'off' } });
    const blank = rcDisableEdits('\n', 'r1');
    assert.equal(blank.create, false);
    assert.deepEqual(JSON.parse(applyLspEdits('\n', blank.edits)), { rules: { r1: 'off' } });
    const existing = '{\n\t"rollOutGlobs": []\n}\n';
    assert.match(applyLspEdits(existing, rcDisableEdits(existing, 'r2').edits), /\n\t"rules": \{\n\t\t"r2": "off"\n\t\}/);
  });
});
