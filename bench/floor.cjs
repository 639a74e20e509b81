'use strict';
/**
 * The parse floors the CLI is compared with (issue 16), run as their own process like the CLI:
 *   node bench/floor.cjs b <root>   walk + read + one trigger regex
 *   node bench/floor.cjs c <root>   … + the real parsers (yaml, jsonc-parser, dotenv, tree-sitter) on the hits only
 * The walk skips the same directories as server/src/node/walk.ts (SKIPPED_DIRECTORIES) and keeps the
 * same file names as core/files.ts formatOf; the regex is core/files.ts TRIGGER_TOKENS. No .gitignore,
 * no rules: a lower bound for any linter that must read every candidate file.
 * Prints one JSON line: {files, bytes, hits, parsed}.
 */
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const SKIPPED = new Set(['node_modules', '.git', '.hg', '.svn', '.venv', 'venv', '__pycache__', '.mypy_cache', '.pytest_cache', '.tox']);
const TRIGGER = /base_?url|api_base|api_key|apikey|auth_token|openai_key|logprob|router[_-]ip|server_host|no_proxy|_proxy=|chat\/completions|\/v1\b/i;

function formatOf(name) {
  const n = name.toLowerCase();
  if (n === '.env' || n.startsWith('.env.') || n.endsWith('.env')) return 'dotenv';
  if (/\.ya?ml$/.test(n)) return 'yaml';
  if (/\.jsonc?$/.test(n)) return 'json';
  if (/\.pyi?$/.test(n)) return 'python';
  if (/\.(sh|bash)$/.test(n)) return 'shell';
  return undefined;
}

async function main() {
  const [mode, root] = process.argv.slice(2);
  if ((mode !== 'b' && mode !== 'c') || !root) throw new Error('usage: floor.cjs b|c <root>');
  let parsers;
  if (mode === 'c') {
    const { Parser, Language } = require('web-tree-sitter');
    const dir = join(__dirname, '..', 'server', 'dist', 'grammars');
    await Parser.init({ locateFile: (name) => join(dir, name) });
    const [python, bash] = await Promise.all([Language.load(join(dir, 'tree-sitter-python.wasm')), Language.load(join(dir, 'tree-sitter-bash.wasm'))]);
    const ts = (language) => {
      const parser = new Parser();
      parser.setLanguage(language);
      return (text) => parser.parse(text).delete();
    };
    const yaml = require('yaml');
    const jsonc = require('jsonc-parser');
    const dotenv = require('dotenv');
    parsers = {
      python: ts(python),
      shell: ts(bash),
      yaml: (text) => yaml.parseAllDocuments(text, { lineCounter: new yaml.LineCounter(), keepSourceTokens: true }),
      json: (text) => jsonc.parseTree(text, [], { allowTrailingComma: true }),
      dotenv: (text) => dotenv.parse(text),
    };
  }
  let files = 0;
  let bytes = 0;
  let hits = 0;
  let parsed = 0;
  const visit = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) {
        if (!SKIPPED.has(e.name)) visit(join(dir, e.name));
        continue;
      }
      if (!e.isFile()) continue;
      const format = formatOf(e.name);
      if (!format) continue;
      const text = readFileSync(join(dir, e.name), 'utf8');
      files++;
      bytes += text.length;
      if (!TRIGGER.test(text)) continue;
      hits++;
      if (parsers) {
        parsers[format](text);
        parsed++;
      }
    }
  };
  visit(root);
  process.stdout.write(`${JSON.stringify({ files, bytes, hits, parsed })}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
