import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { DEFAULT_CONFIG } from '../../../server/src/core/config/config';
import type { Role, Severity } from '../../../server/src/core/model/types';
import { RULES } from '../../../server/src/core/rules/index';
import { CONFIG_SCHEMA, ConfigError, invalidate, loadConfigFor, nearestConfigFile } from '../../../server/src/node/config';
import { runCli, workspace } from './helpers';

const DUP = 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\n';
const RULE = 'base-url-duplicate-v1';
const rc = (value: unknown) => JSON.stringify(value, null, 2);

/** Every role, so adding one to `Role` fails type-checking here until the schema lists it too. */
const ROLES: Record<Role, true> = {
  baseUrl: true, host: true, port: true, apiKey: true, header: true, logprobs: true, topLogprobs: true,
  model: true, proxy: true, noProxy: true, maxLogprobs: true, apiType: true, apiVersion: true,
};
const SEVERITIES: Record<Severity, true> = { error: true, warning: true, hint: true };

type SchemaNode = { properties: Record<string, { enum?: string[]; properties?: Record<string, unknown> }> };

describe('configuration (.rolloutlintrc.json)', () => {
  afterEach(() => invalidate());

  describe('the shipped schema', () => {
    const schema = CONFIG_SCHEMA as unknown as SchemaNode;

    it('is the file in schemas/ and compiles under Ajv strict mode', () => {
      const onDisk = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'schemas', 'rolloutlintrc.schema.json'), 'utf8'));
      assert.deepEqual(onDisk, CONFIG_SCHEMA);
      new Ajv({ strict: true, strictRequired: false }).compile(CONFIG_SCHEMA);
    });

    it('lists exactly the registered rule ids, each with the levels error, warning, hint and off', () => {
      const rules = schema.properties.rules as unknown as { properties: Record<string, { enum: string[] }>; additionalProperties: boolean };
      assert.deepEqual(Object.keys(rules.properties), RULES.map((r) => r.meta.id), 'run "node scripts/sync-rules.mjs --write" after adding a rule');
      assert.equal(rules.additionalProperties, false);
      for (const [id, p] of Object.entries(rules.properties)) assert.deepEqual(p.enum, [...Object.keys(SEVERITIES), 'off'], id);
    });

    it('lists every role under extraKeys', () => {
      assert.deepEqual(Object.keys(schema.properties.extraKeys.properties ?? {}).sort(), Object.keys(ROLES).sort());
    });

    it('accepts the defaults', () => {
      const { rules: _rules, extraProviders: _p, ...rest } = DEFAULT_CONFIG;
      assert.ok(new Ajv({ strict: false }).validate(CONFIG_SCHEMA, { ...rest, rules: { [RULE]: 'off' } }));
    });
  });

  describe('loadConfigFor', () => {
    it('uses the nearest file walking up to the root, merged over the defaults', () => {
      const ws = workspace({
        '.rolloutlintrc.json': rc({ rules: { [RULE]: 'off' }, maxFileBytes: 1000 }),
        'a/b/.rolloutlintrc.json': rc({ rules: { [RULE]: 'warning' } }),
        'a/b/c/.env': DUP,
        'a/.env': DUP,
      });
      try {
        const deep = loadConfigFor(join(ws.root, 'a/b/c/.env'), ws.root);
        assert.equal(deep.source, join(ws.root, 'a/b/.rolloutlintrc.json'));
        assert.equal(deep.config.rules[RULE], 'warning');
        assert.equal(deep.config.maxFileBytes, DEFAULT_CONFIG.maxFileBytes, 'the nearest file wins whole; no cascade from the root file');
        assert.deepEqual(deep.config.rolloutGlobs, DEFAULT_CONFIG.rolloutGlobs);
        const near = loadConfigFor(join(ws.root, 'a/.env'), ws.root);
        assert.equal(near.source, join(ws.root, '.rolloutlintrc.json'));
        assert.equal(near.config.maxFileBytes, 1000);
      } finally {
        ws.cleanup();
      }
    });

    it('returns the defaults without a file, and stops at the root', () => {
      const ws = workspace({ 'inner/.env': DUP, '.rolloutlintrc.json': rc({ rules: { [RULE]: 'off' } }) });
      try {
        const inner = join(ws.root, 'inner');
        const loaded = loadConfigFor(join(inner, '.env'), inner);
        assert.equal(loaded.source, undefined);
        assert.deepEqual(loaded.config, DEFAULT_CONFIG);
        assert.equal(nearestConfigFile(inner, ws.root), join(ws.root, '.rolloutlintrc.json'));
      } finally {
        ws.cleanup();
      }
    });

    it('is cached until invalidate()', () => {
      const ws = workspace({ '.rolloutlintrc.json': rc({ rules: { [RULE]: 'off' } }) });
      try {
        const file = join(ws.root, '.env');
        assert.equal(loadConfigFor(file, ws.root).config.rules[RULE], 'off');
        writeFileSync(join(ws.root, '.rolloutlintrc.json'), rc({ rules: { [RULE]: 'hint' } }));
        assert.equal(loadConfigFor(file, ws.root).config.rules[RULE], 'off');
        invalidate();
        assert.equal(loadConfigFor(file, ws.root).config.rules[RULE], 'hint');
      } finally {
        ws.cleanup();
      }
    });

    it('completes extra provider profiles from their first base and accepts comments', () => {
      const text = `// team gateway\n{\n  "extraProviders": [{ "id": "gw", "name": "Gateway", "hosts": ["llm.example.com"], "openaiBases": ["https://llm.example.com/v1/"] }],\n}\n`;
      const ws = workspace({ '.rolloutlintrc.json': text });
      try {
        const [p] = loadConfigFor(join(ws.root, 'x.env'), ws.root).config.extraProviders;
        assert.equal(p.chatUrl, 'https://llm.example.com/v1/chat/completions');
        assert.equal(p.modelsUrl, 'https://llm.example.com/v1/models');
        assert.equal(p.logprobs, 'unknown');
        assert.match(p.source, /\.rolloutlintrc\.json/);
      } finally {
        ws.cleanup();
      }
    });

    it('throws a ConfigError naming the file, the JSON path, the position and the reason', () => {
      const ws = workspace({ '.rolloutlintrc.json': `{\n  "rules": {\n    "base-url-dupe": "off"\n  }\n}\n` });
      try {
        assert.throws(
          () => loadConfigFor(join(ws.root, '.env'), ws.root),
          (e: unknown) => {
            assert.ok(e instanceof ConfigError);
            assert.equal(e.file, join(ws.root, '.rolloutlintrc.json'));
            assert.deepEqual(e.problems, [{ jsonPath: '$.rules["base-url-dupe"]', line: 3, column: 5, reason: 'unknown rule id "base-url-dupe" (see "rollout-lint rules")' }]);
            return true;
          },
        );
      } finally {
        ws.cleanup();
      }
    });
  });

  describe('through the CLI', () => {
    const bad: [string, string, RegExp][] = [
      ['a bad level', rc({ rules: { [RULE]: 'warn' } }), /:3:5: \$\.rules\["base-url-duplicate-v1"\]: "warn" is not allowed; use one of "error", "warning", "hint", "off"/],
      ['an unknown option', rc({ rulez: {} }), /:2:3: \$\.rulez: unknown option "rulez"/],
      ['a wrong type', rc({ maxFileBytes: '5MB' }), /:2:3: \$\.maxFileBytes: "5MB": must be integer/],
      ['an incomplete provider', rc({ extraProviders: [{ id: 'gw', name: 'G', openaiBases: ['https://gw.example/v1'] }] }), /\$\.extraProviders\[0\]: must set one of "hosts" or "localPorts"/],
      ['an unknown role', rc({ extraKeys: { baseURL: ['X'] } }), /\$\.extraKeys\.baseURL: unknown property "baseURL"/],
      ['broken JSON', '{\n  "rules": {\n    "a": "off",,\n  }\n}', /:3:16: \$: not valid JSON: PropertyNameExpected/],
    ];
    for (const [what, text, expected] of bad) {
      it(`exits 2 on ${what}, printing file, JSON path and reason and nothing on stdout`, async () => {
        const ws = workspace({ 'sub/.rolloutlintrc.json': text, 'sub/.env': DUP, '.env': DUP });
        try {
          const { code, out, err } = await runCli(ws.root, []);
          assert.equal(code, 2);
          assert.equal(out, '');
          assert.ok(err.includes(join(ws.root, 'sub', '.rolloutlintrc.json')), err);
          assert.match(err, expected);
        } finally {
          ws.cleanup();
        }
      });
    }

    it('applies severities per directory (nearest file wins)', async () => {
      const ws = workspace({
        '.rolloutlintrc.json': rc({ rules: { [RULE]: 'warning' } }),
        'legacy/.rolloutlintrc.json': rc({ rules: { [RULE]: 'off' } }),
        '.env': DUP,
        'legacy/.env': DUP,
        'svc/.env': DUP,
      });
      try {
        const { code, out } = await runCli(ws.root, ['--format', 'json']);
        const results = JSON.parse(out) as { filePath: string; messages: { ruleId: string; severity: number }[] }[];
        const byFile = Object.fromEntries(results.map((r) => [r.filePath.slice(ws.root.length + 1), r.messages.map((m) => `${m.ruleId}:${m.severity}`)]));
        assert.deepEqual(byFile, { '.env': [`${RULE}:1`], 'legacy/.env': [], 'svc/.env': [`${RULE}:1`] });
        assert.equal(code, 0);
      } finally {
        ws.cleanup();
      }
    });

    it('skips files matched by ignore, and applies maxFileBytes and extraKeys', async () => {
      const ws = workspace({
        '.rolloutlintrc.json': rc({ ignore: ['vendor/**'], maxFileBytes: 200, extraKeys: { baseUrl: ['ROUTER_ENDPOINT'] } }),
        'vendor/.env': DUP,
        'big.env': `# ${'x'.repeat(300)}\n`,
        'router.env': 'ROUTER_ENDPOINT=https://api.openai.com/v1/v1\n',
      });
      try {
        const { out } = await runCli(ws.root, ['--format', 'json']);
        const results = JSON.parse(out) as { filePath: string; messages: { ruleId: string }[] }[];
        const byFile = Object.fromEntries(results.map((r) => [r.filePath.slice(ws.root.length + 1), r.messages.map((m) => m.ruleId)]));
        assert.deepEqual(byFile, { 'big.env': ['skipped-file'], 'router.env': [RULE] });
      } finally {
        ws.cleanup();
      }
    });
  });
});
