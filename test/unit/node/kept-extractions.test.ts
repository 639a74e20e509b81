import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Grammars } from '../../../server/src/core/formats/treesitter';
import type { Finding } from '../../../server/src/core/model/types';
import { mergeConfig } from '../../../server/src/core/config/config';
import { invalidate, loadConfigFor } from '../../../server/src/node/config';
import { KeptExtractions, type IndexedFile } from '../../../server/src/node/env-index';
import { NodeWorkspaceFacts } from '../../../server/src/node/facts';
import { loadGrammars } from '../../../server/src/node/grammars';
import { indexForLint } from '../../../server/src/node/index-scope';
import { lintFile, type PreRead } from '../../../server/src/node/lint-file';
import { walk } from '../../../server/src/node/walk';

/**
 * Issue 27: a whole-tree CLI run keeps the index pass's extractions for the lint only up to a memory
 * budget (`KeptExtractions`); a file over it is parsed again by its lint. Same findings either way.
 */
const WORKSPACES = join(__dirname, '..', '..', 'workspaces');

const shown = (f: Finding) => ({ ruleId: f.ruleId, severity: f.severity, range: f.range, message: f.message, fixes: f.fixes, related: f.related });
const file = (text: string, settings = 0): IndexedFile => ({ text, extraction: { settings: new Array(settings).fill({}), requestSites: [] } as never });

describe('KeptExtractions (the index pass keeps extractions up to a budget)', () => {
  let grammars: Grammars;
  before(async () => (grammars = await loadGrammars()));

  it('keeps files while they fit, refuses the one that would pass the budget, and frees budget on delete', () => {
    // 2 bytes per UTF-16 unit + 500 per setting.
    const keep = new KeptExtractions(2_000);
    keep.set('a', file('x'.repeat(250), 1)); // 1,000
    keep.set('b', file('x'.repeat(400))); // 800
    keep.set('c', file('x'.repeat(150))); // 300: would make 2,100
    assert.deepEqual([...keep.keys()], ['a', 'b']);
    keep.delete('a');
    keep.set('c', file('x'.repeat(150)));
    assert.deepEqual([...keep.keys()], ['b', 'c']);
    // Setting a path again replaces its entry and its share of the budget.
    keep.set('b', file('x'.repeat(50)));
    keep.set('d', file('x'.repeat(600)));
    assert.deepEqual([...keep.keys()].sort(), ['b', 'c', 'd']);
  });

  it('gives every file of every test workspace the same findings whether its extraction was kept or not', () => {
    let files = 0;
    for (const name of readdirSync(WORKSPACES)) {
      const root = join(WORKSPACES, name);
      invalidate();
      const facts = new NodeWorkspaceFacts(root);
      const walked = walk(['.'], root, facts, { noIgnore: false, config: mergeConfig() }).files;
      const configFor = (f: { absPath: string }) => loadConfigFor(f.absPath, root).config;
      const all = new Map<string, IndexedFile>();
      const none = new KeptExtractions(0);
      const whole = indexForLint(walked, undefined, grammars, configFor, all).index;
      // With the reads the index pass hands on (`preRead`): a candidate over the budget must still be linted as one.
      const reads = new Map<string, PreRead>();
      const bare = indexForLint(walked, undefined, grammars, configFor, none, { reads }).index;
      assert.equal(none.size, 0);
      for (const f of walked) {
        const lint = (kept: IndexedFile | undefined, index: typeof whole, preRead?: PreRead) =>
          lintFile(f.absPath, f.relPath, {
            grammars,
            config: configFor(f),
            facts,
            locale: 'en',
            maxFileBytes: configFor(f).maxFileBytes,
            env: index.viewFor(f.relPath),
            ...(kept?.extraction ? { reuse: { text: kept.text, extraction: kept.extraction } } : {}),
            preRead,
          }).findings.map(shown);
        assert.deepEqual(lint(undefined, bare, reads.get(f.relPath)), lint(all.get(f.relPath), whole), `${name}/${f.relPath}`);
        files++;
      }
    }
    assert.ok(files > 20, `linted ${files} files`);
  });
});
