import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeWorkspaceFacts } from '../../../server/src/node/facts';

describe('NodeWorkspaceFacts.gitState', () => {
  let root: string;
  before(function () {
    try {
      execFileSync('git', ['--version'], { stdio: 'ignore' });
    } catch {
      this.skip();
    }
    root = mkdtempSync(join(tmpdir(), 'rollout-lint-facts-'));
    const repo = join(root, 'service');
    mkdirSync(join(repo, 'conf'), { recursive: true });
    writeFileSync(join(repo, '.env'), 'A=1\n');
    writeFileSync(join(repo, 'conf', '.env'), 'A=1\n');
    writeFileSync(join(repo, 'local.env'), 'A=1\n');
    writeFileSync(join(repo, '.gitignore'), 'local.env\n');
    execFileSync('git', ['init', '-q'], { cwd: repo });
    execFileSync('git', ['add', '.env', '.gitignore'], { cwd: repo });
    mkdirSync(join(root, 'loose'));
    writeFileSync(join(root, 'loose', '.env'), 'A=1\n');
  });
  after(() => root && rmSync(root, { recursive: true, force: true }));

  it('asks the repository that holds each file, not the one holding the working folder', () => {
    const facts = new NodeWorkspaceFacts(root);
    assert.equal(facts.gitState(join(root, 'service', '.env')), 'tracked');
    assert.equal(facts.gitState('service/conf/.env'), 'exposed');
    assert.equal(facts.gitState('service/local.env'), 'ignored');
    assert.equal(facts.gitState('loose/.env'), 'unknown');
  });

  it('gives the same answers from inside the repository', () => {
    const facts = new NodeWorkspaceFacts(join(root, 'service'));
    assert.deepEqual(['.env', 'conf/.env', 'local.env'].map((p) => facts.gitState(p)), ['tracked', 'exposed', 'ignored']);
  });
});
