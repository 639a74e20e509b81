import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatOf } from '../../../server/src/core/files';
import { RULES } from '../../../server/src/core/rules/index';
import { ruleRows } from '../../../server/src/cli/rules-command';
import { CONFIG_SCHEMA } from '../../../server/src/node/config';
import { SECTIONS, lintExample, parseExamples, sectionText, sectionsOf } from './pages';

const ROOT = join(__dirname, '..', '..', '..');
const DOCS = join(ROOT, 'docs', 'rules');
const pages = existsSync(DOCS) ? readdirSync(DOCS).filter((n) => n.endsWith('.md')).map((n) => n.slice(0, -3)) : [];
const ids = RULES.map((r) => r.meta.id);
/** Pages whose examples need the workspace env index of their `context` files. */
const CROSS_FILE = new Set(['model-not-served', 'api-key-server-mismatch', 'dotenv-example-drift']);

/** The header line every page carries under its title; generated from meta, so drift fails. */
function metaLine(id: string): string {
  const { meta } = RULES.find((r) => r.meta.id === id)!;
  return `Default severity: **${meta.defaultSeverity}** · Fix: **${meta.fixable || 'none'}** · Formats: ${meta.formats.join(', ')}`;
}

describe('rule docs', () => {
  it('every registered rule has docs/rules/<id>.md', () => {
    const missing = ids.filter((id) => !pages.includes(id));
    assert.deepEqual(missing, [], `write ${missing.map((id) => `docs/rules/${id}.md`).join(', ')} (start from docs/rule-template.md)`);
  });

  it('every docs page documents a registered rule', () => {
    const orphans = pages.filter((p) => !ids.includes(p));
    assert.deepEqual(orphans, [], `docs/rules/${orphans.join('.md, docs/rules/')}.md documents no rule in RULES`);
  });

  for (const rule of RULES.filter((r) => pages.includes(r.meta.id))) {
    const id = rule.meta.id;
    const markdown = readFileSync(join(DOCS, `${id}.md`), 'utf8');
    const examples = parseExamples(markdown);
    const context = examples.filter((e) => e.kind === 'context');

    describe(id, () => {
      it('has the title, the meta line and the fixed sections in order', () => {
        const lines = markdown.split('\n');
        assert.equal(lines[0], `# ${id}`);
        assert.ok(lines.includes(metaLine(id)), `the page must contain the line:\n${metaLine(id)}`);
        assert.deepEqual(sectionsOf(markdown), [...SECTIONS]);
        assert.match(sectionText(markdown, 'Why it breaks a rollout'), /^Sources?:/m, 'the "Why" section must name its sources ("Sources: …")');
        assert.doesNotMatch(markdown, /[?&](utm_[a-z]+|fbclid|gclid)=[^\s)]*\)/, 'no tracking parameters in links');
      });

      it('has a wrong and a right example for each of its formats', () => {
        for (const format of rule.meta.formats) {
          for (const kind of ['wrong', 'right'] as const) {
            assert.ok(
              examples.some((e) => e.kind === kind && formatOf(e.title) === format),
              `no ${kind} example for ${format}: add a block like \`\`\`${format} title="<file>" ${kind}`,
            );
          }
        }
      });

      for (const example of examples.filter((e) => e.kind !== 'context')) {
        it(`${example.kind} example ${example.title} (line ${example.line})`, async () => {
          const findings = await lintExample(example, context, CROSS_FILE.has(id));
          const got = findings.map((f) => `${f.ruleId} (${f.severity}): ${f.message}`);
          if (example.kind === 'right') assert.deepEqual(got, [], 'a right example must lint clean');
          else {
            assert.ok(findings.length > 0, `a wrong example must yield ${id}`);
            assert.deepEqual(got.filter((g) => !g.startsWith(`${id} `)), [], `a wrong example must yield ${id} only`);
          }
        });
      }
    });
  }
});

describe('generated from the registry', () => {
  let render: typeof import('../../../scripts/lib/rules-render.mjs', { with: { 'resolution-mode': 'import' } });
  before(async () => {
    render = await import('../../../scripts/lib/rules-render.mjs');
  });

  it('the README rule table is current', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    assert.equal(readme, render.replaceRulesSection(readme, render.renderRulesTable(ruleRows())), 'run "npm run build && node scripts/sync-rules.mjs --write"');
  });

  it('the README table links each id to its docs page', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const id of ids) assert.ok(readme.includes(`[\`${id}\`](docs/rules/${id}.md)`), id);
  });

  it('the config schema rule list is current', () => {
    assert.deepEqual(CONFIG_SCHEMA, render.withRulesSchema(CONFIG_SCHEMA as { properties: Record<string, unknown> }, ruleRows()), 'run "npm run build && node scripts/sync-rules.mjs --write"');
  });
});
