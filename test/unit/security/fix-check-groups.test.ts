import assert from 'node:assert/strict';
import { extract } from '../../../server/src/core/formats/index';
import { fixesKeepMeaning, fixKeepsMeaning } from '../../../server/src/core/fix-check';
import type { Format, TextEdit } from '../../../server/src/core/model/types';
import { loadGrammars } from '../../../server/src/node/grammars';

/** An edit that replaces the `n`-th occurrence of `find` in `text` with `by`, meaning the setting then loads `intended`. */
function edit(text: string, find: string, by: string, intended: string, n = 0): TextEdit {
  let at = -1;
  for (let i = 0; i <= n; i++) at = text.indexOf(find, at + 1);
  assert.ok(at >= 0, `${find} #${n} in the text`);
  return { range: { start: at, end: at + find.length }, text: by, intendedValue: intended };
}

describe('fixesKeepMeaning: value fixes proven together, unsound ones found by splitting', () => {
  const cases: { format: Format; path: string; text: string }[] = [
    { format: 'dotenv', path: '.env', text: 'A_BASE_URL=https://a.example.com/v1/v1\nB_BASE_URL=https://b.example.com/v1/v1\nC_BASE_URL=https://c.example.com/v1/v1 # relay\nD_BASE_URL=https://d.example.com/v1/v1\n' },
    { format: 'python', path: 'serve.py', text: 'from openai import OpenAI\na = OpenAI(base_url="https://a.example.com/v1/v1")\nb = OpenAI(base_url="https://b.example.com/v1/v1")\nc = OpenAI(base_url="https://c.example.com/v1/v1")\nd = OpenAI(base_url="https://d.example.com/v1/v1")\n' },
    { format: 'yaml', path: 'rollout.yaml', text: 'a:\n  base_url: "https://a.example.com/v1/v1"\nb:\n  base_url: "https://b.example.com/v1/v1"\nc:\n  base_url: "https://c.example.com/v1/v1"\nd:\n  base_url: "https://d.example.com/v1/v1"\n' },
  ];
  for (const { format, path, text } of cases) {
    it(`${format}: gives each fix the verdict it gets alone (sound, unsound, duplicate, overlapping)`, async () => {
      const grammars = await loadGrammars();
      const before = extract(format, text, path, grammars);
      const fixes: TextEdit[][] = [
        [edit(text, 'a.example.com/v1/v1', 'a.example.com/v1', 'https://a.example.com/v1')],
        // Unsound: a quote/comment character that changes how the rest of the file is read.
        [edit(text, 'b.example.com/v1/v1', format === 'dotenv' ? 'b.example.com/v1 #' : 'b.example.com/v1"', 'https://b.example.com/v1')],
        [edit(text, 'c.example.com/v1/v1', 'c.example.com/v1', 'https://c.example.com/v1')],
        // The same edits offered by a second rule, and an overlapping alternative fix of the same value.
        [edit(text, 'c.example.com/v1/v1', 'c.example.com/v1', 'https://c.example.com/v1')],
        [edit(text, 'c.example.com/v1/v1', 'c.example.com', 'https://c.example.com')],
        // Sound text, wrong intended value: the proof must still fail it.
        [edit(text, 'd.example.com/v1/v1', 'd.example.com/v1', 'https://d.example.com/v2')],
      ];
      const alone = fixes.map((f) => fixKeepsMeaning(format, path, text, before, f, grammars));
      assert.deepEqual(alone, [true, false, true, true, true, false], 'verdicts alone (the test is about these shapes)');
      assert.deepEqual(fixesKeepMeaning(format, path, text, before, fixes, grammars), alone);
      assert.deepEqual(fixesKeepMeaning(format, path, text, before, [], grammars), []);
    });
  }
});
