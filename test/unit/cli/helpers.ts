import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CliIo } from '../../../server/src/cli/io';
import { main } from '../../../server/src/cli/main';

/** A temp workspace outside any git repository, filled with `files` (relative path → content). */
export function workspace(files: Record<string, string | Buffer>): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'rollout-lint-cli-'));
  writeFiles(root, files);
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Writes `files` under `root`, creating folders. */
export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
}

/** Runs `main(argv)` in-process with `cwd` as the working directory; stdout/stderr are captured. */
export async function runCli(
  cwd: string,
  argv: string[],
  options: { isTTY?: boolean; stderrIsTTY?: boolean; env?: NodeJS.ProcessEnv; stdin?: string | Buffer; now?: () => number } = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    env: options.env ?? {},
    cwd,
    isTTY: options.isTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? false,
    readStdin: async () => Buffer.from(options.stdin ?? ''),
    now: options.now,
  };
  const code = await main(argv, io);
  return { code, out, err };
}
