#!/usr/bin/env node
// Keeps what is generated from the rule registry in step with it, using the built CLI's
// `rollout-lint rules --json` (run `npm run build` first):
//   - the README table between <!-- rules:start --> and <!-- rules:end -->
//   - `properties.rules` of schemas/rolloutlintrc.schema.json
// and checks that every rule has docs/rules/<id>.md and every page a rule.
//
//   node scripts/sync-rules.mjs           check only; exit 1 and say what is stale
//   node scripts/sync-rules.mjs --write   rewrite the README section and the schema
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderRulesTable, replaceRulesSection, withRulesSchema } from './lib/rules-render.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const write = process.argv.includes('--write');
const cli = join(root, 'server', 'dist', 'cli.js');
if (!existsSync(cli)) {
  console.error(`sync-rules: ${cli} is missing; run "npm run build" first`);
  process.exit(2);
}
const rows = JSON.parse(execFileSync(process.execPath, [cli, 'rules', '--json'], { encoding: 'utf8' }));
const problems = [];

const docsDir = join(root, 'docs', 'rules');
const pages = existsSync(docsDir) ? readdirSync(docsDir).filter((n) => n.endsWith('.md')).map((n) => n.slice(0, -3)) : [];
for (const r of rows) {
  if (!pages.includes(r.id)) problems.push(`rule "${r.id}" has no docs page: write docs/rules/${r.id}.md (start from docs/rule-template.md)`);
}
for (const p of pages) {
  if (!rows.some((r) => r.id === p)) problems.push(`docs/rules/${p}.md documents no registered rule: remove it or register the rule in server/src/core/rules/index.ts`);
}

const readmePath = join(root, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const nextReadme = replaceRulesSection(readme, renderRulesTable(rows));
const schemaPath = join(root, 'schemas', 'rolloutlintrc.schema.json');
const schemaText = readFileSync(schemaPath, 'utf8');
const nextSchema = `${JSON.stringify(withRulesSchema(JSON.parse(schemaText), rows), null, 2)}\n`;

for (const [path, before, after] of [
  [readmePath, readme, nextReadme],
  [schemaPath, schemaText, nextSchema],
]) {
  if (before === after) continue;
  if (write) writeFileSync(path, after);
  else problems.push(`${path} is stale: run "node scripts/sync-rules.mjs --write"`);
}
for (const p of problems) console.error(`sync-rules: ${p}`);
process.exit(problems.length ? 1 : 0);
