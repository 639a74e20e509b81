import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../../../server/src/core/rules/index';
import { workspace } from './helpers';

const CLI = join(__dirname, '..', '..', '..', 'server', 'dist', 'cli.js');

function bundle(cwd: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  assert.ok(existsSync(CLI), `${CLI} is missing: run "npm run build" first`);
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the built CLI bundle (server/dist/cli.js)', () => {
  it('lints with the nearest config, suppressions and the sarif format, and exits 1 on errors', () => {
    const ws = workspace({
      '.env': '# rollout-lint-disable-next-line base-url-duplicate-v1\nOPENAI_BASE_URL=https://api.openai.com/v1/v1\n',
      'svc/run.sh': '#!/bin/bash\nexport OPENAI_BASE_URL=https://api.openai.com/v1/v1\n',
      'svc/.rolloutlintrc.json': '{ "rules": { "base-url-trailing-slash": "off" } }',
    });
    try {
      const r = bundle(ws.root, ['--format', 'sarif']);
      assert.equal(r.status, 1, r.stderr);
      const results = JSON.parse(r.stdout).runs[0].results as { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
      assert.deepEqual(results.map((x) => `${x.locations[0].physicalLocation.artifactLocation.uri}:${x.ruleId}`), ['svc/run.sh:base-url-duplicate-v1']);
    } finally {
      ws.cleanup();
    }
  });

  it('exits 2 on a bad config with the JSON path', () => {
    const ws = workspace({ '.rolloutlintrc.json': '{ "rules": { "no-such-rule": "off" } }', '.env': 'A=1\n' });
    try {
      const r = bundle(ws.root, []);
      assert.equal(r.status, 2);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /\.rolloutlintrc\.json:1:14: \$\.rules\["no-such-rule"\]: unknown rule id "no-such-rule"/);
    } finally {
      ws.cleanup();
    }
  });

  it('prints the registry with rules --json', () => {
    const r = bundle(process.cwd(), ['rules', '--json']);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { id: string }[]).map((x) => x.id), RULES.map((x) => x.meta.id));
  });
});
