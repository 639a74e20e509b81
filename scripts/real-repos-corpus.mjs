#!/usr/bin/env node
// Re-materialises the real-repository corpus (test/real-repos/SOURCES.tsv) from local bare git
// snapshots: for each repository, the files the walker would read at the listed commit — `.env*`,
// `*.env`, YAML, JSON/JSONC/JSON5 up to 64 KB, Python, shell, TOML, notebooks, JavaScript/TypeScript
// that reads `process.env`, Jinja/Go templates (`*.j2`, `*.jinja`, `*.tpl`, `*.tmpl`), `.gitignore`
// and licence files — into ROLLOUT_LINT_CORPUS/<name>/ (default /work/corpus). Snapshots are read from
// ROLLOUT_LINT_MIRROR/<owner>+<repo>/repo (default /work/.mirror). Nothing is checked out and no hook
// runs: blobs are read with `git cat-file`. The corpus is test data kept outside the project; only
// this script and SOURCES.tsv are committed. Usage: node scripts/real-repos-corpus.mjs [name...]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MIRROR = process.env.ROLLOUT_LINT_MIRROR || '/work/.mirror';
const CORPUS = process.env.ROLLOUT_LINT_CORPUS || '/work/corpus';
const MAX_BYTES = 1024 * 1024;
const MAX_JSON_BYTES = 64 * 1024;

/** Whether the walker could read a file at this repository path (size in bytes). */
function wanted(path, size) {
  const name = path.split('/').pop().toLowerCase();
  if (/^(licen[cs]e|copying)(\.|$)/.test(name) && !path.includes('/')) return true;
  if (/(^|\/)(node_modules|\.git)\//.test(path)) return false;
  if (name === '.gitignore') return true;
  if (name === '.env' || name.startsWith('.env.') || name.endsWith('.env')) return size <= MAX_BYTES;
  if (/\.json[c5]?$/.test(name)) return size <= MAX_JSON_BYTES;
  if (/\.(ya?ml|pyi?|ipy|sh|bash|toml|ipynb|j2|jinja2?|tpl|tmpl)$/.test(name)) return size <= MAX_BYTES;
  if (/\.(m|c)?(j|t)sx?$/.test(name)) return size <= MAX_JSON_BYTES * 4 && !/\.d\.(m|c)?ts$|\.min\.js$/.test(name) ? 'js' : false;
  return false;
}

function git(gitDir, args, input) {
  return execFileSync('git', ['-c', 'core.fsmonitor=false', `--git-dir=${gitDir}`, ...args], { input, maxBuffer: 1 << 30 });
}

const sources = readFileSync(join(PROJECT, 'test', 'real-repos', 'SOURCES.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => {
    const [name, repo, commit, kind] = l.split('\t');
    return { name, repo, commit, kind };
  });
const only = process.argv.slice(2);
let failed = 0;
for (const { name, repo, commit } of sources) {
  if (only.length && !only.includes(name)) continue;
  const gitDir = join(MIRROR, repo.replace('/', '+'), 'repo');
  if (!existsSync(gitDir)) {
    console.error(`${name}: no snapshot at ${gitDir} (fetch github:${repo} first)`);
    failed++;
    continue;
  }
  const entries = git(gitDir, ['ls-tree', '-r', '-l', '-z', commit]).toString('utf8').split('\0').filter(Boolean);
  const picked = [];
  for (const entry of entries) {
    const tab = entry.indexOf('\t');
    const [mode, type, sha, size] = entry.slice(0, tab).split(/\s+/);
    const path = entry.slice(tab + 1);
    if (type !== 'blob' || mode === '120000') continue;
    const want = wanted(path, Number(size));
    if (want) picked.push({ path, sha, js: want === 'js' });
  }
  const out = join(CORPUS, name);
  rmSync(out, { recursive: true, force: true });
  let written = 0;
  // One `cat-file --batch` per repository: header "<sha> blob <size>\n", the bytes, then "\n".
  const batch = git(gitDir, ['cat-file', '--batch'], picked.map((p) => p.sha).join('\n') + '\n');
  let at = 0;
  for (const p of picked) {
    const eol = batch.indexOf(10, at);
    const size = Number(batch.subarray(at, eol).toString('latin1').split(' ')[2]);
    const bytes = batch.subarray(eol + 1, eol + 1 + size);
    at = eol + 1 + size + 1;
    if (p.js && !/\bprocess\??\.env\b/.test(bytes.toString('utf8'))) continue;
    const file = join(out, p.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, bytes);
    written++;
  }
  console.log(`${name}\t${repo}@${commit.slice(0, 12)}\t${written} files`);
}
process.exit(failed ? 1 : 0);
