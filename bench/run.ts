/**
 * Benchmarks (`npm run bench`): lint throughput per format, a whole generated workspace through the
 * CLI, and the cost of skipping an oversized file. Prints a table and writes bench/out/results.json.
 * Numbers are medians of several runs on whatever machine runs them; nothing here is asserted.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { lintDocument } from '../server/src/core/lint';
import { loadGrammars } from '../server/src/node/grammars';
import { main } from '../server/src/cli/main';
import type { Format } from '../server/src/core/model/types';

const KEY = 'sk-test-0000000000000000000000000000';

/** Repeats a realistic block until the text reaches `bytes`. */
function sized(block: (i: number) => string, bytes: number): string {
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += block(i);
  return out;
}

const BLOCKS: Record<Format, { name: string; block: (i: number) => string }> = {
  dotenv: { name: '.env', block: (i) => `# service ${i}\nSVC${i}_BASE_URL=http://10.0.${i % 255}.1:8000/v1/\nSVC${i}_API_KEY=${KEY}\nSVC${i}_MODEL=policy-${i}\n` },
  yaml: { name: 'rollout.yaml', block: (i) => `worker_${i}:\n  base_url: http://10.0.0.${i % 255}:30000/v1/v1\n  api_key: ${KEY}\n  sampling:\n    logprobs: true\n    top_logprobs: 1\n` },
  json: { name: 'openclaw.json', block: () => '' },
  python: {
    name: 'policy_serving.py',
    block: (i) => `\ndef rollout_${i}(prompt):\n    client = OpenAI(base_url="http://127.0.0.1:30000/v1", api_key="EMPTY")\n    return client.chat.completions.create(model="policy", messages=[{"role": "user", "content": prompt}], logprobs=True, top_logprobs=1)\n`,
  },
  shell: { name: 'run.sh', block: (i) => `export SVC${i}_BASE_URL=http://127.0.0.1:${8000 + (i % 100)}/v1\npython3 train.py \\\n  --rollout-batch-size 16 \\\n  --top_logprobs 1 --logprobs\n` },
};

function jsonText(bytes: number): string {
  const providers: string[] = [];
  for (let i = 0; providers.join(',').length < bytes; i++) {
    providers.push(`"p${i}": {"baseUrl": "https://api${i}.example.com/v1/", "apiKey": "${KEY}", "api": "openai-completions", "models": [{"id": "m${i}", "name": "M"}]}`);
  }
  return `{"models": {"providers": {${providers.join(',\n')}}}}\n`;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main_(): Promise<void> {
  const grammars = await loadGrammars();
  const rows: Record<string, unknown>[] = [];
  for (const format of Object.keys(BLOCKS) as Format[]) {
    for (const bytes of [10_000, 1_000_000]) {
      const { name, block } = BLOCKS[format];
      const text = format === 'json' ? jsonText(bytes) : sized(block, bytes);
      const runs: number[] = [];
      let findings = 0;
      const n = bytes > 100_000 ? 5 : 30;
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        findings = lintDocument({ path: name, text }, { grammars }).findings.length;
        runs.push(performance.now() - t);
      }
      const ms = median(runs);
      rows.push({ bench: `lint ${format}`, bytes: text.length, medianMs: +ms.toFixed(2), mbPerS: +(text.length / 1e6 / (ms / 1000)).toFixed(2), findings });
    }
  }

  // Adversarial shapes (issue 13 item 6): must stay linear per KB and inside the per-file budget.
  const adversarial: [string, string][] = [
    ['call chain f()()…', `OPENAI_BASE_URL = "x"\nx = f${'()'.repeat(50_000)}\n`],
    ['subscripts a[0][0]…', `OPENAI_BASE_URL = "x"\nx = a${'[0]'.repeat(33_000)}\n`],
    ['flat array', `OPENAI_BASE_URL = "x"\nx = [${'1, '.repeat(33_000)}]\n`],
  ];
  for (const [bench, text] of adversarial) {
    const runs: number[] = [];
    let skipped = false;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      skipped = lintDocument({ path: 'chain.py', text }, { grammars }).findings.some((f) => f.ruleId === 'skipped-file');
      runs.push(performance.now() - t);
    }
    const ms = median(runs);
    rows.push({ bench: `lint python ${bench}`, bytes: text.length, medianMs: +ms.toFixed(2), mbPerS: +(text.length / 1e6 / (ms / 1000)).toFixed(2), findings: skipped ? 'skipped' : 0 });
  }

  const ws = mkdtempSync(join(tmpdir(), 'rollout-lint-bench-'));
  try {
    for (let i = 0; i < 100; i++) {
      const dir = join(ws, `svc${i}`);
      mkdirSync(dir, { recursive: true });
      for (const format of ['dotenv', 'yaml', 'python', 'shell'] as Format[]) writeFileSync(join(dir, BLOCKS[format].name), sized(BLOCKS[format].block, 2_000));
      writeFileSync(join(dir, 'openclaw.json'), jsonText(2_000));
    }
    writeFileSync(join(ws, 'huge.yaml'), Buffer.alloc(50 * 1024 * 1024, 'a: b\n'));
    const io = { stdout: () => undefined, stderr: () => undefined, env: {}, cwd: ws, isTTY: false };
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await main(['.', '--format', 'json', '--exit-zero'], io);
      runs.push(performance.now() - t);
    }
    const ms = median(runs);
    rows.push({ bench: 'CLI workspace (500 files + one 50 MB file skipped)', files: 501, medianMs: +ms.toFixed(1), filesPerS: +(501 / (ms / 1000)).toFixed(0) });
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }

  console.table(rows);
  const out = join(__dirname, 'out');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'results.json'), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`);
}

main_().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
