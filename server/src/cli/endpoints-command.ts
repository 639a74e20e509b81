import { loadGrammars } from '../node/grammars';
import { escapeForLine } from './sanitize';
import { loadConfigFor, loadConfigForDirectory, invalidate, ConfigError } from '../node/config';
import { NodeWorkspaceFacts } from '../node/facts';
import { indexFiles } from '../node/env-index';
import { readForLint } from '../node/read';
import { walk } from '../node/walk';
import { formatOf, isCandidate } from '../core/files';
import { lintDocument, stripBom } from '../core/lint';
import type { Locale } from '../core/messages/locale';
import { endpointRows, type EndpointRow } from '../core/workspace/endpoints';
import { cliLocale, type CliIo } from './io';

/** Options of `rollout-lint endpoints`. */
export interface EndpointsCommandOptions {
  json?: boolean;
  lang?: string;
  ignore?: boolean;
}

/**
 * The endpoint rows of the workspace at `io.cwd` restricted to `paths` (default `.`): every literal
 * base URL of every candidate file with its consumers, the URL each calls, the masked key source,
 * model, log-prob status and findings; values read from another file's definition (env index) too.
 */
export async function collectEndpoints(paths: readonly string[], options: EndpointsCommandOptions, io: CliIo): Promise<EndpointRow[]> {
  const root = io.cwd;
  invalidate();
  const facts = new NodeWorkspaceFacts(root);
  const rootConfig = loadConfigForDirectory(root, root);
  const grammars = await loadGrammars();
  const walkOptions = { noIgnore: options.ignore === false, config: rootConfig.config };
  const all = walk(['.'], root, facts, walkOptions).files;
  const files = paths.length ? walk(paths, root, facts, walkOptions).files : all;
  const index = indexFiles(all, grammars, (absPath) => loadConfigFor(absPath, root).config);
  const locale = cliLocale(options.lang, io.env);
  const rows: EndpointRow[] = [];
  for (const file of files) {
    const config = loadConfigFor(file.absPath, root).config;
    const format = formatOf(file.relPath);
    const read = readForLint(file.absPath, config.maxFileBytes);
    if (!format || read.kind !== 'text') continue;
    const { text } = stripBom(read.text);
    if (!isCandidate(file.relPath, text, config)) continue;
    const env = index.viewFor(file.relPath);
    const outcome = lintDocument({ path: file.relPath, text, format }, { grammars, config, facts, locale, env, proveFixes: false }); // rows show no fixes
    rows.push(...endpointRows(outcome, env, locale));
  }
  return rows;
}

const LABELS: Record<Locale, { from: string; key: string; model: string; logprobs: string; clients: string; assumed: string; noRequest: string; status: Record<EndpointRow['logprobs'], string> }> = {
  en: { from: 'from', key: 'key', model: 'model', logprobs: 'logprobs', clients: 'clients', assumed: 'no call in sight: the client default', noRequest: 'no request', status: { requested: 'requested', missing: 'missing', unknown: 'unknown' } },
  'zh-CN': { from: '来自', key: '密钥', model: '模型', logprobs: '对数概率', clients: '客户端', assumed: '未见调用：按客户端默认请求', noRequest: '不会发出请求', status: { requested: '已请求', missing: '缺失', unknown: '未知' } },
};

/** The request part of a row: `POST <url> (the call)`, the assumed default, or why nothing is sent. */
function requestText(row: EndpointRow, l: (typeof LABELS)['en']): string {
  const e = escapeForLine;
  if (row.effectiveUrl === null && row.noRequest) return `${l.noRequest}: ${e(row.noRequest)}${row.baseUrl ? ` (${e(row.baseUrl)})` : ''}`;
  const url = e(row.effectiveUrl ?? row.baseUrl ?? '');
  const how = row.call ? ` [${e(row.call)}]` : row.assumed ? ` [${l.assumed}]` : '';
  return `${row.method && row.effectiveUrl ? `${row.method} ` : ''}${url}${how}`;
}

/**
 * One row as text: `file:line:col  consumer  METHOD effective URL [call]  [clients: …]  key  model  logprobs
 * findings` (`--json` has the same fields: `method`, `call`, `assumed`, `noRequest`).
 * The clients are named because one setting can give several rows that differ only in the URL each
 * client builds from it (openai-python 2.x and 3.x join a query string differently).
 */
function textRow(row: EndpointRow, locale: Locale): string {
  const l = LABELS[locale] ?? LABELS.en;
  // Names and values come from the repository: each is escaped so none can start a line or drive the terminal.
  const e = escapeForLine;
  const where = `${e(row.file)}:${row.line}:${row.column}`;
  const from = row.definedAt ? ` (${l.from} ${e(row.definedAt.file)}:${row.definedAt.line})` : '';
  const findings = row.findings.length ? `  ${row.findings.map((f) => `${f.severity}:${f.ruleId}`).join(',')}` : '';
  const clients = row.clients?.length ? `  ${l.clients}: ${row.clients.map(e).join(', ')}` : '';
  return `${where}  ${e(row.consumer)}  ${requestText(row, l)}${from}${clients}  ${l.key}: ${e(row.keySource ?? '-')}  ${l.model}: ${e(row.model ?? '-')}  ${l.logprobs}: ${l.status[row.logprobs] ?? e(String(row.logprobs))}${findings}\n`;
}

/**
 * `rollout-lint endpoints [paths…] [--json]`: prints the endpoint rows (JSON: an array of
 * `EndpointRow`). Exit 0, or 2 on a configuration error.
 */
export async function runEndpoints(paths: string[], options: EndpointsCommandOptions, io: CliIo): Promise<number> {
  const locale = cliLocale(options.lang, io.env);
  try {
    const rows = await collectEndpoints(paths, options, io);
    if (options.json) io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    else for (const row of rows) io.stdout(textRow(row, locale));
    return 0;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(`rollout-lint: ${locale === 'zh-CN' ? '配置无效' : 'invalid configuration'}\n${error.message}\n`);
    return 2;
  }
}
