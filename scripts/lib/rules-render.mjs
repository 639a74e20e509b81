// Pure renderers shared by scripts/sync-rules.mjs and the docs meta-tests: the README rule table
// and the `rules` part of schemas/rolloutlintrc.schema.json, both from `rollout-lint rules --json` rows.

export const README_START = '<!-- rules:start -->';
export const README_END = '<!-- rules:end -->';

/** Levels a rule can be set to in `.rolloutlintrc.json` (a severity or `off`). */
export const RULE_LEVELS = ['error', 'warning', 'hint', 'off'];

const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** The Markdown table (no markers) linking each id to `docs/rules/<id>.md`. */
export function renderRulesTable(rows) {
  const lines = [
    '| Rule | What it catches | Default | Fix | Formats |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| [\`${r.id}\`](docs/rules/${r.id}.md) | ${cell(r.summary)} | ${r.defaultSeverity} | ${r.fixable || '—'} | ${r.formats.join(', ')} |`),
  ];
  return lines.join('\n');
}

/**
 * Replaces what lies between the rules markers in `readme` with `table`. Throws when a marker is
 * missing, duplicated or out of order.
 */
export function replaceRulesSection(readme, table) {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < 0 || end < start || readme.indexOf(README_START, start + 1) >= 0 || readme.indexOf(README_END, end + 1) >= 0) {
    throw new Error(`README.md must contain ${README_START} and ${README_END} once each, in that order`);
  }
  const eol = readme.includes('\r\n') ? '\r\n' : '\n';
  return readme.slice(0, start + README_START.length) + eol + table.replace(/\n/g, eol) + eol + readme.slice(end);
}

/** The `properties.rules` subschema: one property per registered rule, no others. */
export function renderRulesSchema(rows) {
  return {
    type: 'object',
    description: 'Rule levels by rule id: error, warning, hint or off. Unlisted rules keep their default.',
    properties: Object.fromEntries(
      rows.map((r) => [r.id, { enum: RULE_LEVELS, description: `${r.summary} (default: ${r.defaultSeverity}). ${r.docsUrl}` }]),
    ),
    additionalProperties: false,
  };
}

/** `schema` with its `properties.rules` replaced by the rendered one (other keys untouched, order kept). */
export function withRulesSchema(schema, rows) {
  return { ...schema, properties: { ...schema.properties, rules: renderRulesSchema(rows) } };
}
