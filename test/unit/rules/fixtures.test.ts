import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { formatOf } from '../../../server/src/core/files';
import { LineIndex } from '../../../server/src/core/positions';
import { RULES } from '../../../server/src/core/rules/index';
import { stripBom } from '../../../server/src/core/lint';
import { isManifestName } from '../../../server/src/core/workspace/client-pins';
import { UPDATE_GOLDENS, expectationLine, isolatedCopy, lintInWorkspace } from '../../support/lint';

const FIXTURES = join(__dirname, '..', '..', 'fixtures');
const SIDE_FILES = /\.(expected|fixed)$/;

/** Fixture files under `dir`, relative to it, skipping sidecars and `.gitignore`. */
function fixtureFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const visit = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const abs = join(d, name);
      if (statSync(abs).isDirectory()) visit(abs);
      else if (!SIDE_FILES.test(name) && name !== '.gitignore' && formatOf(name)) out.push(relative(dir, abs));
    }
  };
  visit(dir);
  return out;
}

function readSidecar(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#')) : [];
}

/** Rules whose fixtures are linted with the workspace index of their folder (the finding needs another file). */
const CROSS_FILE = new Set(['model-not-served', 'api-key-server-mismatch', 'dotenv-example-drift']);

const ruleDirs = existsSync(FIXTURES) ? readdirSync(FIXTURES).filter((d) => RULES.some((r) => r.meta.id === d)) : [];

describe('rule fixtures', () => {
  for (const ruleId of ruleDirs) {
    describe(ruleId, () => {
      for (const kind of ['bad', 'good'] as const) {
        const dir = join(FIXTURES, ruleId, kind);
        for (const file of fixtureFiles(dir)) {
          // A project manifest beside a bad fixture (`package.json` pinning openai-node) is its context, not a case.
          if (kind === 'bad' && isManifestName(basename(file)) && !existsSync(join(dir, `${file}.expected`))) continue;
          it(`${kind}/${file}`, async () => {
            const copy = isolatedCopy(dir);
            try {
              const crossFile = CROSS_FILE.has(ruleId);
              const result = await lintInWorkspace(copy.root, file, { index: crossFile });
              if (ruleId !== 'skipped-file') assert.ok(result.text !== undefined, 'fixture was not linted');
              const index = new LineIndex(result.text ?? '');
              const actual = result.findings.map((f) => ({ line: expectationLine(f, index), severity: f.severity }));
              const sidecar = join(dir, `${file}.expected`);
              if (kind === 'good') {
                assert.deepEqual(actual.filter((a) => a.severity !== 'hint' || a.line.includes(`[${ruleId}]`)).map((a) => a.line), [], 'a clean fixture produced findings');
                return;
              }
              if (UPDATE_GOLDENS) writeFileSync(sidecar, actual.filter((a) => a.severity !== 'hint' || a.line.includes(`[${ruleId}]`)).map((a) => a.line).join('\n') + '\n');
              const expected = readSidecar(sidecar);
              assert.ok(expected.length > 0, `${sidecar} is missing or empty`);
              const got = actual.filter((a) => a.severity !== 'hint' || expected.includes(a.line)).map((a) => a.line);
              assert.deepEqual(got, expected);
              assert.ok(expected.some((l) => l.includes(`[${ruleId}]`)), `bad fixture must produce ${ruleId}`);

              const rule = RULES.find((r) => r.meta.id === ruleId)!;
              const goldenPath = join(dir, `${file}.fixed`);
              if (!rule.meta.fixable) return;
              const fixed = await lintInWorkspace(copy.root, file, { fix: 'unsafe', index: crossFile });
              const written = stripBom(readFileSync(join(copy.root, file), 'utf8')).text;
              assert.equal(written, fixed.text);
              if (UPDATE_GOLDENS) writeFileSync(goldenPath, readFileSync(join(copy.root, file)));
              assert.ok(existsSync(goldenPath), `${goldenPath} is missing (rule is fixable)`);
              assert.equal(readFileSync(join(copy.root, file), 'latin1'), readFileSync(goldenPath, 'latin1'), 'fixed bytes differ from the golden');
              const leftover = fixed.findings.filter((f) => f.fixes.length > 0 && f.severity !== 'hint');
              assert.deepEqual(leftover.map((f) => f.ruleId), [], 're-lint after fix still has fixable findings');
            } finally {
              copy.cleanup();
            }
          });
        }
      }
    });
  }
});

describe('fixture coverage (meta)', () => {
  for (const rule of RULES) {
    it(`${rule.meta.id} has bad and good fixtures in each of its formats`, () => {
      for (const kind of ['bad', 'good']) {
        const files = fixtureFiles(join(FIXTURES, rule.meta.id, kind));
        const formats = new Set(files.map((f) => formatOf(f)));
        const missing = rule.meta.formats.filter((f) => !formats.has(f));
        assert.deepEqual(missing, [], `${kind} fixtures missing for formats: ${missing.join(', ')}`);
      }
    });
  }
});
