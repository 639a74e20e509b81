import assert from 'node:assert/strict';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { compileGlob, globMatcher, globProblem } from '../../../server/src/core/glob';
import { fileEvidence } from '../../../server/src/core/evidence/file';
import { mergeConfig } from '../../../server/src/core/config/config';
import { settingsLayer } from '../../../server/src/lsp/settings';
import { runCli, workspace } from '../cli/helpers';

/** Issue 29 item 2: one glob compiler for every glob option; matching cannot backtrack. */
describe('hostile globs (one non-backtracking compiler for every glob option)', function () {
  this.timeout(10_000);

  it('agrees with picomatch (dot: true) on generated globs and paths', () => {
    // `**` inside a segment is `*` here; picomatch gives it odd meanings next to braces, so whole `**` segments only.
    const segment = fc
      .array(fc.constantFrom('a', 'b', '.', '*', '?', '[ab]', '[a-b]', '{a,b}', '\\*'), { minLength: 1, maxLength: 4 })
      .map((p) => p.join(''))
      .filter((p) => !/(^|[^\\])\*\*/.test(p));
    const glob = fc.array(fc.oneof(segment, fc.constant('**')), { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
    // Walked paths never hold `.` or `..` segments (picomatch refuses those to every wildcard).
    const part = fc.array(fc.constantFrom('a', 'b', '.', '*'), { minLength: 1, maxLength: 4 }).map((c) => c.join('')).filter((s) => s !== '.' && s !== '..');
    const path = fc.array(part, { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));
    fc.assert(
      fc.property(glob, path, fc.boolean(), (g, p, nocase) => {
        const ours = compileGlob(g, { nocase });
        assert.ok(ours.ok, g);
        const input = nocase ? p.toUpperCase() : p;
        assert.equal(ours.test(input), picomatch(g, { dot: true, nocase })(input), `${g} on ${input}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('matches the issue\'s backtracking shapes at once, on long names and 400-level folder chains', () => {
    const chain = `${'a/'.repeat(400)}x.env`;
    // Both needed minutes under picomatch's backtracking regular expressions (issue 29 #3).
    const a = compileGlob('**/*a*a*a*a*a*a*a*a*a*a*a*b');
    const b = compileGlob('**/*a*/**/*a*/**/*a*/**/*a*/b');
    assert.ok(a.ok && b.ok);
    assert.equal(a.test(`${'a'.repeat(60)}.env`), false);
    assert.equal(a.test(`${'a'.repeat(60)}b`), true);
    assert.equal(b.test(chain.slice(0, 1000)), false);
    assert.equal(b.test('xa/ya/za/wa/b'), true);
  });

  it('refuses unsupported or oversized globs with a reason, and globMatcher leaves them out', () => {
    for (const bad of ['+(a)*.env', '!x/**', 'a/[[:alpha:]]', 'x{1..3}', 'x'.repeat(600), '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}']) assert.ok(globProblem(bad), bad);
    for (const ok of ['**/*rollout*/**', '**/*.{yaml,yml}', 'a/**/b/**/c*', '**/smoke_*.{py,sh}', '{x}']) assert.equal(globProblem(ok), undefined, ok);
    const match = globMatcher(['+(a)*.env', '**/*.env']);
    assert.equal(match('d/x.env'), true);
    assert.equal(match(`${'a/'.repeat(600)}x.env`), false, 'paths over 1024 characters match nothing');
  });

  it('testGlobs go through the same compiler (nocase), default test globs still classify', () => {
    const config = mergeConfig({ testGlobs: ['**/*a*a*a*a*a*a*a*a*a*a*a*b', '**/Tests/**'] });
    assert.equal(fileEvidence(`${'a'.repeat(60)}.env`, config).kind, 'source');
    assert.equal(fileEvidence('pkg/tests/x.py', config).kind, 'test');
    assert.equal(fileEvidence('pkg/tests/x.py', mergeConfig()).kind, 'test');
    assert.equal(fileEvidence('pkg/smoke_run.sh', mergeConfig()).kind, 'test');
  });

  it('a refused glob in .rolloutlintrc.json is a configuration error naming it; the rest of the file still applies', async () => {
    const rc = { testGlobs: ['+(x)*.env'], rules: { 'base-url-duplicate-v1': 'off' } };
    const ws = workspace({ '.rolloutlintrc.json': JSON.stringify(rc), 'a.env': 'OPENAI_BASE_URL=https://x.example/v1/v1\nOPENAI_API_BASE=https://x.example/v1/chat/completions\n' });
    try {
      const r = await runCli(ws.root, ['.', '--format', 'json']);
      assert.equal(r.code, 2);
      assert.match(r.err, /\$\.testGlobs\[0\]: extglob "\+\(" is not supported; this glob is left out/);
      const ids = (JSON.parse(r.out) as { messages: { ruleId: string }[] }[]).flatMap((f) => f.messages.map((m) => m.ruleId));
      assert.ok(ids.includes('base-url-endpoint-path'), ids.join());
      assert.ok(!ids.includes('base-url-duplicate-v1'), 'the rules option still applied');
    } finally {
      ws.cleanup();
    }
  });

  it('the issue reproduction (testGlobs backtracking shape, 60-character name) ends with a normal result', async () => {
    const ws = workspace({ '.rolloutlintrc.json': JSON.stringify({ testGlobs: ['**/*a*a*a*a*a*a*a*a*a*a*a*b'] }), [`${'a'.repeat(60)}.env`]: 'OPENAI_BASE_URL=https://x.example/v1/v1\n' });
    try {
      const r = await runCli(ws.root, ['.']);
      assert.equal(r.code, 1);
      assert.match(r.out, /base-url-duplicate-v1/);
    } finally {
      ws.cleanup();
    }
  });

  it('editor settings: a refused glob is reported and left out, the option\'s other globs apply', () => {
    const s = settingsLayer({ rolloutGlobs: ['**/x/**', '@(a)b'] });
    assert.deepEqual(s.layer.rolloutGlobs, ['**/x/**']);
    assert.match(s.problems.join('\n'), /rolloutLint\.rolloutGlobs: \$\.rolloutGlobs\[1\]: extglob "@\("/);
  });
});
