import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { extractJavaScript, isGeneratedSource } from '../../../server/src/core/formats/javascript';
import { extract } from '../../../server/src/core/formats/index';
import { formatOf, isCandidate, isExcludedByName, isGeneratedJavaScriptPath } from '../../../server/src/core/files';
import { DEFAULT_CONFIG } from '../../../server/src/core/config/config';
import { loadGrammars } from '../../../server/src/node/grammars';
import type { Grammars } from '../../../server/src/core/formats/treesitter';

let grammars: Grammars;
before(async () => {
  grammars = await loadGrammars();
});

/** Reads as `name@text-of-range[=default]`, evidence as `env:NAME consumer appendedPath`. */
function facts(text: string, path = 'src/app.ts') {
  const out = extract(formatOf(path)!, text, path, grammars);
  return {
    reads: out.envReads.map((r) => `${r.name}@${text.slice(r.range.start, r.range.end)}${r.defaultValue !== undefined ? `=${r.defaultValue}` : ''}`),
    evidence: out.consumerEvidence.map((e) => `${e.target} ${e.consumer.id}${e.consumer.appendedPath ? ` ${e.consumer.appendedPath}` : ''}`),
    comments: out.comments.map((c) => c.text),
    out,
  };
}

describe('extractJavaScript (process.env reads in JavaScript/TypeScript)', () => {
  it('formatOf: every JS/TS extension is javascript; language ids map too', () => {
    for (const name of ['a.js', 'a.mjs', 'a.cjs', 'a.jsx', 'a.ts', 'a.mts', 'a.cts', 'a.tsx', 'A.TS']) assert.equal(formatOf(name), 'javascript', name);
    for (const id of ['javascript', 'javascriptreact', 'typescript', 'typescriptreact']) assert.equal(formatOf('untitled', id), 'javascript', id);
    assert.equal(formatOf('a.json'), 'json');
    assert.equal(formatOf('a.mjsx'), undefined);
  });

  it('reads member, subscript, optional and destructured forms, with literal defaults', () => {
    const { reads } = facts([
      'const a = process.env.A;',
      'const b = process.env["B"] ?? "http://localhost:8000/v1";',
      "const c = process.env?.C || 'd';",
      'const d = (process.env.D as string)!;',
      'const { E, F: f, G = "g", "H": h = `h`, ...rest } = process.env;',
      'const dyn = process.env[name];',
      'process.env.SET = "x"; process.env.SET2 ??= "y";',
      'const notEnv = config.env.X;',
    ].join('\n'));
    assert.deepEqual(reads, ['A@process.env.A', 'B@process.env["B"]=http://localhost:8000/v1', 'C@process.env?.C=d', 'D@process.env.D', 'E@E', 'F@F', 'G@G=g', 'H@"H"=h']);
  });

  it('consumer evidence: client constructors, template and + joins, through bound names', () => {
    const { evidence } = facts([
      'import OpenAI from "openai";',
      'import Anthropic from "@anthropic-ai/sdk";',
      'const client = new OpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY });',
      'const baseURL = process.env.ANTHROPIC_BASE_URL;',
      'const claude = new Anthropic({ baseURL });',
      'const azure = new openai.AzureOpenAI({ "baseURL": String(process.env.AZURE_BASE) });',
      'const base = process.env.POLICY_BASE_URL?.trim() ?? "http://127.0.0.1:30000";',
      'fetch(`${base}/v1/chat/completions`);',
      'const { ROUTER_URL: router } = process.env;',
      'post(router + "/generate");',
      'fetch(`${process.env.X_URL}/health?x=${1}`);',
      'fetch(`${process.env.NOT_A_PATH} items`);',
    ].join('\n'));
    assert.deepEqual(evidence, [
      'env:OPENAI_BASE_URL openai-sdk',
      'env:ANTHROPIC_BASE_URL anthropic',
      'env:AZURE_BASE openai-sdk',
      'env:POLICY_BASE_URL v1-appending /v1/chat/completions',
      'env:ROUTER_URL raw /generate',
      'env:X_URL raw /health?x=',
    ]);
  });

  it('a name bound twice, reassigned or shadowed by a parameter says nothing', () => {
    const { evidence } = facts([
      'let base = process.env.A_URL;',
      'base = other;',
      'const url = process.env.B_URL;',
      'function f(url) { return `${url}/v1/chat/completions`; }',
      'const g = (x) => x;',
      'fetch(`${base}/v1/chat/completions`);',
    ].join('\n'));
    assert.deepEqual(evidence, []);
  });

  it('parses TSX, JSX and TypeScript-only syntax with the right grammar', () => {
    const jsx = 'const { URL_A } = process.env;\nexport const C = () => <a href={URL_A + "/v1/models"}>x</a>;\n';
    assert.deepEqual(facts(jsx, 'web/c.tsx').evidence, ['env:URL_A v1-appending /v1/models']);
    assert.deepEqual(facts(jsx, 'web/c.jsx').evidence, ['env:URL_A v1-appending /v1/models']);
    // `<string>x` is a type assertion in .ts (in .tsx it would be JSX)
    const ts = 'const base = <string>process.env.B_URL;\nfetch(base + "/v1/chat/completions");\n';
    assert.deepEqual(facts(ts, 'src/b.ts').evidence, ['env:B_URL v1-appending /v1/chat/completions']);
    assert.deepEqual(facts(ts, 'src/b.ts').reads, ['B_URL@process.env.B_URL']);
  });

  it('keeps comments (suppression directives) and UTF-16 offsets after Chinese text and emoji', () => {
    const text = '// 中文注释 😀 rollout-lint-disable-next-line base-url-duplicate-v1\nconst u = `${process.env.U}/v1/chat/completions`;\n';
    const { reads, comments, out } = facts(text, 'a.js');
    assert.deepEqual(reads, ['U@process.env.U']);
    assert.equal(comments.length, 1);
    assert.equal(text.slice(out.envReads[0].range.start, out.envReads[0].range.end), 'process.env.U');
  });

  it('generated code is not read: bundles, minified lines, build folders, node_modules, declaration files', () => {
    assert.equal(isGeneratedSource(`var a=process.env.A;${'x'.repeat(5000)}`), true);
    assert.equal(isGeneratedSource('const a = process.env.A;\n'), false);
    assert.deepEqual(facts(`var a=process.env.A+"/v1/chat";${';'.repeat(2000)}`, 'a.js').reads, []);
    for (const p of ['node_modules/x/index.js', 'pkg/node_modules/x.ts', 'dist/app.js', 'web/.next/server/page.js', 'build/x.mjs', 'out/a.js', 'coverage/x.js', 'a.min.js', 'types/env.d.ts', 'vendor.bundle.js']) {
      assert.equal(isGeneratedJavaScriptPath(p), true, p);
      assert.equal(isExcludedByName(p, DEFAULT_CONFIG), true, p);
      assert.equal(isCandidate(p, 'fetch(`${process.env.BASE_URL}/v1/chat/completions`)', DEFAULT_CONFIG), false, p);
      assert.deepEqual(facts('const a = process.env.BASE_URL + "/v1/chat";', p).reads, [], p);
    }
    for (const p of ['src/dist.ts', 'src/builder.js', 'scripts/output.mjs']) assert.equal(isGeneratedJavaScriptPath(p), false, p);
  });

  it('candidates: process.env and a trigger token; anything else is not read', () => {
    assert.equal(isCandidate('src/a.ts', 'new OpenAI({ baseURL: process.env.X })', DEFAULT_CONFIG), true);
    assert.equal(isCandidate('src/a.ts', 'const port = process.env.PORT;', DEFAULT_CONFIG), false);
    assert.equal(isCandidate('src/a.ts', 'const baseURL = "http://x/v1";', DEFAULT_CONFIG), false);
  });

  it('never throws on arbitrary text (only BudgetExceeded may escape)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        const text = `const a = process.env.A;${s}\n\`\${process.env.B}/v1${s}`;
        const out = extractJavaScript(text, grammars.typescript);
        for (const r of out.envReads) assert.ok(r.range.start >= 0 && r.range.end <= text.length && r.range.start < r.range.end);
      }),
      { numRuns: 200 },
    );
  });
});
