import type { CommandWord, Extraction, FileLocation } from '../model/types';
import { LineIndex } from '../positions';
import { parseBaseUrl } from '../resolve/urls';
import { bareHost, isLoopbackHost } from '../model/hosts';
import { COMMAND_WRAPPERS, PYTHON_INTERPRETER } from '../formats/shell/servers';

/** The inference servers whose served model names Rollout Lint reads from a launch line. */
export type ServerEngine = 'vllm' | 'sglang';

/**
 * One inference server started by a launch script or a Compose service: where it listens and which
 * model names its OpenAI-compatible API accepts.
 *
 * Facts (cited where they are used):
 * - vLLM: `--served-model-name` takes one or more names (nargs "+"); without it the served name is the
 *   `--model` value (or `vllm serve <model>`'s positional) exactly as written; a request whose `model`
 *   is not among them gets 404 "The model `X` does not exist." (vLLM `OpenAIServing._check_model`,
 *   vllm/entrypoints/openai/serving_engine.py); `--lora-modules name=path` adds names. Default port 8000.
 * - SGLang: `--served-model-name` (one name) else `--model-path`; current SGLang answers 400 "The model
 *   `X` does not exist" for any other name and accepts `<served>:<adapter>` (sgl-project/sglang
 *   test/srt/openai_server/validation/test_strict_model_validation.py). Default port 30000.
 */
export interface ServerLaunch {
  engine: ServerEngine;
  /** The launch command, from its program word to the end of its first line. */
  at: FileLocation;
  /** The listening port (the engine's default when no `--port` is given); `undefined` when it comes from a variable. */
  port: number | undefined;
  /** Compose service name (other containers reach it by this host name); `undefined` for scripts. */
  service?: string;
  /** The names the server accepts as `model`. */
  names: string[];
  /**
   * False when more names may be accepted than `names` lists: a name from a variable, vLLM
   * `--enable-lora` without a literal `--lora-modules` list (adapters load at run time).
   */
  complete: boolean;
  /** The launch passes `--api-key` (the server then requires `Authorization: Bearer <key>`). */
  apiKey: boolean;
  /** The literal `--api-key` value (a secret: never shown); `undefined` when absent or from a variable. */
  apiKeyValue?: string;
}

const DEFAULT_PORT: Record<ServerEngine, number> = { vllm: 8000, sglang: 30000 };

/** Programs and `python -m` modules that start a vLLM or SGLang OpenAI-compatible server. */
const MODULES: Record<string, ServerEngine> = {
  'vllm.entrypoints.openai.api_server': 'vllm',
  'sglang.launch_server': 'sglang',
};

/** Where a launch's arguments start and which engine it is, or `undefined` when `words` is no launch. */
function launchOf(words: readonly CommandWord[]): { engine: ServerEngine; args: number; positionalModel: boolean } | undefined {
  let i = 0;
  while (i < words.length && (COMMAND_WRAPPERS.has(words[i].literal ?? '') || /^[A-Za-z_]\w*=/.test(words[i].literal ?? '') || (i > 0 && COMMAND_WRAPPERS.has(words[i - 1].literal ?? '') && (words[i].literal ?? '').startsWith('-')))) i++;
  const program = words[i]?.literal;
  if (program === undefined) return undefined;
  const base = program.slice(program.lastIndexOf('/') + 1);
  if (base === 'vllm' && words[i + 1]?.literal === 'serve') return { engine: 'vllm', args: i + 2, positionalModel: true };
  if (PYTHON_INTERPRETER.test(base)) {
    const m = words.findIndex((w, k) => k > i && w.literal === '-m');
    const engine = m > 0 ? MODULES[words[m + 1]?.literal ?? ''] : undefined;
    if (engine) return { engine, args: m + 2, positionalModel: false };
  }
  return undefined;
}

/** Flag values of a launch's argument words: `--k v`, `--k=v`, and for `nargs` flags every following non-flag word. */
function flagValues(words: readonly CommandWord[], flag: string, many: boolean): (string | undefined)[] | undefined {
  let out: (string | undefined)[] | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i].literal;
    if (w === undefined) continue;
    const spelled = w.replace(/_/g, '-');
    if (spelled.startsWith(`${flag}=`)) out = [words[i].literal!.slice(flag.length + 1)];
    else if (spelled === flag) {
      out = [];
      for (let k = i + 1; k < words.length && !(words[k].literal ?? '').startsWith('-'); k++) {
        out.push(words[k].literal);
        if (!many) break;
      }
    }
  }
  return out;
}

function hasFlag(words: readonly CommandWord[], flag: string): boolean {
  return words.some((w) => w.literal !== undefined && (w.literal.replace(/_/g, '-') === flag || w.literal.replace(/_/g, '-').startsWith(`${flag}=`)));
}

/** Builds a launch from its argument words (after `vllm serve` / `python -m …`). */
function launchFromArgs(engine: ServerEngine, args: readonly CommandWord[], positionalModel: boolean, at: FileLocation, service?: string): ServerLaunch | undefined {
  const served = flagValues(args, '--served-model-name', engine === 'vllm');
  let model = engine === 'vllm' ? flagValues(args, '--model', false) : flagValues(args, '--model-path', false) ?? flagValues(args, '--model', false);
  if (!model && positionalModel && args[0] && !(args[0].literal ?? '').startsWith('-')) model = [args[0].literal];
  // No model visible (a default, a config file): the server still answers on its port, with names unknown.
  const source = served && served.length > 0 ? served : model ?? [];
  const names = source.filter((n): n is string => n !== undefined && n !== '');
  let complete = names.length > 0 && names.length === source.length;
  if (engine === 'vllm') {
    const lora = flagValues(args, '--lora-modules', true);
    for (const entry of lora ?? []) {
      // `name=path` or a JSON object with "name" (vLLM docs, "LoRA Adapters")
      const name = entry === undefined ? undefined : /^\s*\{/.test(entry) ? /"name"\s*:\s*"([^"]+)"/.exec(entry)?.[1] : entry.split('=')[0];
      if (name) names.push(name);
      else complete = false;
    }
    if (hasFlag(args, '--enable-lora') && !lora) complete = false;
  }
  const portValues = flagValues(args, '--port', false);
  const portText = portValues?.[0];
  const port = portValues === undefined ? DEFAULT_PORT[engine] : portText !== undefined && /^\d{1,5}$/.test(portText) ? Number(portText) : undefined;
  const apiKeyValue = flagValues(args, '--api-key', false)?.[0];
  return { engine, at, port, ...(service ? { service } : {}), names, complete, apiKey: hasFlag(args, '--api-key'), ...(apiKeyValue ? { apiKeyValue } : {}) };
}

/** A cheap test before any scanning: the text mentions a vLLM or SGLang launch. */
export const LAUNCH_TOKEN = /\bvllm\s+serve\b|vllm\.entrypoints\.openai\.api_server|sglang\.launch_server|vllm\/vllm-openai|lmsysorg\/sglang/;

/** Images whose entrypoint is a vLLM OpenAI server (`vllm/vllm-openai`: `vllm serve`, vLLM docs "Using Docker"). */
const VLLM_IMAGE = /(^|\/)vllm\/vllm-openai(:|@|$)|^vllm\/vllm-openai/;

/**
 * The vLLM/SGLang launches among the server commands the extractors recorded (`Extraction.commands`):
 * a shell invocation whose program is `vllm serve` or `python -m vllm.entrypoints.openai.api_server`/
 * `sglang.launch_server` (behind wrappers: `nohup`, `env K=V`, `CUDA_VISIBLE_DEVICES=0`), and a
 * Compose service whose `command:` runs one or whose image is `vllm/vllm-openai` (its entrypoint is
 * `vllm serve`, so `command:` holds the model and flags; the port is the container port, reached by
 * other services as `http://<name>:<port>`). An argument that expands a variable makes the names
 * incomplete (or drops the port). `text` is the extracted document, for line positions. Never throws.
 */
export function serverLaunches(path: string, text: string, extraction: Extraction): ServerLaunch[] {
  const out: ServerLaunch[] = [];
  let lines: LineIndex | undefined;
  for (const command of extraction.commands ?? []) {
    const launch = launchOf(command.words);
    const engine = launch?.engine ?? (command.service !== undefined && command.image !== undefined && VLLM_IMAGE.test(command.image) ? 'vllm' : undefined);
    if (!engine) continue;
    lines ??= new LineIndex(text);
    const at: FileLocation = { path, range: command.range, start: lines.positionAt(command.range.start), end: lines.positionAt(command.range.end) };
    const found = launchFromArgs(engine, launch ? command.words.slice(launch.args) : command.words, launch ? launch.positionalModel : true, at, command.service);
    if (found) out.push(found);
  }
  return out;
}

/** Where a base URL sends requests: host (lower-case, no brackets) and port (the scheme's default when absent). */
export interface ServerTarget {
  url: string;
  host: string;
  port: number;
}

/** The host and port a base URL value reaches, or `undefined` for a non-URL. */
export function serverTarget(value: string): ServerTarget | undefined {
  const parsed = parseBaseUrl(value.trim());
  if (!parsed) return undefined;
  const port = parsed.port ? Number(parsed.port) : parsed.scheme.toLowerCase() === 'https' ? 443 : 80;
  return { url: value.trim(), host: bareHost(parsed.host), port };
}

/** The launches a target reaches: same port, and a loopback host or the Compose service's name. */
export function serversAt(target: ServerTarget, launches: readonly ServerLaunch[]): ServerLaunch[] {
  return launches.filter((l) => l.port === target.port && (isLoopbackHost(target.host) || (l.service !== undefined && l.service.toLowerCase() === target.host)));
}

/** Levenshtein distance, capped: stops counting at `max + 1`. Linear memory. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, row[j]);
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length];
}

/**
 * The served name a mistyped or mis-chosen `model` most likely meant: one whose last path segment
 * equals the request's (`Qwen/Qwen3-4B` vs `/models/Qwen3-4B`), else the nearest by edit distance
 * (case-insensitive, at most a third of the length), else the only name. `undefined` when none fits.
 */
export function didYouMean(model: string, names: readonly string[]): string | undefined {
  const tail = (s: string) => s.replace(/\/+$/, '').slice(s.replace(/\/+$/, '').lastIndexOf('/') + 1).toLowerCase();
  const sameTail = names.find((n) => tail(n) === tail(model));
  if (sameTail) return sameTail;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    const max = Math.max(1, Math.floor(Math.max(name.length, model.length) / 3));
    const d = distance(model.toLowerCase(), name.toLowerCase(), max);
    if (d <= max && d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best ?? (names.length === 1 ? names[0] : undefined);
}

/** True when `launch` accepts `model` (exact name; SGLang also `<name>:<adapter>`). */
export function servesModel(launch: ServerLaunch, model: string): boolean {
  if (launch.names.includes(model)) return true;
  return launch.engine === 'sglang' && launch.names.some((n) => model.startsWith(`${n}:`));
}
