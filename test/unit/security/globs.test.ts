import assert from 'node:assert/strict';
import { globMatcher, globProblem } from '../../../server/src/core/glob';
import { runCli, workspace } from '../cli/helpers';

/** Issue 13 items 7 and 8: globs and configuration files cannot hang or crash the CLI. */
describe('configuration that could hang or crash (ReDoS globs, deep nesting, huge glob lists)', function () {
  this.timeout(60_000);
  const longName = `${'a'.repeat(200)}.env`;

  it('a catastrophic-backtracking shape for regular expressions is matched at once (issue 29: no backtracking at all)', async () => {
    const glob = `**/*${'a*'.repeat(20)}b`;
    const ws = workspace({ '.rolloutlintrc.json': JSON.stringify({ ignore: ['*.tmp', glob] }), [longName]: 'OPENAI_BASE_URL=https://api.example.com/v1/v1\n' });
    try {
      const r = await runCli(ws.root, ['.']);
      assert.equal(r.code, 1);
      assert.match(r.out, /base-url-duplicate-v1/);
    } finally {
      ws.cleanup();
    }
  });

  it('a 100k-deep .rolloutlintrc.json is a configuration error, not a stack trace', async () => {
    const ws = workspace({ '.rolloutlintrc.json': `{"rules": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`, '.env': 'A=1\n' });
    try {
      const r = await runCli(ws.root, ['.']);
      assert.equal(r.code, 2);
      assert.match(r.err, /nested deeper than 64 levels/);
      assert.doesNotMatch(r.err, /\n\s+at /);
    } finally {
      ws.cleanup();
    }
  });

  it('30k ignore globs are refused before any is compiled (and a config over 1 MB is not read)', async () => {
    const ws = workspace({ '.rolloutlintrc.json': JSON.stringify({ ignore: Array.from({ length: 30_000 }, (_, i) => `dir${i}/**`) }), '.env': 'A=1\n' });
    try {
      const r = await runCli(ws.root, ['.']);
      assert.equal(r.code, 2);
      assert.match(r.err, /\$\.ignore: more than 1000 globs/);
    } finally {
      ws.cleanup();
    }
  });

  it('globProblem accepts the globs people write and refuses unsupported or oversized ones', () => {
    for (const ok of ['**/*rollout*/**', '**/*rollout*.py', '**/policy_serving*.py', 'vendor/**', '**/*.{yaml,yml}', 'a/**/b/**/c*', '**/*a*a*b', '**/a/**/b/**/c/**/d/**/e']) assert.equal(globProblem(ok), undefined, ok);
    for (const bad of ['**/!(x)*a*b', `${'x'.repeat(600)}`, '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}']) assert.ok(globProblem(bad), bad);
  });

  it('globMatcher leaves refused globs out and never matches over-long paths', () => {
    const match = globMatcher(['**/*a*a*a*a*b', '**/*.env']);
    assert.equal(match(`${'a/'.repeat(10)}x.env`), true);
    assert.equal(match(`${'a'.repeat(300)}`), false);
    assert.equal(match(`${'a/'.repeat(600)}x.env`), false);
  });
});
