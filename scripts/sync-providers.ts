// Keeps the README providers table (between <!-- providers:start --> and <!-- providers:end -->) in
// step with the built-in provider profiles (server/src/core/providers/builtin.ts).
//
//   npx tsx scripts/sync-providers.ts           check only; exit 1 when stale
//   npx tsx scripts/sync-providers.ts --write   rewrite the README section
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_PROVIDERS } from '../server/src/core/providers/profiles';
import { renderProvidersTable, replaceProvidersSection } from '../server/src/core/providers/table';

const readmePath = join(__dirname, '..', 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const next = replaceProvidersSection(readme, renderProvidersTable(BUILTIN_PROVIDERS));
if (next === readme) process.exit(0);
if (process.argv.includes('--write')) writeFileSync(readmePath, next);
else {
  console.error('sync-providers: README.md providers table is stale: run "npx tsx scripts/sync-providers.ts --write"');
  process.exit(1);
}
