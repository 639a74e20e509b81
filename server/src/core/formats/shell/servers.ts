/**
 * Python modules that start an HTTP server when run with `python -m`. Sources: SGLang docs
 * ("python3 -m sglang.launch_server"), sgl-router README ("python -m sglang_router.launch_router",
 * "python -m sglang_router.launch_server"), vLLM docs ("python -m vllm.entrypoints.openai.api_server",
 * the older "vllm.entrypoints.api_server"), uvicorn and gunicorn docs ("python -m uvicorn").
 */
const SERVER_MODULES = new Set([
  'sglang.launch_server',
  'sglang_router.launch_router',
  'sglang_router.launch_server',
  'vllm.entrypoints.openai.api_server',
  'vllm.entrypoints.api_server',
  'uvicorn',
  'gunicorn',
]);

/**
 * Programs (and the subcommand, when one is needed) that start a server. Sources: vLLM docs
 * ("vllm serve"), ms-swift docs ("swift rollout", "swift deploy"), TRL docs ("trl vllm-serve"),
 * LMDeploy docs ("lmdeploy serve api_server"), Ollama docs ("ollama serve"), Hugging Face TGI docs
 * ("text-generation-launcher"), uvicorn and gunicorn docs.
 */
const SERVER_PROGRAMS = new Map<string, readonly string[] | true>([
  ['uvicorn', true],
  ['gunicorn', true],
  ['text-generation-launcher', true],
  ['vllm', ['serve']],
  ['swift', ['rollout', 'deploy']],
  ['trl', ['vllm-serve']],
  ['lmdeploy', ['serve']],
  ['ollama', ['serve']],
]);

/** Commands that run the command after them (`nohup vllm serve …`, `env K=V python -m …`). */
export const COMMAND_WRAPPERS: ReadonlySet<string> = new Set(['nohup', 'exec', 'time', 'env', 'sudo', 'setsid', 'stdbuf', 'command']);
/** A Python interpreter's program name (`python`, `python3.11`, `pypy3`). */
export const PYTHON_INTERPRETER = /^(?:python|pypy)[\d.]*$/;

/**
 * True when `command` (a command summary such as `python3 -m sglang.launch_server`, `vllm serve`,
 * or a whole command line) starts an inference or web server, so its `--host`/`--port` are a bind
 * address rather than a destination. Programs given by path (`/opt/venv/bin/vllm`) count by basename.
 */
export function isServerLaunch(command: string): boolean {
  const words = command.trim().split(/\s+/).filter((word) => word.length > 0);
  let i = 0;
  while (i < words.length && (COMMAND_WRAPPERS.has(words[i]) || /^[A-Za-z_]\w*=/.test(words[i]))) i++;
  const program = words[i]?.slice(words[i].lastIndexOf('/') + 1);
  if (program === undefined) return false;
  if (PYTHON_INTERPRETER.test(program)) {
    const module = words.indexOf('-m', i + 1);
    return module > 0 && SERVER_MODULES.has(words[module + 1] ?? '');
  }
  if (SERVER_MODULES.has(program)) return true;
  const subcommands = SERVER_PROGRAMS.get(program);
  return subcommands === true || (subcommands !== undefined && subcommands.includes(words[i + 1] ?? ''));
}
