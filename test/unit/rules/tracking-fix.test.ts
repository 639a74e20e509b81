import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lintInWorkspace } from '../../support/lint';

describe('a homepage link with tracking parameters as the base URL (the TaoToken guide\'s own link)', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'rl-utm-'));
    writeFileSync(join(root, '.env'), 'OPENAI_BASE_URL=https://taotoken.net/?utm_source=guide&utm_medium=docs\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('offers "Remove the tracking parameters" as a safe fix beside the website finding', async () => {
    const { findings } = await lintInWorkspace(root, '.env');
    const tracking = findings.find((f) => f.ruleId === 'base-url-query-string');
    assert.ok(tracking, JSON.stringify(findings.map((f) => f.ruleId)));
    assert.deepEqual(tracking.fixes.map((f) => [f.title, f.safety]), [['Remove the tracking parameters', 'safe']]);
    assert.ok(findings.some((f) => f.ruleId === 'base-url-provider-website'));
  });

  it('Fix All (safe fixes only) strips them; the problem left is reported on its own', async () => {
    const fixed = await lintInWorkspace(root, '.env', { fix: 'safe' });
    assert.equal(readFileSync(join(root, '.env'), 'utf8'), 'OPENAI_BASE_URL=https://taotoken.net/\n');
    assert.deepEqual(fixed.findings.map((f) => `${f.ruleId} ${f.severity}`), ['base-url-missing-v1 warning']);
  });
});
