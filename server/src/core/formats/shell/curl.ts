import { parseTree, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import type { ApiKind, Range, RequestSite, Setting } from '../../model/types';
import type { Invocation, ShellContext } from './context';
import { isRedirect } from './commands';
import { addSetting, rangeOf, wordOf } from './values';
import { literalSpan, type Word } from './words';

/** curl options that take a value (curl(1) man page); the value is never the URL. */
const VALUE_OPTIONS = new Set([
  '--request', '--output', '--user', '--user-agent', '--referer', '--cookie', '--cookie-jar', '--form',
  '--max-time', '--connect-timeout', '--write-out', '--proxy', '--retry', '--retry-delay', '--cacert',
  '--cert', '--key', '--upload-file', '--config', '--resolve', '--noproxy', '--limit-rate', '--range',
  '--data-urlencode', '--form-string', '--proxy-user', '--oauth2-bearer', '--unix-socket',
]);
const SHORT_VALUE_LETTERS = new Set('XouAebcFmwxTKrEQYyzC');
const HEADER_OPTIONS = new Set(['-H', '--header']);
const BODY_OPTIONS = new Set(['-d', '--data', '--data-raw', '--data-binary', '--data-ascii', '--json']);
/** Credential headers: `Authorization` (OpenAI-style), `x-api-key` (Anthropic), `api-key` (Azure OpenAI). */
const AUTHORIZATION = /^(\s*)(authorization|x-api-key|api-key)\s*:\s*/i;
/** Stands for an expansion inside a JSON body so the body still parses; a string holding it is dynamic. */
const PLACEHOLDER = '\uE000';

/**
 * Reads a curl invocation: the URL (Setting `url`), an `Authorization`, `x-api-key` or `api-key` header
 * (Setting named as written, value after the colon; the latter two have the `apiKey` role) and a JSON `-d`/`--data`/`--json` body, which becomes a
 * RequestSite whose params are the body's top-level properties (ranges mapped into the script).
 */
export function readCurl(context: ShellContext, invocation: Invocation): void {
  const { items } = invocation;
  const words = items.map((node) => (isRedirect(node) ? undefined : wordOf(context, node)));
  let url: Word | undefined;
  let body: Word | undefined;
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const option = word?.literal;
    if (!word) continue;
    if (option === undefined || !option.startsWith('-') || option === '-') {
      if (!url) url = addUrl(context, invocation, word, word.range);
      continue;
    }
    const next = words[i + 1];
    const short = /^-[A-Za-z]+$/.test(option) ? option[option.length - 1] : undefined;
    if (HEADER_OPTIONS.has(option) || short === 'H') {
      if (next) addAuthorization(context, invocation, next);
    } else if (BODY_OPTIONS.has(option) || short === 'd') {
      body ??= next;
    } else if (option === '--url') {
      if (next) url = addUrl(context, invocation, next, rangeOf(items[i]));
    } else if (!VALUE_OPTIONS.has(option) && !(short !== undefined && SHORT_VALUE_LETTERS.has(short))) continue;
    i++;
  }
  if (body) addBodySite(context, invocation, body, url);
}

function addUrl(context: ShellContext, invocation: Invocation, word: Word, keyRange: Range): Word {
  addSetting(context, { key: 'url', kind: 'flag', keyRange, statementRange: invocation.statementRange, group: invocation.group, command: 'curl' }, word);
  return word;
}

function addAuthorization(context: ShellContext, invocation: Invocation, word: Word): void {
  const head = word.segments[0];
  const match = head?.kind === 'literal' ? AUTHORIZATION.exec(head.text) : null;
  if (!head || head.kind !== 'literal' || !match) return;
  const keyStart = match[1].length;
  let start = word.range.end;
  let end = start;
  let value = '';
  let dynamic = false;
  word.segments.forEach((segment, index) => {
    const from = index === 0 ? match[0].length : 0;
    if (segment.kind === 'expansion') {
      dynamic = true;
      if (start === word.range.end) start = segment.node.startIndex;
      end = segment.node.endIndex;
      return;
    }
    const text = segment.text.slice(from);
    value += text;
    const last = text.trimEnd().length;
    if (last === 0) return;
    if (start === word.range.end) start = segment.offsets[from];
    end = literalSpan(segment, from, from + last).end;
  });
  if (start === word.range.end) start = end = literalSpan(head, head.text.length - 1, head.text.length).end;
  const setting: Setting = {
    key: match[2],
    path: match[2],
    format: 'shell',
    kind: 'flag',
    raw: context.text.slice(word.range.start, word.range.end),
    value: dynamic ? undefined : value.trim(),
    valueType: dynamic ? 'dynamic' : 'string',
    keyRange: literalSpan(head, keyStart, keyStart + match[2].length),
    valueRange: word.range,
    contentRange: { start, end },
    quote: word.quoted?.quote ?? '',
    statementRange: invocation.statementRange,
    group: invocation.group,
    command: 'curl',
  };
  context.out.settings.push(setting);
}

/** The body with expansions replaced by PLACEHOLDER, and the source range of each character. */
function flatten(word: Word): { body: string; starts: number[]; ends: number[] } {
  let body = '';
  const starts: number[] = [];
  const ends: number[] = [];
  for (const segment of word.segments) {
    if (segment.kind === 'expansion') {
      body += PLACEHOLDER;
      starts.push(segment.node.startIndex);
      ends.push(segment.node.endIndex);
    } else {
      body += segment.text;
      for (const at of segment.offsets) {
        starts.push(at);
        ends.push(at + 1);
      }
    }
  }
  return { body, starts, ends };
}

function addBodySite(context: ShellContext, invocation: Invocation, bodyWord: Word, url: Word | undefined): void {
  const { body, starts, ends } = flatten(bodyWord);
  const errors: ParseError[] = [];
  const root = parseTree(body, errors, { allowTrailingComma: true });
  if (root?.type !== 'object') return;
  const span = (offset: number, length: number): Range =>
    length > 0 ? { start: starts[offset], end: ends[offset + length - 1] } : { start: starts[offset] ?? bodyWord.range.end, end: starts[offset] ?? bodyWord.range.end };
  const params: Record<string, Setting> = {};
  for (const property of root.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (!keyNode || !valueNode || typeof keyNode.value !== 'string') continue;
    const setting = bodySetting(context, invocation, keyNode, valueNode, body, span);
    setting.statementRange = span(property.offset, property.length);
    context.out.settings.push(setting);
    params[setting.key] = setting;
  }
  const urlText = url ? url.segments.map((segment) => (segment.kind === 'literal' ? segment.text : PLACEHOLDER)).join('') : '';
  const site: RequestSite = {
    format: 'shell',
    apiKind: apiKindOf(urlText),
    style: 'flags',
    range: invocation.range,
    anchorRange: rangeOf(invocation.program),
    params,
    isRollout: false,
    callee: 'curl',
  };
  if (url?.literal !== undefined) site.endpoint = url.literal;
  context.out.requestSites.push(site);
}

function bodySetting(
  context: ShellContext,
  invocation: Invocation,
  keyNode: JsonNode,
  valueNode: JsonNode,
  body: string,
  span: (offset: number, length: number) => Range,
): Setting {
  const valueRange = span(valueNode.offset, valueNode.length);
  const isString = valueNode.type === 'string';
  const literal = body.slice(valueNode.offset, valueNode.offset + valueNode.length);
  const dynamic = literal.includes(PLACEHOLDER);
  let value: string | undefined;
  let valueType: Setting['valueType'];
  if (dynamic) valueType = 'dynamic';
  else if (isString) [value, valueType] = [String(valueNode.value), 'string'];
  else if (valueNode.type === 'object' || valueNode.type === 'array') valueType = valueNode.type === 'object' ? 'map' : 'list';
  else [value, valueType] = [literal, valueNode.type === 'number' || valueNode.type === 'boolean' ? valueNode.type : 'null'];
  return {
    key: keyNode.value as string,
    path: keyNode.value as string,
    format: 'shell',
    kind: 'property',
    raw: context.text.slice(valueRange.start, valueRange.end),
    value,
    valueType,
    keyRange: span(keyNode.offset + 1, Math.max(0, keyNode.length - 2)),
    valueRange,
    contentRange: isString ? span(valueNode.offset + 1, Math.max(0, valueNode.length - 2)) : valueRange,
    quote: isString ? '"' : '',
    statementRange: valueRange,
    group: invocation.group,
    command: 'curl',
  };
}

/** The API a URL calls, from its last path segments (OpenAI API reference; SGLang native `/generate`). */
function apiKindOf(url: string): ApiKind {
  const path = url.replace(/[?#].*$/s, '').replace(/\/+$/, '');
  if (path.endsWith('/chat/completions')) return 'chat';
  if (path.endsWith('/completions')) return 'completions';
  if (path.endsWith('/generate')) return 'sglang-generate';
  if (path.endsWith('/responses')) return 'responses';
  return 'unknown';
}
