import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/**
 * The second real-repository gate (issue 23): the config-bearing files of the public repositories in
 * `test/real-repos/SOURCES.tsv` (agent frameworks, gateways, RAG apps, eval tools, RL frameworks,
 * inference servers, Helm charts), materialised outside the project by `scripts/real-repos-corpus.mjs`
 * into ROLLOUT_LINT_CORPUS (default /work/corpus). Each is copied to a temp folder, made its own git
 * checkout with every file committed, and linted from its root with the built CLI; any error or
 * warning that `test/real-repos/CORPUS-ACCEPTED.tsv` does not list fails, and every listed finding
 * must still be found. Skips, saying so, when the corpus is absent (it is not part of the project).
 */
const PROJECT = join(__dirname, '..', '..', '..');
const CLI = join(PROJECT, 'server', 'dist', 'cli.js');
const CORPUS = process.env.ROLLOUT_LINT_CORPUS || '/work/corpus';
const SOURCES = join(PROJECT, 'test', 'real-repos', 'SOURCES.tsv');
const ACCEPTED = join(PROJECT, 'test', 'real-repos', 'CORPUS-ACCEPTED.tsv');

/** Data lines of a TSV (comments and blanks skipped), split on tabs. */
function rows(file: string): string[][] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => l.split('\t'));
}

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.name=rollout-lint-test', '-c', 'user.email=test@invalid', '-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null', ...args], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `git ${args.join(' ')} failed: ${r.stderr}`);
}

describe(`real-repository corpus (${CORPUS}): no unlisted errors or warnings`, function () {
  this.timeout(10 * 60 * 1000);
  const names = rows(SOURCES).map((r) => r[0]);
  const accepted = rows(ACCEPTED).map((r) => r.slice(0, 3).join('\t'));

  before(function () {
    const present = names.filter((n) => existsSync(join(CORPUS, n)));
    if (present.length === 0) {
      console.log(`    skipped: ${CORPUS} holds none of the ${names.length} corpus repositories (run node scripts/real-repos-corpus.mjs); the corpus gate did not run`);
      this.skip();
    }
    assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first`);
  });

  for (const name of names) {
    it(name, function () {
      const source = join(CORPUS, name);
      if (!existsSync(source)) {
        console.log(`    skipped: ${source} is absent`);
        this.skip();
      }
      const root = mkdtempSync(join(tmpdir(), `rl-corpus-${name}-`));
      try {
        cpSync(source, root, { recursive: true });
        git(root, 'init', '-q');
        git(root, 'add', '-A', '-f');
        git(root, 'commit', '-qm', 'snapshot');
        const run = spawnSync(process.execPath, [CLI, '.', '--format', 'json', '--exit-zero'], { cwd: root, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
        assert.equal(run.status, 0, `rollout-lint exited ${run.status}: ${run.stderr}`);
        const results = JSON.parse(run.stdout) as { filePath: string; messages: { ruleId: string | null; severity: number; line: number; column: number; message: string }[] }[];
        const unlisted: string[] = [];
        const found = new Set<string>();
        for (const result of results) {
          const path = relative(root, result.filePath).split('\\').join('/');
          const seenOnLine = new Set<string>();
          for (const m of result.messages) {
            const rule = m.ruleId ?? 'parse-error';
            const same = `${m.line}\u0000${rule}\u0000${m.severity}\u0000${m.message}`;
            assert.ok(!seenOnLine.has(same), `${path}:${m.line} has the same finding twice: ${m.message}`);
            seenOnLine.add(same);
            if (m.severity < 1) continue;
            const key = `${name}\t${path}\t${rule}`;
            found.add(key);
            if (!accepted.includes(key)) unlisted.push(`${path}:${m.line}:${m.column} [${rule}] ${m.message}`);
          }
        }
        assert.deepEqual(unlisted, [], `${unlisted.length} unlisted errors/warnings in ${name}`);
        const lost = accepted.filter((a) => a.startsWith(`${name}\t`) && !found.has(a));
        assert.deepEqual(lost, [], `reviewed true findings in ${name} are no longer found`);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});
