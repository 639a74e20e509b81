import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LineIndex } from '../../../server/src/core/positions';
import { RULES } from '../../../server/src/core/rules/index';
import { isolatedCopy, lintInWorkspace } from '../../support/lint';

/** `test/cases/manifest.json`: anonymised real-world mistakes (a copy of the shared cases). */
interface CaseManifest {
  cases: { id: string; file: string; expected: { line: number; rule: string; severity: string }[]; negative: boolean }[];
}

const CASES = join(__dirname, '..', '..', 'cases');
const SHARED = join(__dirname, '..', '..', '..', '..', 'shared', 'cases');
const manifest = JSON.parse(readFileSync(join(CASES, 'manifest.json'), 'utf8')) as CaseManifest;
const registered = new Set(RULES.map((r) => r.meta.id));

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const abs = join(d, name);
      if (statSync(abs).isDirectory()) visit(abs);
      else out.push(relative(dir, abs));
    }
  };
  visit(dir);
  return out;
}

/**
 * Cases whose expectation the real client disproved (conformance suite, issue 12); the manifest is a
 * byte-for-byte copy of ../shared/cases, so the correction lives here, with its reason.
 */
const SUPERSEDED: Record<string, { expected: { line: number; rule: string; severity: string }[]; reason: string }> = {
  'case-14': {
    expected: [],
    reason: 'OpenClaw defaults a custom provider without "api" to openai-completions (openclaw 2026.9.6 sends POST /v1/chat/completions), so this provider is correct',
  },
};

describe('real-world cases', () => {
  for (const c of manifest.cases) {
    const pending = c.expected.filter((e) => !registered.has(e.rule)).map((e) => e.rule);
    const title = `${c.id} (${c.file})${c.negative ? ' — negative control' : ''}`;
    if (pending.length > 0) {
      it(`${title} — pending: ${[...new Set(pending)].join(', ')} not registered yet`);
      continue;
    }
    it(title, async () => {
      const [dir, ...rest] = c.file.split('/');
      const copy = isolatedCopy(join(CASES, dir));
      try {
        const result = await lintInWorkspace(copy.root, rest.join('/'));
        assert.ok(result.text !== undefined);
        const index = new LineIndex(result.text);
        const actual = result.findings
          .filter((f) => f.severity !== 'hint')
          .map((f) => `${index.positionAt(f.range.start).line + 1} ${f.ruleId} ${f.severity}`)
          .sort();
        const expected = (SUPERSEDED[c.id]?.expected ?? c.expected).map((e) => `${e.line} ${e.rule} ${e.severity}`).sort();
        assert.deepEqual(actual, expected);
      } finally {
        copy.cleanup();
      }
    });
  }

  it('the project copy matches ../shared/cases byte for byte (when that folder exists)', function () {
    if (!existsSync(SHARED)) this.skip();
    assert.deepEqual(listFiles(CASES), listFiles(SHARED));
    for (const f of listFiles(SHARED)) assert.ok(readFileSync(join(CASES, f)).equals(readFileSync(join(SHARED, f))), `${f} differs`);
  });
});
