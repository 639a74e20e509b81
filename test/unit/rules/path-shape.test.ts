import assert from 'node:assert/strict';
import { lintDocument } from '../../../server/src/core/lint';
import { loadGrammars } from '../../../server/src/node/grammars';
import type { Grammars } from '../../../server/src/core/formats/treesitter';

describe('base-url-path-shape names every shape it fixes', () => {
  let grammars: Grammars;
  before(async () => {
    grammars = await loadGrammars();
  });
  const messages = (text: string, locale: 'en' | 'zh-CN' = 'en') =>
    lintDocument({ path: '.env', text }, { grammars, locale })
      .findings.filter((f) => f.ruleId === 'base-url-path-shape')
      .map((f) => f.message);

  it('//V1: one finding naming the empty segment and the upper-case version (the fix changes both)', () => {
    const [message, ...rest] = messages('OPENAI_BASE_URL=https://api.example.com//V1\n');
    assert.deepEqual(rest, []);
    assert.match(message, /empty path segment \(\/\/\) and writes the version as \/V1/);
    assert.match(messages('OPENAI_BASE_URL=https://api.example.com//V1\n', 'zh-CN')[0], /空段（\/\/），并把版本写成了 \/V1/);
  });

  it('each shape alone keeps its own message', () => {
    assert.match(messages('OPENAI_BASE_URL=https://api.example.com//v1\n')[0], /empty path segment \(\/\/\);/);
    assert.match(messages('OPENAI_BASE_URL=https://api.example.com/V1\n')[0], /writes the version as \/V1;/);
  });
});
