import type { ParseProblem, RequestSite, Setting, TextEdit } from '../model/types';
import { redact } from '../redact';
import { consumerOfCallee } from '../model/clients';
import { valueEdit } from '../value-edit';

/** Subject key for findings about a setting (see `Finding.subject`). */
export function subjectOf(setting: Setting): string {
  return `setting@${setting.valueRange.start}`;
}

/** Subject key for findings about a request site. */
export function siteSubject(site: RequestSite): string {
  return `site@${site.range.start}`;
}

/**
 * True for template files that are meant to hold placeholders (`.env.example`, `.env.sample`,
 * `config.template.yaml`, `settings.example.json`): key rules do not apply to them (DESIGN).
 */
export function isExampleFile(path: string): boolean {
  const name = path.split('/').pop() ?? path;
  return /(^|[._-])(example|sample|template|dist|tmpl)([._-]|$)/i.test(name);
}

/**
 * An edit that makes the decoded value of `setting` equal `value`, re-encoded for its quoting and
 * touching nothing around it (whitespace before a `# comment`, quotes, unchanged escapes); see
 * `valueEdit`. `undefined` when the value cannot be written there: the fix is then dropped.
 */
export function replaceContent(setting: Setting, value: string): TextEdit | undefined {
  return valueEdit(setting, value);
}

/**
 * An edit that replaces the source text inside the quotes of `setting` with `content` (for fixes
 * that work on the text as written, such as trimming escaped whitespace), declaring the decoded
 * value it must yield so `lintDocument` can prove it. An unquoted value directly before an inline
 * `# comment` keeps its trailing whitespace: without it every dotenv loader and the shell would
 * read the comment as part of the value.
 */
export function replaceSource(setting: Setting, text: string, content: string, intendedValue: string | undefined): TextEdit {
  const { start, end } = setting.contentRange;
  if (setting.quote === '' && text[end] === '#') {
    const source = text.slice(start, end);
    const tail = /\s*$/.exec(source)![0];
    if (tail && !content.endsWith(tail)) content += tail;
  }
  return { range: { start, end }, text: content, intendedValue };
}

/**
 * Shortens a value for a message: credentials inside URLs are hidden (`redactUrlSecrets`), then at
 * most `max` characters are kept, with `…` in the middle.
 */
export function shorten(raw: string, max = 80): string {
  // Redact before cutting: a key cut in half by the `…` would no longer look like a key.
  const value = redact(raw);
  if (value.length <= max) return value;
  const half = Math.floor((max - 1) / 2);
  return `${value.slice(0, half)}…${value.slice(-half)}`;
}

/**
 * True when a parse problem (an unterminated quote, a syntax error) overlaps the setting's value:
 * `parse-error` reports the root cause, so value rules stay quiet about the misread value.
 */
export function isMisparsed(setting: Setting, problems: readonly ParseProblem[]): boolean {
  const { start, end } = setting.valueRange;
  return problems.some((p) => p.range.start < Math.max(end, start + 1) && start < Math.max(p.range.end, p.range.start + 1));
}

/** Name prefixes of model-serving keys (LLM vendors, gateways, local servers, RL roles). */
const MODEL_KEY_PREFIX = /^(openai|azure_openai|anthropic|claude|deepseek|openrouter|taotoken|sglang|vllm|llm|dashscope|qwen|moonshot|kimi|zhipu|glm|gemini|mistral|groq|together|fireworks|xai|siliconflow|ark|volcengine|minimax|baichuan|perplexity|cohere|ollama|lmstudio|litellm|policy|rollout|reward|judge|teacher|model)(_|$)/;
const MODEL_PATH_WORD = /(^|[._\-[\]])(openai|anthropic|llm|model|models|provider|providers|rollout|policy|reward|judge|teacher|inference|serving|generation)([._\-[\]]|$)/i;

/** Base URLs of a document indexed for `isModelEndpointKey`: their groups, and group + name prefix. */
export interface BaseUrlIndex {
  groups: Set<string>;
  prefixes: Set<string>;
}

/** Indexes base-URL settings once per document (`OPENAI_BASE_URL` → prefix `openai`). */
export function indexBaseUrls(baseUrls: readonly Setting[]): BaseUrlIndex {
  const groups = new Set<string>();
  const prefixes = new Set<string>();
  for (const b of baseUrls) {
    groups.add(b.group);
    prefixes.add(`${b.group}\0${b.key.replace(/^-+/, '').replace(/-/g, '_').toLowerCase().replace(/_?(base_url|api_base|baseurl|url|endpoint)$/, '')}`);
  }
  return { groups, prefixes };
}

/**
 * Whether a key setting is the key of a model endpoint rather than of some other service
 * (`WANDB_API_KEY`, `PINECONE_API_KEY`): an LLM client's keyword argument or a call that also gets a
 * base URL; an env name whose prefix names a model vendor or matches a `*_BASE_URL` in the same
 * document; a YAML/JSON/flag key next to a base URL or under a model-ish path.
 */
export function isModelEndpointKey(setting: Setting, baseUrls: BaseUrlIndex): boolean {
  const key = setting.key.replace(/^-+/, '').replace(/-/g, '_').toLowerCase();
  const prefix = key.replace(/_?(api_key|apikey|auth_token|key)$/, '');
  if (prefix === '' || MODEL_KEY_PREFIX.test(prefix)) return true;
  if (setting.kind === 'env' ? baseUrls.prefixes.has(`${setting.group}\0${prefix}`) : baseUrls.groups.has(setting.group)) return true;
  if (setting.kind === 'kwarg') return consumerOfCallee(setting.callee ?? '') !== undefined;
  return setting.kind !== 'env' && MODEL_PATH_WORD.test(setting.path);
}
