import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPOSITORY_URL } from '../../../server/src/core/docs';

const ROOT = join(__dirname, '..', '..', '..');

function walk(dir: string, filter: (p: string) => boolean): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  const visit = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === 'node_modules' || name === 'dist' || name === 'out') continue;
      const abs = join(d, name);
      if (statSync(abs).isDirectory()) visit(abs);
      else if (filter(abs)) out.push(abs);
    }
  };
  visit(dir);
  return out;
}

describe('project invariants', () => {
  it('core imports no vscode, LSP, fs, child_process or network modules', () => {
    const forbidden = /from\s+['"](vscode|vscode-languageserver[^'"]*|vscode-languageclient[^'"]*|(node:)?(fs|fs\/promises|child_process|net|tls|http|https|dns))['"]|require\(['"](vscode|(node:)?(fs|child_process|net|tls|http|https|dns))['"]\)/;
    const offenders = walk(join(ROOT, 'server', 'src', 'core'), (p) => p.endsWith('.ts')).filter((f) => forbidden.test(readFileSync(f, 'utf8')));
    assert.deepEqual(offenders.map((f) => relative(ROOT, f)), []);
  });

  it('no shipped file refers to ../shared', () => {
    const files = [...walk(join(ROOT, 'client'), () => true), ...walk(join(ROOT, 'server'), () => true), ...walk(join(ROOT, 'docs'), () => true), join(ROOT, 'README.md')].filter(existsSync);
    const offenders = files.filter((f) => readFileSync(f, 'utf8').includes('../shared'));
    assert.deepEqual(offenders.map((f) => relative(ROOT, f)), []);
  });

  it('git tracks every fixture, case and example file the suites use', function () {
    let tracked: Set<string>;
    try {
      tracked = new Set(execFileSync('git', ['ls-files', '-z', 'test', 'examples'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean));
    } catch {
      this.skip();
    }
    const used = ['test/fixtures', 'test/cases', 'test/corpus', 'test/e2e/workspace', 'examples'].flatMap((d) => walk(join(ROOT, d), () => true)).map((f) => relative(ROOT, f));
    const untracked = used.filter((f) => !tracked.has(f));
    assert.deepEqual(untracked, [], 'commit these files (and make sure .gitignore never matches test/ or examples/)');
    const ignoredCheck = spawnSync('git', ['check-ignore', '--no-index', '-v', '--stdin'], { cwd: ROOT, input: used.join('\n'), encoding: 'utf8' });
    const byRootIgnore = ignoredCheck.stdout.split('\n').filter((line) => line.startsWith('.gitignore:'));
    assert.deepEqual(byRootIgnore, [], 'the project .gitignore matches fixture files (fixtures may carry their own .gitignore)');
  });

  it('the docs URL base matches package.json repository', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    assert.equal(pkg.repository.url.replace(/\.git$/, ''), REPOSITORY_URL);
  });

  it('the bins npm links after `npm ci` exist before the build, and the lockfile agrees', () => {
    const server = JSON.parse(readFileSync(join(ROOT, 'server', 'package.json'), 'utf8'));
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
    assert.deepEqual(lock.packages.server.bin, server.bin, 'run "npm install --package-lock-only"');
    for (const target of Object.values(server.bin) as string[]) {
      assert.ok(!target.startsWith('dist/'), `${target}: a built file does not exist when npm links bins`);
      assert.ok(existsSync(join(ROOT, 'server', target)), target);
    }
  });
});
