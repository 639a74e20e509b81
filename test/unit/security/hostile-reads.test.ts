import assert from 'node:assert/strict';
import { hostileRepo, runBundle, runTsChild } from './hostile-helpers';

const BAD_BASE = 'OPENAI_BASE_URL=https://x.example/v1/v1\n';
const KEY_LINE = 'OPENAI_API_KEY=sk-abcdefABCDEF0123456789xyzQ\n';

/**
 * Issue 29 item 1: every path a repository chooses is read through one guarded reader (non-blocking
 * open, regular-file check on the open descriptor, a cap). Each case is the issue's reproduction; the
 * CLI runs as a child with a watchdog, and must end with its normal result.
 */
describe('hostile reads (FIFOs, devices, /dev/zero targets) end with a normal result', function () {
  this.timeout(20_000);
  if (process.platform === 'win32') return;

  const expectNormal = (root: string, args: string[] = ['.']) => {
    const r = runBundle(root, args);
    assert.equal(r.timedOut, false, 'the CLI hung');
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /base-url-duplicate-v1/);
    return r;
  };

  it('a Compose env_file: naming ../../../dev/zero is not read; a hint says it lies outside the work tree', () => {
    const repo = hostileRepo({ 'docker-compose.yml': `services:\n  app:\n    image: x\n    env_file: ${'../'.repeat(10)}dev/zero\n    environment:\n      - OPENAI_BASE_URL=https://x.example/v1/v1\n` });
    try {
      const r = expectNormal(repo.root, ['.', '--include-hints']);
      assert.match(r.out, /dev\/zero lies outside this work tree, so Rollout Lint does not read it/);
    } finally {
      repo.cleanup();
    }
  });

  it('an in-tree env_file symlink to a file outside the work tree is not read either', () => {
    const outside = hostileRepo({ 'secret.env': 'OPENAI_BASE_URL=http://127.0.0.1:8000/v1\n' }, false);
    const repo = hostileRepo({ 'docker-compose.yml': 'services:\n  app:\n    image: x\n    env_file: ./link.env\n', 'link.env': { link: `${outside.root}/secret.env` } });
    try {
      const r = runBundle(repo.root, ['docker-compose.yml', '--include-hints']);
      assert.equal(r.timedOut, false);
      assert.match(r.out, /link\.env lies outside this work tree/);
      assert.doesNotMatch(r.out, /points at/);
    } finally {
      repo.cleanup();
      outside.cleanup();
    }
  });

  it('a .gitignore that is a symlink to /dev/zero is not followed (as git does not)', () => {
    const repo = hostileRepo({ '.gitignore': { link: '/dev/zero' }, '.env': BAD_BASE + KEY_LINE });
    try {
      expectNormal(repo.root);
    } finally {
      repo.cleanup();
    }
  });

  it('a .gitignore FIFO is not waited on', () => {
    const repo = hostileRepo({ '.gitignore': { fifo: true }, '.env': BAD_BASE + KEY_LINE });
    try {
      expectNormal(repo.root);
    } finally {
      repo.cleanup();
    }
  });

  for (const [name, files] of [
    ['index FIFO', { 'gd/index': { fifo: true } }],
    ['index → /dev/zero', { 'gd/index': { link: '/dev/zero' } }],
    ['config FIFO', { 'gd/index': 'DIRC\0\0\0\u0002\0\0\0\0' + '\0'.repeat(20), 'gd/config': { fifo: true } }],
    ['commondir FIFO', { 'gd/index': 'DIRC\0\0\0\u0002\0\0\0\0' + '\0'.repeat(20), 'gd/commondir': { fifo: true } }],
    ['.git file → /dev/zero', {}],
  ] as const) {
    it(`a .git file case (${name}) ends normally`, () => {
      const dotGit = name.startsWith('.git file') ? { link: '/dev/zero' } : 'gitdir: gd\n';
      const repo = hostileRepo({ '.git': dotGit, ...files, '.env': BAD_BASE + KEY_LINE } as Record<string, string | { fifo: true } | { link: string }>, false);
      try {
        expectNormal(repo.root);
      } finally {
        repo.cleanup();
      }
    });
  }

  it('facts for hover and env_file: sibling .env.local → /dev/zero or a FIFO, .gitignore FIFO, env_file FIFO: answered at once', () => {
    const repo = hostileRepo({ '.env': 'OPENAI_BASE_URL=https://x.example/v1\n', '.env.local': { link: '/dev/zero' }, '.env.fifo': { fifo: true }, '.gitignore': { fifo: true }, 'pipe.env': { fifo: true }, 'ok.env': 'A=1\n' });
    try {
      const result = runTsChild(`
        const { NodeWorkspaceFacts } = require('./server/src/node/facts');
        const facts = new NodeWorkspaceFacts(${JSON.stringify(repo.root)});
        const file = ${JSON.stringify(`${repo.root}/a.py`)};
        console.log(JSON.stringify({
          sibling: facts.siblingEnv(file),
          fifoEnvFile: facts.envFile(file, 'pipe.env') ?? null,
          okEnvFile: facts.envFile(file, 'ok.env') ?? null,
          outside: facts.envFile(file, '../../../../../../../../dev/zero') ?? null,
          git: facts.gitState(${JSON.stringify(`${repo.root}/.env`)}),
        }));`) as Record<string, unknown>;
      assert.deepEqual(result.sibling, { OPENAI_BASE_URL: [{ file: '.env', value: 'https://x.example/v1' }] });
      assert.equal(result.fifoEnvFile, null);
      assert.deepEqual(result.okEnvFile, { A: '1' });
      assert.equal(result.outside, 'outsideWorkTree');
      assert.equal(result.git, 'exposed');
    } finally {
      repo.cleanup();
    }
  });
});
