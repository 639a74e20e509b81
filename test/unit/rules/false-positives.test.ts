import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { formatOf } from '../../../server/src/core/files';
import { LineIndex } from '../../../server/src/core/positions';
import { expectationLine, isolatedCopy, lintInWorkspace } from '../../support/lint';

/**
 * `test/corpus/false-positives/`: code that looks like a request site but is not a rollout (a Flask
 * chatbot's `generate_reply`, an eval script's `sample`, a LangChain summariser, an eval harness) or
 * that already asks for log probs in a shape the extractors cannot see through (the OpenClaw-RL proxy
 * mutating a copied body). Every file must lint clean, hints included.
 */
const CORPUS = join(__dirname, '..', '..', 'corpus', 'false-positives');

function files(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const abs = join(d, name);
      if (statSync(abs).isDirectory()) visit(abs);
      else if (formatOf(name)) out.push(relative(dir, abs).split('\\').join('/'));
    }
  };
  visit(dir);
  return out;
}

describe('false-positive corpus', () => {
  const all = files(CORPUS);

  it('holds the five shapes', () => {
    assert.ok(all.length >= 5, `only ${all.length} files in ${CORPUS}`);
  });

  it('control: the chatbot moved under rollout/ is a rollout request and gets logprobs-missing', async () => {
    const copy = isolatedCopy(CORPUS);
    try {
      mkdirSync(join(copy.root, 'rollout'));
      copyFileSync(join(copy.root, 'flask-chatbot', 'app.py'), join(copy.root, 'rollout', 'app.py'));
      const result = await lintInWorkspace(copy.root, 'rollout/app.py');
      assert.deepEqual(result.findings.map((f) => f.ruleId), ['logprobs-missing']);
    } finally {
      copy.cleanup();
    }
  });

  for (const file of all) {
    it(`${file} lints clean`, async () => {
      const copy = isolatedCopy(CORPUS);
      try {
        const result = await lintInWorkspace(copy.root, file);
        assert.ok(result.text !== undefined, 'file was not linted');
        assert.deepEqual(result.failures, []);
        const index = new LineIndex(result.text);
        assert.deepEqual(result.findings.map((f) => `${expectationLine(f, index)}: ${f.message}`), []);
      } finally {
        copy.cleanup();
      }
    });
  }
});
