import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintDocument } from '../../../server/src/core/lint';
import { NO_FACTS } from '../../../server/src/core/model/facts';
import { loadGrammars } from '../../../server/src/node/grammars';
import {
  BUILTIN_PROVIDERS,
  documentedBaseFor,
  hostMatches,
  matchProviders,
  matchWebsite,
  providerOfKey,
  type ProfileFact,
  type ProviderProfile,
} from '../../../server/src/core/providers/profiles';
import { renderProvidersTable, replaceProvidersSection } from '../../../server/src/core/providers/table';
import { mergeConfig } from '../../../server/src/core/config/config';
import { parseConfigText } from '../../../server/src/node/config';

const ROOT = join(__dirname, '..', '..', '..');

/** The facts a profile states (present and non-empty); `logprobs: 'unknown'` states nothing. */
function statedFacts(p: ProviderProfile): ProfileFact[] {
  const facts: ProfileFact[] = [];
  const arrays: ProfileFact[] = ['hosts', 'localPorts', 'openaiBases', 'nativeBases', 'websiteHosts', 'keyPrefixes', 'keyEnv', 'baseEnv'];
  for (const f of arrays) if (((p as unknown as Record<string, unknown[] | undefined>)[f] ?? []).length > 0) facts.push(f);
  for (const f of ['chatUrl', 'modelsUrl', 'anthropicBase', 'topLogprobsMax'] as const) if (p[f] !== undefined && p[f] !== '') facts.push(f);
  if (p.logprobs !== 'unknown') facts.push('logprobs');
  return facts;
}

/** A concrete URL for a documented one: `{resource}`/`{region}` become plausible labels, local hosts stay. */
function concrete(url: string): string {
  return url.replace('{resource}', 'my-resource').replace('{region}', 'us-west-2');
}

async function lint(path: string, text: string) {
  return lintDocument({ path, text }, { grammars: await loadGrammars(), facts: NO_FACTS }).findings;
}

describe('provider profiles', () => {
  it('there are at least 35 built-in profiles with unique ids', () => {
    assert.ok(BUILTIN_PROVIDERS.length >= 35, `${BUILTIN_PROVIDERS.length} profiles`);
    const ids = BUILTIN_PROVIDERS.map((p) => p.id);
    assert.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), []);
  });

  for (const p of BUILTIN_PROVIDERS) {
    it(`${p.id}: every stated fact names an http(s) source`, () => {
      const missing = statedFacts(p).filter((f) => !/^https?:\/\/\S+$/.test(p.sources?.[f] ?? ''));
      assert.deepEqual(missing, [], `facts without a source: ${missing.join(', ')}`);
      assert.ok(p.openaiBases.length > 0 && /^https?:\/\//.test(p.docsUrl));
    });
  }

  it('no two profiles claim the same host (API hosts and website hosts alike)', () => {
    const owners = new Map<string, string>();
    const clashes: string[] = [];
    for (const p of BUILTIN_PROVIDERS) {
      for (const h of [...p.hosts, ...(p.websiteHosts ?? [])]) {
        const prior = owners.get(h);
        if (prior) clashes.push(`${h}: ${prior} and ${p.id}`);
        owners.set(h, p.id);
      }
    }
    assert.deepEqual(clashes, []);
  });

  it('no API host of one profile falls under another profile (subdomain matching)', () => {
    const clashes: string[] = [];
    for (const p of BUILTIN_PROVIDERS) {
      for (const b of p.openaiBases) {
        if (p.hosts.length === 0) continue;
        const matched = matchProviders(concrete(b)).map((m) => m.id);
        if (matched.join() !== p.id) clashes.push(`${b} → ${matched.join(', ') || 'nothing'}`);
      }
    }
    assert.deepEqual(clashes, []);
  });

  it('distinctive key prefixes belong to one profile each', () => {
    const seen = new Map<string, string>();
    for (const p of BUILTIN_PROVIDERS) {
      for (const prefix of p.keyPrefixes ?? []) {
        if (prefix === 'sk-') continue;
        assert.equal(seen.get(prefix), undefined, `${prefix} in ${seen.get(prefix)} and ${p.id}`);
        seen.set(prefix, p.id);
      }
    }
    assert.equal(providerOfKey('sk-ant-api03-abc')?.profile.id, 'anthropic');
    assert.equal(providerOfKey('sk-or-v1-abc')?.profile.id, 'openrouter');
    assert.equal(providerOfKey('sk-abcdef'), undefined, 'the shared sk- prefix is not distinctive');
  });

  it('placeholder hosts match one label, wildcards any label', () => {
    assert.ok(hostMatches('{resource}.openai.azure.com', 'my-res.openai.azure.com'));
    assert.ok(!hostMatches('{resource}.openai.azure.com', 'a.b.openai.azure.com'));
    assert.ok(!hostMatches('{resource}.openai.azure.com', 'openai.azure.com.evil.com'));
    assert.deepEqual(matchProviders('https://my-res.openai.azure.com/openai/v1').map((p) => p.id), ['azure-openai']);
    assert.deepEqual(matchProviders('https://bedrock-runtime.eu-central-1.amazonaws.com/openai/v1').map((p) => p.id), ['bedrock']);
    assert.deepEqual(matchProviders('https://s3.us-east-1.amazonaws.com/x').map((p) => p.id), []);
    assert.deepEqual(matchProviders('https://notamazonaws.com').map((p) => p.id), []);
    assert.equal(documentedBaseFor(BUILTIN_PROVIDERS.find((p) => p.id === 'azure-openai')!, 'openai-sdk', 'https://my-res.openai.azure.com'), 'https://my-res.openai.azure.com/openai/v1');
  });

  it('website hosts match exactly, never their subdomains', () => {
    assert.equal(matchWebsite('https://huggingface.co/docs')?.id, 'huggingface');
    assert.equal(matchWebsite('https://router.huggingface.co/v1'), undefined);
  });
});

describe('profiles as evidence: documented URLs lint clean, others are named', () => {
  for (const p of BUILTIN_PROVIDERS) {
    for (const base of p.openaiBases) {
      it(`${p.id}: OPENAI_BASE_URL=${base} is silent`, async () => {
        const findings = await lint('.env', `OPENAI_BASE_URL=${concrete(base)}\n`);
        assert.deepEqual(findings.map((f) => `${f.ruleId} (${f.severity}): ${f.message}`), []);
      });
      it(`${p.id}: OpenAI(base_url="${base}") is silent`, async () => {
        const findings = await lint('client.py', `from openai import OpenAI\n\nclient = OpenAI(base_url="${concrete(base)}", api_key="EMPTY")\n`);
        assert.deepEqual(findings.filter((f) => f.ruleId.startsWith('base-url')).map((f) => `${f.ruleId} (${f.severity}): ${f.message}`), []);
      });
    }
    if (p.anthropicBase) {
      it(`${p.id}: ANTHROPIC_BASE_URL=${p.anthropicBase} is silent`, async () => {
        const findings = await lint('.env', `ANTHROPIC_BASE_URL=${p.anthropicBase}\n`);
        assert.deepEqual(findings.map((f) => `${f.ruleId} (${f.severity}): ${f.message}`), []);
      });
    }
    for (const site of p.websiteHosts ?? []) {
      it(`${p.id}: https://${site}/ as a base URL gets one website finding (and the tracking one, whose fix is safe)`, async () => {
        const findings = await lint('.env', `OPENAI_BASE_URL=https://${site}/?utm_source=x\n`);
        assert.deepEqual(findings.map((f) => f.ruleId), ['base-url-provider-website', 'base-url-query-string']);
        assert.match(findings[0].message, new RegExp(p.name.replace(/[()]/g, '\\$&')));
      });
    }
    for (const native of p.nativeBases ?? []) {
      it(`${p.id}: ${native} under the OpenAI SDK is a native-path finding`, async () => {
        const findings = await lint('.env', `OPENAI_BASE_URL=${native}\n`);
        assert.deepEqual(findings.map((f) => f.ruleId), ['base-url-native-path']);
      });
    }
  }

  it('a page on a host that serves both website and API is named; the API paths are not', async () => {
    for (const url of ['https://taotoken.net/console/keys', 'https://openrouter.ai/docs/quickstart']) {
      assert.deepEqual((await lint('.env', `OPENAI_BASE_URL=${url}\n`)).map((f) => f.ruleId), ['base-url-provider-website'], url);
    }
    // tracking parameters are a second cause with a safe fix of its own
    assert.deepEqual((await lint('.env', 'OPENAI_BASE_URL=https://taotoken.net/docs?utm_source=x\n')).map((f) => f.ruleId), ['base-url-provider-website', 'base-url-query-string']);
    assert.deepEqual((await lint('.env', 'ANTHROPIC_BASE_URL=https://taotoken.net/api\n')).map((f) => f.ruleId), []);
    assert.deepEqual((await lint('.env', 'OPENAI_BASE_URL=https://api.groq.com/docs\n')).map((f) => f.ruleId), [], 'API-only hosts are left to the path rules');
  });

  it('a bare provider host names the documented base instead of suggesting /v1', async () => {
    const findings = await lint('.env', 'OPENAI_BASE_URL=https://open.bigmodel.cn\n');
    assert.deepEqual(findings.map((f) => `${f.ruleId}:${f.severity}`), ['base-url-missing-v1:warning']);
    assert.match(findings[0].message, /https:\/\/open\.bigmodel\.cn\/api\/paas\/v4\/chat\/completions/);
    assert.match(findings[0].fixes[0].edits.map((e) => e.text).join(''), /\/api\/paas\/v4$/);
  });
});

describe('user profiles (extraProviders)', () => {
  it('carry native bases, website hosts and key prefixes into the rules', async () => {
    const layer = parseConfigText(
      JSON.stringify({
        extraProviders: [
          { id: 'acme', name: 'Acme AI', hosts: ['api.acme.example'], openaiBases: ['https://api.acme.example/openai/v1'], nativeBases: ['https://api.acme.example/native'], websiteHosts: ['www.acme.example'], keyPrefixes: ['acme-'] },
        ],
      }),
      '.rolloutlintrc.json',
    );
    const config = mergeConfig(layer);
    const run = async (text: string) => lintDocument({ path: '.env', text }, { grammars: await loadGrammars(), facts: NO_FACTS, config }).findings.map((f) => f.ruleId);
    assert.deepEqual(await run('OPENAI_BASE_URL=https://api.acme.example/native\n'), ['base-url-native-path']);
    assert.deepEqual(await run('OPENAI_BASE_URL=https://www.acme.example/pricing\n'), ['base-url-provider-website']);
    assert.deepEqual(await run('OPENAI_BASE_URL=https://api.acme.example/openai/v1\n'), []);
    assert.deepEqual(await run('OPENAI_BASE_URL=https://api.deepseek.com\nOPENAI_API_KEY=acme-abababababababab\n'), ['api-key-provider-mismatch']);
  });
});

describe('README providers table', () => {
  it('is generated from the profiles', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    assert.equal(readme, replaceProvidersSection(readme, renderProvidersTable(BUILTIN_PROVIDERS)), 'run "npx tsx scripts/sync-providers.ts --write"');
  });

  it('has a row with a source link for every profile', () => {
    const table = renderProvidersTable(BUILTIN_PROVIDERS);
    for (const p of BUILTIN_PROVIDERS) assert.ok(table.split('\n').some((l) => l.startsWith(`| ${p.name} |`) && /\]\(https?:\/\//.test(l)), p.id);
  });
});
