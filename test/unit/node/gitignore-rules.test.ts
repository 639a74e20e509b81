import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ignore from 'ignore';
import { gitignoreRules } from '../../../server/src/node/facts';

/** Every file and folder below `dir` (folders with a trailing `/`), relative to it, `.git` left out; at most `limit`. */
function pathsBelow(dir: string, limit: number): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= limit || e.name === '.git') continue;
      const abs = join(d, e.name);
      const rel = relative(dir, abs).split('\\').join('/');
      if (e.isDirectory()) {
        out.push(`${rel}/`);
        visit(abs);
      } else out.push(rel);
    }
  };
  visit(dir);
  return out;
}

/** `.gitignore` files below `dir`. */
function gitignoresBelow(dir: string): string[] {
  return pathsBelow(dir, 200_000).filter((p) => p === '.gitignore' || p.endsWith('/.gitignore')).map((p) => join(dir, p));
}

function same(text: string, paths: readonly string[], where: string): number {
  const fast = gitignoreRules(text);
  const full = ignore().add(text);
  for (const p of paths) {
    const a = fast.test(p);
    const b = full.test(p);
    assert.deepEqual({ ignored: a.ignored, unignored: a.unignored }, { ignored: b.ignored, unignored: b.unignored }, `${where}: ${p}`);
  }
  return paths.length;
}

describe('gitignoreRules: the same answers as the ignore package, fewer rules tried', () => {
  const synthetic = [
    'a.pyc', 'A.PYC', 'x/a.pyc', 'x/a.pyc/', 'build', 'build/', 'x/build/', 'x/build/y.py', 'Build/y.py', 'x/y/z/.env', '.env', '.env/',
    'dist/a.js', 'src/dist', 'pkg.egg-info/', 'pkg.egg-info/PKG-INFO', 'docs/_build/x.html', 'site/x', 'x/site/y', 'logs/a.log', 'a.log',
    'node_modules/x/y.js', 'x/node_modules/', '.pyc', 'pyc', 'a.pyc.txt', 'x.tar.gz', 'keep.py', 'deep/a/b/c/d/e.py', 'K\u212Aeep/x',
    '\u017F.pyc', 'a b/c.py', 'ü/ß.PYC',
  ];
  const texts: Record<string, string> = {
    // Indexed lines (names, `*` + end), dir-only lines and others (anchored, classes, `**`) mixed.
    plain: '*.pyc\n*.log\nbuild/\ndist\n.env\n*.egg-info/\nnode_modules/\n__pycache__\n*.tar.gz\n/site\ndocs/_build/\n*.py[cod]\n**/logs/\n# comment\n\nfoo bar\nx?y\n',
    negation: '*.pyc\n*.log\nbuild/\ndist\n.env\n*.egg-info/\nnode_modules/\n__pycache__\n!keep.pyc\n',
    crlf: '*.pyc\r\n*.log\r\nbuild/\r\ndist\r\n.env\r\n*.egg-info/\r\nnode_modules/\r\n__pycache__\r\n*.tar.gz\r\n',
    bom: '\ufeff*.pyc\n*.log\nbuild/\ndist\n.env\n*.egg-info/\nnode_modules/\n__pycache__\n*.tar.gz\n',
    spaces: '*.pyc \n*.log\nbuild/  \ndist\n.env\\ \n*.egg-info/\nnode_modules/\n__pycache__\n*.tar.gz\n',
    dots: '.\n..\n*.\n*..\n.*\n*.pyc\n*.log\nbuild/\ndist\n.env\n*.egg-info/\n',
  };
  for (const [name, text] of Object.entries(texts)) {
    it(`${name}: every synthetic path`, () => {
      same(text, synthetic, name);
    });
  }

  it('every .gitignore of ../shared/real-repos and /work/corpus against the paths below it', function () {
    const roots = [join(__dirname, '..', '..', '..', '..', 'shared', 'real-repos'), '/work/corpus'].filter((d) => existsSync(d));
    if (roots.length === 0) this.skip();
    let files = 0;
    let checked = 0;
    for (const root of roots) {
      for (const file of gitignoresBelow(root)) {
        const text = readFileSync(file, 'utf8');
        checked += same(text, [...pathsBelow(dirname(file), 20_000), ...synthetic], file);
        files++;
      }
    }
    assert.ok(files > 5 && checked > 10_000, `${files} files, ${checked} paths`);
  });
});
