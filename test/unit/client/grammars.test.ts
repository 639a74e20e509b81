import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Structural checks of syntaxes/. Tokenisation itself is tested by `npm run test:grammar`
 * (vscode-tmgrammar-test over syntaxes/test/*.test.*), which needs that package installed.
 */
const ROOT = join(__dirname, '..', '..', '..');
const SYNTAXES = join(ROOT, 'syntaxes');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

type Rule = Record<string, unknown>;

function* regexes(node: unknown, path: string): Generator<[string, string]> {
  if (Array.isArray(node)) {
    for (const [i, n] of node.entries()) yield* regexes(n, `${path}[${i}]`);
  } else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node as Rule)) {
      if ((k === 'match' || k === 'begin' || k === 'end') && typeof v === 'string') yield [`${path}.${k}`, v];
      else yield* regexes(v, `${path}.${k}`);
    }
  }
}

function* includes(node: unknown): Generator<string> {
  if (Array.isArray(node)) for (const n of node) yield* includes(n);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node as Rule)) {
      if (k === 'include' && typeof v === 'string') yield v;
      else yield* includes(v);
    }
  }
}

describe('TextMate grammars (syntaxes/)', () => {
  for (const g of pkg.contributes.grammars as { path: string; scopeName: string; language: string }[]) {
    describe(g.path, () => {
      const grammar = JSON.parse(readFileSync(join(ROOT, g.path), 'utf8'));

      it('has regexes that compile (the subset shared by Oniguruma and JavaScript)', () => {
        for (const [where, source] of regexes(grammar, '$')) {
          assert.doesNotThrow(() => new RegExp(source, 'u'), `${where}: ${source}`);
        }
      });

      it('includes only repository entries it defines, or the built-in source.dotenv', () => {
        for (const target of includes(grammar)) {
          if (target.startsWith('#')) assert.ok(grammar.repository?.[target.slice(1)], target);
          else assert.equal(target, 'source.dotenv', `external include ${target}`);
        }
      });

      it('names every scope with its language suffix', () => {
        const names = JSON.stringify({ patterns: grammar.patterns, repository: grammar.repository }).match(/"name":\s*"[^"]+"/g) ?? [];
        const suffix = g.scopeName === 'source.dotenv.rollout-lint' ? /\.(dotenv|rollout-lint)$/ : /\.rollout-lint-report$/;
        assert.ok(names.length > 0);
        for (const n of names.map((x) => JSON.parse(`{${x}}`).name as string)) {
          for (const scope of n.split(' ')) assert.match(scope, suffix, scope);
        }
      });
    });
  }

  it('the dotenv grammar defers to the built-in dotenv grammar when VS Code has one', () => {
    const grammar = JSON.parse(readFileSync(join(SYNTAXES, 'dotenv.tmLanguage.json'), 'utf8'));
    assert.deepEqual(grammar.patterns[0], { include: 'source.dotenv' });
    assert.notEqual(grammar.scopeName, 'source.dotenv', 'never the built-in scope name (that would overwrite it)');
  });

  it('has a vscode-tmgrammar-test file per grammar, naming a contributed scope', () => {
    const tests = readdirSync(join(SYNTAXES, 'test')).filter((f) => /\.test\./.test(f));
    const scopes = tests.map((f) => /SYNTAX TEST "([^"]+)"/.exec(readFileSync(join(SYNTAXES, 'test', f), 'utf8').split('\n')[0])?.[1]);
    assert.deepEqual(scopes.sort(), (pkg.contributes.grammars as { scopeName: string }[]).map((g) => g.scopeName).sort());
  });
});
