/** The process surface the CLI commands use, injectable for tests. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** stdout is a terminal (colours allowed unless NO_COLOR). */
  isTTY: boolean;
}

/** The real process. */
export function processIo(): CliIo {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
    isTTY: !!process.stdout.isTTY,
  };
}
