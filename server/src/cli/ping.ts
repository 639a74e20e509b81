import { cliLocale } from './io';
import { rememberModelList } from '../node/models-cache';
import { redact } from '../core/redact';
import { readForLint } from '../node/read';
import { escapeForLine, sanitizeForTerminal } from './sanitize';
import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { normalizeLocale, type Locale } from '../core/messages/locale';
import type { ConsumerId } from '../core/model/types';
import { chooseProbeKey } from '../core/probe/keys';
import { PROBE_MESSAGES, renderProbeMessage } from '../core/probe/messages';
import { probe } from '../core/probe/probe';
import { ProbeInputError, type ProbeDeps, type ProbeReport, type ProbeTarget } from '../core/probe/types';
import { BUILTIN_PROVIDERS } from '../core/providers/profiles';
import type * as ProbeTransport from '../node/probe-transport';

/** The process surface `runPing` uses (a subset of the CLI's `CliIo`). */
export interface PingIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * A probe target read from a file (`--from FILE`). JSON files give `{baseUrl, consumer, model,
 * logprobs, top_logprobs}`; a resolver may add the key configured in the same block (`apiKey`, sent
 * only to `baseUrl`'s origin) and how the consumer reads the base (`baseUrlSource`, `ignoredSettings`).
 */
export interface FromFileTarget {
  baseUrl?: string;
  consumer?: ConsumerId;
  model?: string;
  logprobs?: boolean | number;
  top_logprobs?: number;
  apiKey?: string;
  /** The API the file's call on this base uses (`completions` for `client.completions.create`), chat when absent. */
  api?: ProbeTarget['api'];
  /** The environment variable the file reads the key from (`os.environ["LITELLM_KEY"]`), when it reads one. */
  apiKeyEnv?: string;
  baseUrlSource?: ProbeTarget['baseUrlSource'];
  ignoredSettings?: string[];
  /** Where the base URL probed is defined: file, 1-based line, setting name, and how many definitions of it the block has (the last is used). */
  definedAt?: { file: string; line: number; key: string; definitions: number };
}

/**
 * Reads a target from a non-JSON file (`.env`, `.py`, …); resolves to `undefined` when it cannot, and
 * `runPing` then tries the file as JSON. `path` is absolute.
 */
export type FromFileResolver = (path: string, context: { cwd: string; env: NodeJS.ProcessEnv }) => Promise<FromFileTarget | undefined>;

let fromFileResolver: FromFileResolver | undefined;

/** Installs (or, with `undefined`, removes) the resolver `--from FILE` consults before reading JSON. */
export function setFromFileResolver(resolver: FromFileResolver | undefined): void {
  fromFileResolver = resolver;
}

const CONSUMERS: readonly ConsumerId[] = ['openai-sdk', 'openai-responses', 'anthropic', 'v1-appending', 'raw', 'sglang-native'];

interface PingOptions {
  baseUrl?: string;
  consumer?: ConsumerId;
  model?: string;
  apiKeyEnv?: string;
  timeout?: number;
  json?: boolean;
  from?: string;
  lang?: Locale;
}

class UsageError extends Error {}

/**
 * `io` with every printed string redacted (`redact`): the keys of the environment's `*_API_KEY`/
 * `*_AUTH_TOKEN`/`*_TOKEN` variables, key-shaped tokens (a server echoing a key prefix back) and URL
 * credentials, in the report, `--json`, usage errors and commander's own messages alike; terminal
 * control sequences are dropped.
 */
function redactingIo(io: PingIo): PingIo {
  const known = Object.entries(io.env)
    .filter(([name, value]) => /(_API_KEY|_AUTH_TOKEN|_TOKEN|_KEY)$/i.test(name) && value && value.trim().length >= 8)
    .map(([, value]) => value!);
  const clean = (text: string) => sanitizeForTerminal(redact(text, known));
  return { ...io, stdout: (text) => io.stdout(clean(text)), stderr: (text) => io.stderr(clean(text)) };
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer (milliseconds)');
  return n;
}

/**
 * `rollout-lint ping [--base-url URL] [--consumer …] [--model ID] [--api-key-env NAME] [--timeout ms]
 * [--json] [--from FILE] [--lang en|zh-CN]`. Resolves to the exit code: 0 ok, 1 verdict ≠ ok, 2 usage
 * or internal error. `deps` replaces the network (tests); by default a Node transport honouring the
 * proxy variables of `io.env` is created and closed.
 */
export async function runPing(argv: string[], rawIo: PingIo, deps?: ProbeDeps): Promise<number> {
  const io = redactingIo(rawIo);
  let options: PingOptions;
  try {
    options = parseArgs(argv, io);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  const lang = cliLocale(options.lang, io.env);
  // Loaded here, not at start-up: undici, node:tls and node:http2 were 3 % of every lint run (issue 27), and only ping needs them.
  const transport = deps ? undefined : (require('../node/probe-transport') as typeof ProbeTransport).createNodeTransport({ env: io.env });
  try {
    const { target, keyLine } = await buildTarget(options, io, lang);
    const report = await probe(target, deps ?? transport!, { timeoutMs: options.timeout });
    // a whole /models list (the probe keeps at most 50 ids) is kept for model-not-served in later lint runs
    if (report.models && report.models.length > 0 && report.models.length < 50) rememberModelList(io.env, { baseUrl: report.baseUrl, models: report.models, at: Date.now() });
    io.stdout(options.json ? `${JSON.stringify(toJson(report, keyLine, lang), null, 2)}\n` : formatHuman(report, keyLine, lang));
    return report.verdict === 'ok' ? 0 : 1;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ProbeInputError) {
      io.stderr(`rollout-lint ping: ${error instanceof ProbeInputError && lang === 'zh-CN' && error.zh ? error.zh : error.message}\n`);
      return 2;
    }
    io.stderr(`rollout-lint ping: internal error: ${(error as Error).message ?? String(error)}\n`);
    return 2;
  } finally {
    await transport?.close();
  }
}

function parseArgs(argv: string[], io: PingIo): PingOptions {
  const command = new Command('rollout-lint ping')
    .description('Test the connection to an OpenAI-compatible endpoint (default: TaoToken) and check that log probs come back.')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .option('--base-url <url>', 'base URL (default: OPENAI_BASE_URL, ANTHROPIC_BASE_URL for anthropic, else TaoToken)')
    .addOption(new Option('--consumer <consumer>', 'how the client joins paths onto the base URL').choices(CONSUMERS))
    .option('--model <id>', 'model to ask (default: the first one the server lists)')
    .option('--api-key-env <name>', 'send the key in this environment variable, to this URL, for this run')
    .option('--timeout <ms>', 'timeout per step in milliseconds (default 10000)', positiveInteger)
    .option('--json', 'print the report as JSON')
    .option('--from <file>', 'probe what a file configures: the base URL, key, model and log-prob settings of a .env, YAML, JSON, Python or shell file Rollout Lint reads (or JSON {baseUrl, consumer, model, logprobs, top_logprobs})')
    .addOption(new Option('--lang <locale>', 'message language (default: from LC_ALL, LC_MESSAGES, LANG)').choices(['en', 'zh-CN', 'zh-cn', 'zh']))
    .addHelpText('after', `
Examples:
  rollout-lint ping                          the default target (TaoToken); a key in the environment goes only to its own provider
  rollout-lint ping --from .env              the base URL and key that .env sets
  rollout-lint ping --base-url http://127.0.0.1:30000/v1 --model qwen3-4b
  rollout-lint ping --json --lang zh

Exit codes: 0 the endpoint answered with log probs; 1 any other verdict; 2 usage or internal error.
`);
  command.parse(argv, { from: 'user' });
  const options = command.opts<PingOptions>();
  return options.lang ? { ...options, lang: normalizeLocale(options.lang) } : options;
}

async function buildTarget(options: PingOptions, io: PingIo, lang: Locale): Promise<{ target: ProbeTarget; keyLine: string }> {
  const from: FromFileTarget = options.from ? await readFromFile(resolve(io.cwd, options.from), io) : {};
  if (from.definedAt && !options.baseUrl) {
    const d = from.definedAt;
    const last = d.definitions > 1 ? (lang === 'zh-CN' ? `（${d.key} 的 ${d.definitions} 处定义中的最后一处，加载器使用最后一处）` : ` (the last of ${d.definitions} definitions of ${d.key}; loaders use the last)`) : '';
    io.stderr(lang === 'zh-CN' ? `rollout-lint: 基础 URL 取自 ${escapeForLine(d.file)}:${d.line}${last}\n` : `rollout-lint: base URL from ${escapeForLine(d.file)}:${d.line}${last}\n`);
  }
  if (options.from && !options.baseUrl && !from.baseUrl) {
    throw new UsageError(`${options.from} holds no literal base URL to probe (a value such as \${VAR} is filled in elsewhere); pass --base-url`);
  }
  const consumer = options.consumer ?? from.consumer ?? 'openai-sdk';
  const baseUrl = options.baseUrl ?? from.baseUrl ?? defaultBaseUrl(consumer, io.env);
  const fileKey = from.apiKey && from.baseUrl ? { value: from.apiKey, baseUrl: from.baseUrl } : undefined;
  const choice = chooseProbeKey({ baseUrl, env: io.env, apiKeyEnv: options.apiKeyEnv, fileKey });
  if (choice.usageError) throw new UsageError(renderProbeMessage(choice.note, lang));
  const logprobs = from.logprobs !== undefined || from.top_logprobs !== undefined ? { logprobs: from.logprobs, top_logprobs: from.top_logprobs } : undefined;
  const target: ProbeTarget = {
    baseUrl,
    consumer,
    apiKey: choice.apiKey,
    model: options.model ?? from.model,
    ...(from.api && consumer === 'openai-sdk' && !options.consumer ? { api: from.api } : {}),
    logprobs,
    baseUrlSource: options.baseUrl ? undefined : from.baseUrlSource,
    ignoredSettings: from.ignoredSettings,
  };
  // The file reads the key from a variable that is set here but bound to no origin: name the switch that sends it.
  if (!choice.apiKey && from.apiKeyEnv && !options.apiKeyEnv && io.env[from.apiKeyEnv]) target.keyNote = { id: 'key.fromFileEnv', data: { name: from.apiKeyEnv } };
  const keyLine = [choice.note, target.keyNote].filter((n) => n !== undefined).map((n) => renderProbeMessage(n, lang)).join(' ');
  return { target, keyLine };
}

/**
 * OPENAI_BASE_URL for the consumers that read it (openai-sdk, openai-responses), ANTHROPIC_BASE_URL for
 * anthropic; otherwise the TaoToken profile's base for the consumer (`…/api/v1` for OpenAI SDKs,
 * `…/api` for clients that append `/v1` themselves).
 */
export function defaultBaseUrl(consumer: ConsumerId, env: NodeJS.ProcessEnv): string {
  const taotoken = BUILTIN_PROVIDERS.find((p) => p.id === 'taotoken')!;
  const fromEnv = (name: string) => env[name]?.trim() || undefined;
  switch (consumer) {
    case 'openai-sdk':
    case 'openai-responses':
      return fromEnv('OPENAI_BASE_URL') ?? taotoken.openaiBases[0];
    case 'anthropic':
      return fromEnv('ANTHROPIC_BASE_URL') ?? taotoken.anthropicBase!;
    case 'v1-appending':
      return taotoken.anthropicBase!;
    case 'raw':
      return taotoken.chatUrl;
    case 'sglang-native':
      throw new UsageError('--base-url is required for --consumer sglang-native');
  }
}

async function readFromFile(path: string, io: PingIo): Promise<FromFileTarget> {
  const resolved = fromFileResolver ? await fromFileResolver(path, { cwd: io.cwd, env: io.env }) : undefined;
  if (resolved) return resolved;
  const read = readForLint(path, 1024 * 1024);
  if (read.kind !== 'text') throw new UsageError(`cannot read ${path}: ${read.kind === 'error' ? read.message : read.kind === 'tooLarge' ? 'larger than 1 MB' : 'binary'}`);
  const text = read.text;
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new UsageError(`${path}: no base URL found (it is not a .env, YAML, Python, shell or openclaw.json file with a literal base URL, nor a JSON {baseUrl, …} target)`);
  }
  return validateFromFile(json, path);
}

/** Checks the JSON `--from` shape; unknown keys are ignored, wrong types are usage errors. */
export function validateFromFile(json: unknown, path: string): FromFileTarget {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new UsageError(`${path}: expected a JSON object`);
  const o = json as Record<string, unknown>;
  const problem = (field: string, expected: string) => new UsageError(`${path}: "${field}" must be ${expected}`);
  if (o.baseUrl !== undefined && typeof o.baseUrl !== 'string') throw problem('baseUrl', 'a string');
  if (o.consumer !== undefined && !CONSUMERS.includes(o.consumer as ConsumerId)) throw problem('consumer', CONSUMERS.join(' | '));
  if (o.model !== undefined && typeof o.model !== 'string') throw problem('model', 'a string');
  if (o.logprobs !== undefined && typeof o.logprobs !== 'boolean' && typeof o.logprobs !== 'number') throw problem('logprobs', 'a boolean or number');
  if (o.top_logprobs !== undefined && typeof o.top_logprobs !== 'number') throw problem('top_logprobs', 'a number');
  return {
    baseUrl: o.baseUrl as string | undefined,
    consumer: o.consumer as ConsumerId | undefined,
    model: o.model as string | undefined,
    logprobs: o.logprobs as boolean | number | undefined,
    top_logprobs: o.top_logprobs as number | undefined,
  };
}

function toJson(report: ProbeReport, keyLine: string, lang: Locale): Record<string, unknown> {
  return {
    verdict: report.verdict,
    secondary: report.secondary,
    baseUrl: report.baseUrl,
    consumer: report.consumer,
    // The model the probe used (given, from the file's calls, or the first the server listed).
    ...(report.model ? { model: report.model } : {}),
    ...(report.provider ? { provider: { id: report.provider.id, name: report.provider.name, docsUrl: report.provider.docsUrl, modelsUrl: report.provider.modelsUrl } } : {}),
    steps: report.steps.map(({ name, method, url, status, ms, verdict }) => ({ name, method, url, status, ms: Math.round(ms), verdict })),
    ...(report.fix ? { fix: report.fix } : {}),
    key: { ...report.key, note: keyLine },
    explanation: report.explanation[lang],
  };
}

function formatHuman(report: ProbeReport, keyLine: string, lang: Locale): string {
  const t = (id: string) => PROBE_MESSAGES[lang][id] ?? id;
  const lines: string[] = [];
  const also = report.secondary.length ? ` (${t('cli.secondary')}: ${report.secondary.join(', ')})` : '';
  lines.push(`${report.verdict === 'ok' ? '✓' : '✗'} ${t('cli.verdict')}: ${report.verdict}${also} — ${report.baseUrl} (${report.consumer}${report.provider ? `, ${report.provider.displayName[lang]}` : ''})`);
  lines.push(`${t('cli.key')}: ${keyLine}`);
  const header = [t('cli.step'), t('cli.method'), t('cli.url'), t('cli.status'), t('cli.ms'), t('cli.result')];
  const rows = report.steps.map((s) => [s.name, s.method ?? '', s.url ?? '', s.status === undefined ? (s.detail ?? '-') : String(s.status), String(Math.round(s.ms)), s.verdict]);
  const widths = header.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i]))));
  for (const row of [header, ...rows]) lines.push(`  ${row.map((c, i) => (i === row.length - 1 ? c : c + ' '.repeat(widths[i] - displayWidth(c)))).join('  ')}`);
  lines.push('', report.explanation[lang]);
  if (report.fix) {
    const consumer = report.fix.consumer ? ` (--consumer ${report.fix.consumer})` : '';
    lines.push('', `${t('cli.fix')}: ${report.fix.baseUrl}${consumer} [${t(report.fix.verified ? 'cli.verified' : 'cli.unverified')}] ${report.fix.reason[lang]}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Terminal columns of `text`: East Asian wide characters (CJK, fullwidth forms) take two. */
function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1;
  return width;
}
