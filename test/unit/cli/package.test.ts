import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
/** The size the published package may take once installed (issue 17). */
const MAX_INSTALLED_BYTES = 20 * 1024 * 1024;

function sizeOf(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((n, name) => n + sizeOf(join(path, name)), 0);
}

/** An environment for npm that cannot reach any registry and uses a throw-away cache and config. */
function offlineNpmEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home };
  return { ...env, npm_config_cache: join(home, 'cache'), npm_config_registry: 'http://127.0.0.1:9/', npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}

/** Sends LSP messages over stdio and resolves with the first response to request id 1. */
function initializeOverStdio(bin: string, cwd: string): Promise<{ serverInfo?: { name: string; version: string }; capabilities: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['--stdio'], { cwd, env: { PATH: process.env.PATH }, stdio: ['pipe', 'pipe', 'pipe'] });
    const send = (message: unknown) => {
      const body = Buffer.from(JSON.stringify(message), 'utf8');
      child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
      child.stdin.write(body);
    };
    let buffer = Buffer.alloc(0);
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error('no initialize response within 30 s'));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const headerEnd = buffer.indexOf('\r\n\r\n');
        if (headerEnd < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString())![1]);
        if (buffer.length < headerEnd + 4 + length) return;
        const message = JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8'));
        buffer = buffer.subarray(headerEnd + 4 + length);
        if (message.id === 1) {
          send({ jsonrpc: '2.0', id: 2, method: 'shutdown' });
          send({ jsonrpc: '2.0', method: 'exit' });
          clearTimeout(timer);
          resolve(message.result);
        }
      }
    });
    child.on('error', reject);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
  });
}

describe('the publishable npm package (scripts/pack-cli.mjs)', function () {
  this.timeout(180_000);
  let work: string;
  let stage: string;
  let tarball: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'rollout-lint-pack-'));
    const out = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'scripts', 'pack-cli.mjs'), '--out', join(work, 'out')], { encoding: 'utf8', env: offlineNpmEnv(work) }));
    stage = out.dir;
    tarball = out.tarball;
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('holds the bundles, grammar wasm, rule pages, README and LICENSE, and nothing else', () => {
    const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n').map((f) => f.replace(/^package\//, '')).sort();
    for (const f of ['LICENSE', 'README.md', 'THIRD_PARTY_NOTICES.md', 'package.json', 'bin/rollout-lint.js', 'bin/rollout-lint-server.js', 'dist/cli.js', 'dist/cli-main.js', 'dist/server.js', 'dist/lint-worker.js', 'dist/grammars/web-tree-sitter.wasm', 'dist/grammars/tree-sitter-python.wasm', 'dist/grammars/tree-sitter-bash.wasm', 'dist/grammars/tree-sitter-javascript.wasm', 'dist/grammars/tree-sitter-typescript.wasm', 'dist/grammars/tree-sitter-tsx.wasm', 'dist/docs/rules/base-url-duplicate-v1.md', 'schemas/rolloutlintrc.schema.json']) {
      assert.ok(files.includes(f), `${f} is in the package`);
    }
    const unexpected = files.filter((f) => !/^(LICENSE|README\.md|THIRD_PARTY_NOTICES\.md|package\.json|bin\/[\w-]+\.js|dist\/(cli|cli-main|server|lint-worker)\.js|dist\/grammars\/[\w-]+\.wasm|dist\/docs\/rules\/[\w-]+\.md|schemas\/rolloutlintrc\.schema\.json)$/.test(f));
    assert.deepEqual(unexpected, [], 'no source maps, sources or tests');
    const manifest = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8'));
    assert.equal(manifest.name, 'rollout-lint');
    assert.equal(manifest.dependencies, undefined, 'the bundles need no node_modules');
    assert.equal(manifest.scripts, undefined, 'no install scripts');
    assert.deepEqual(Object.keys(manifest.bin).sort(), ['rollout-lint', 'rollout-lint-server']);
    for (const name of ['cli.js', 'cli-main.js']) assert.ok(!/sourceMappingURL/.test(readFileSync(join(stage, 'dist', name), 'utf8').slice(-200)));
    const notices = readFileSync(join(stage, 'THIRD_PARTY_NOTICES.md'), 'utf8');
    for (const name of ['yaml', 'commander', 'web-tree-sitter', 'vscode-languageserver']) assert.match(notices, new RegExp(`## ${name}@`));
  });

  it('installs offline into an empty prefix, within 20 MB, and both bins run with no node_modules around', async () => {
    const prefix = join(work, 'prefix');
    const install = spawnSync('npm', ['install', '--global', '--prefix', prefix, tarball], { encoding: 'utf8', env: offlineNpmEnv(work) });
    assert.equal(install.status, 0, install.stderr);
    assert.doesNotMatch(install.stderr, /install-scripts|gyp/i);
    const installed = sizeOf(join(prefix, 'lib', 'node_modules', 'rollout-lint'));
    assert.ok(installed <= MAX_INSTALLED_BYTES, `installed size ${installed} bytes`);
    console.log(`      installed size: ${(installed / 1024 / 1024).toFixed(1)} MB`);

    const project = join(work, 'project');
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(join(project, '.env'), 'OPENAI_BASE_URL=https://api.openai.com/v1/v1\n');
    const env = { PATH: process.env.PATH };
    const version = spawnSync(join(prefix, 'bin', 'rollout-lint'), ['--version'], { cwd: project, encoding: 'utf8', env });
    assert.equal(version.status, 0, version.stderr);
    assert.equal(version.stdout.trim(), JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8')).version);
    const lint = spawnSync(join(prefix, 'bin', 'rollout-lint'), ['--format', 'json'], { cwd: project, encoding: 'utf8', env });
    assert.equal(lint.status, 1, lint.stderr);
    assert.deepEqual(JSON.parse(lint.stdout)[0].messages.map((m: { ruleId: string }) => m.ruleId), ['base-url-duplicate-v1']);
    const explain = spawnSync(join(prefix, 'bin', 'rollout-lint'), ['explain', 'base-url-duplicate-v1'], { cwd: project, encoding: 'utf8', env });
    assert.match(explain.stdout, /## What it catches/);

    const result = await initializeOverStdio(join(prefix, 'bin', 'rollout-lint-server'), project);
    assert.equal(result.serverInfo?.name, 'rollout-lint-server');
    assert.ok(result.capabilities.codeActionProvider);
  });

  it('npm pack --dry-run lists the config JSON Schema, and README.md states the installed size measured here', () => {
    const dry = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: stage, encoding: 'utf8', env: offlineNpmEnv(work) });
    assert.equal(dry.status, 0, dry.stderr);
    const [info] = JSON.parse(dry.stdout) as { files: { path: string }[]; unpackedSize: number; size: number }[];
    assert.ok(info.files.some((f) => f.path === 'schemas/rolloutlintrc.schema.json'));
    const schema = JSON.parse(readFileSync(join(stage, 'schemas', 'rolloutlintrc.schema.json'), 'utf8'));
    assert.ok(schema.properties.rules, 'the schema of .rolloutlintrc.json');
    // README: "(N MB installed, M MB download; …)": within 0.5 MB of what npm measures.
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const stated = /\(([\d.]+) MB installed, ([\d.]+) MB download/.exec(readme);
    assert.ok(stated, 'README states the installed and download size');
    assert.ok(Math.abs(Number(stated[1]) - info.unpackedSize / 1e6) <= 0.5, `README says ${stated[1]} MB installed; npm measures ${(info.unpackedSize / 1e6).toFixed(1)} MB`);
    assert.ok(Math.abs(Number(stated[2]) - info.size / 1e6) <= 0.5, `README says ${stated[2]} MB download; npm measures ${(info.size / 1e6).toFixed(1)} MB`);
  });

  it('passes npm publish --dry-run (with no registry reachable)', () => {
    const publish = spawnSync('npm', ['publish', '--dry-run'], { cwd: stage, encoding: 'utf8', env: offlineNpmEnv(work) });
    assert.equal(publish.status, 0, publish.stderr);
    assert.match(publish.stdout + publish.stderr, /rollout-lint@\d+\.\d+\.\d+/);
  });
});
