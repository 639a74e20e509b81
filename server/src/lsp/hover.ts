import type { Hover } from 'vscode-languageserver';
import { MarkupKind } from 'vscode-languageserver';
import type { EnvRead, Loader, Range, Setting } from '../core/model/types';
import { LOADERS } from '../core/model/types';
import type { Locale } from '../core/messages/locale';
import { surfacePhrases, type Surface } from '../core/messages/surface';
import { maskParts, maskSecret } from '../core/model/secret';
import { isPlaceholderKey } from '../core/model/keys';
import { documentSecrets, redact } from '../core/redact';
import { findVerified, worksAsConfigured, type VerifiedEndpoint } from '../core/model/verified';
import type { ResolvedBaseUrl } from '../core/resolve/resolve';
import { providerName } from '../core/providers/profiles';
import { roleOf } from '../core/resolve/roles';
import { effectiveRequestUrl } from '../core/resolve/urls';
import { NO_REQUEST_REASON, readingLabel } from '../core/resolve/clients';
import { loaderNames } from '../core/rules/api-key-whitespace';
import { code, say } from './messages';
import type { DocumentLint } from './lint-service';
import type { ChainEntry } from '../core/workspace/env-index';

/** The workspace env index's value chain of a variable for the hovered document (absent outside a workspace). */
export type ChainOf = (name: string) => ChainEntry[];

const EDGE_WHITESPACE = /^\s|\s$/;

const inside = (range: Range, offset: number) => offset >= range.start && offset <= range.end;

/**
 * Hover at a core offset: for a base URL the effective request URL per consumer (or a plain
 * "consumer unknown") and the provider; for an API key its masked value, length and which dotenv
 * loaders keep edge whitespace; for `os.getenv("NAME")` and the like the values the `.env` files in
 * the same folder give NAME (from `WorkspaceFacts.siblingEnv`), or with `chainOf` every definition in
 * the workspace in load order (keys masked). `undefined` elsewhere. A base URL
 * with a probe result in `verified` also says what Test Connection proved, and when (server local time).
 * Every finding at the offset adds its evidence line (why Rollout Lint believes it).
 */
export function hoverAt(lint: DocumentLint, offset: number, locale: Locale, verified: readonly VerifiedEndpoint[] = [], surface: Surface = 'cli', chainOf?: ChainOf): Hover | undefined {
  const outcome = lint.outcome;
  if (!outcome) return undefined;
  const sections: string[] = [];
  let range: Range | undefined;
  const read = outcome.extraction.envReads.find((r) => inside(r.range, offset));
  if (read) {
    sections.push(envReadHover(read, lint, locale, chainOf));
    range = read.range;
  }
  const found = outcome.resolution.settings.find((s) => inside(s.keyRange, offset) || inside(s.valueRange, offset));
  const setting = found && (found.value !== undefined || !read) ? found : undefined;
  if (setting?.role === 'baseUrl') {
    sections.push(baseUrlHover(setting, outcome.resolution.baseUrls.find((b) => b.setting === setting), locale, verified, surface));
    range ??= setting.valueRange;
  } else if (setting?.role === 'apiKey') {
    sections.push(apiKeyHover(setting, locale));
    range ??= setting.valueRange;
  }
  const evidence = outcome.findings.filter((f) => f.evidence && inside(f.range, offset));
  if (evidence.length) {
    sections.push(evidence.map((f) => say(locale, 'hover.evidence', { ruleId: f.ruleId, severity: say(locale, `severity.${f.severity}`), evidence: f.evidence! })).join('\n\n'));
    range ??= evidence[0].range;
  }
  if (sections.length === 0 || !range) return undefined;
  return { contents: { kind: MarkupKind.Markdown, value: redact(sections.join('\n\n---\n\n'), documentSecrets(outcome.extraction)) }, range: lint.doc.range(range) };
}


function title(text: string): string {
  return `**Rollout Lint** · ${text}`;
}

/** `HH:MM` of an epoch time in the server's local time zone. */
export function clockTime(at: number): string {
  const date = new Date(at);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

function verifiedLines(setting: Setting, resolved: ResolvedBaseUrl, locale: Locale, verified: readonly VerifiedEndpoint[]): string[] {
  const lines: string[] = [];
  for (const request of resolved.requests) {
    const proof = findVerified(verified, setting.value!.trim(), request.consumer.id);
    if (!proof) continue;
    const data = { time: clockTime(proof.at), url: code(proof.url), working: code(proof.workingBaseUrl), consumer: say(locale, `consumer.${request.consumer.id}` as const) };
    lines.push(say(locale, worksAsConfigured(proof) ? 'hover.verifiedWorks' : 'hover.verifiedFix', data));
  }
  return lines;
}

function baseUrlHover(setting: Setting, resolved: ResolvedBaseUrl | undefined, locale: Locale, verified: readonly VerifiedEndpoint[], surface: Surface): string {
  const lines = [title(say(locale, 'hover.baseUrl', { key: code(setting.key) }))];
  if (!resolved?.parsed && !resolved?.requests.length) {
    lines.push(say(locale, 'hover.notLiteral'));
    return lines.join('\n\n');
  }
  const provider = resolved.providers[0];
  lines.push(provider ? say(locale, 'hover.provider', { name: providerName(provider, locale), docs: provider.docsUrl }) : say(locale, 'hover.noProvider'));
  if (provider) {
    const bases = provider.openaiBases.map(code).join(', ');
    lines.push(say(locale, 'hover.providerFacts', { bases, logprobs: say(locale, `hover.logprobs.${provider.logprobs}` as const) }));
  }
  if (resolved.requests.length > 0) {
    const perConsumer = (id: string) => resolved.requests.filter((r) => r.consumer.id === id).length;
    const requests = resolved.requests.map((r) => {
      // Clients that read the same value differently (per `.env` loader, whitespace, fragment, version) each get their own line.
      const who = perConsumer(r.consumer.id) > 1 && r.clients.length > 0 ? ` — ${r.clients.map(readingLabel).join(', ')}` : '';
      const reason = r.reason ? NO_REQUEST_REASON[locale === 'zh-CN' ? 'zh-CN' : 'en'][r.reason] : undefined;
      const how = r.call ? ` (${say(locale, 'hover.byCall', { call: code(`${r.call}(…)`) })})` : r.assumed ? ` (${say(locale, 'hover.assumed')})` : '';
      const url = r.sent ? `${r.method} ${code(r.url)}${how}` : reason ? say(locale, 'hover.noRequestWhy', { reason }) : say(locale, 'hover.sendsNothing');
      return say(locale, 'hover.request', { consumer: say(locale, `consumer.${r.consumer.id}` as const), via: `${code(viaWithoutConsumer(r.consumer.via))}${who}`, url });
    });
    lines.push(`${say(locale, 'hover.requests')}\n\n${requests.join('\n')}`);
    lines.push(...verifiedLines(setting, resolved, locale, verified));
  } else {
    lines.push(say(locale, 'hover.consumerUnknown', surfacePhrases(locale, surface)));
    lines.push(say(locale, 'hover.ifOpenAiSdk', { url: code(effectiveRequestUrl(setting.value!.trim(), 'openai-sdk')) }));
  }
  return lines.join('\n\n');
}

/** `OPENAI_BASE_URL (openai SDK)` → `OPENAI_BASE_URL`: the hover line names the consumer already. */
function viaWithoutConsumer(via: string): string {
  return via.replace(/ \((?:openai SDK|Anthropic SDK)\)$/, '');
}

function apiKeyHover(setting: Setting, locale: Locale): string {
  const lines = [title(say(locale, 'hover.apiKey', { key: code(setting.key) }))];
  if (setting.value === undefined) {
    lines.push(say(locale, 'hover.keyDynamic'));
    return lines.join('\n\n');
  }
  const value = setting.value;
  // A placeholder (`YOUR_API_KEY`) is no secret and the finding's message prints it: shown as written, as there.
  const shown = isPlaceholderKey(value.trim()) ? value.trim() : maskParts(value).shown;
  lines.push(value === '' ? say(locale, 'hover.keyEmpty') : say(locale, 'hover.keyValue', { masked: code(shown), length: value.length }));
  if (setting.loaded) {
    const kept: Loader[] = [];
    const dropped: Loader[] = [];
    for (const loader of LOADERS) {
      const loaded = setting.loaded[loader];
      if (loaded === null) dropped.push(loader);
      else if (typeof loaded === 'string' && EDGE_WHITESPACE.test(loaded)) kept.push(loader);
    }
    const names = (list: Loader[]) => loaderNames(list, locale);
    lines.push(kept.length ? say(locale, 'hover.loadersKeep', { loaders: names(kept) }) : say(locale, 'hover.loadersTrim'));
    if (dropped.length) lines.push(say(locale, 'hover.loadersDrop', { loaders: names(dropped) }));
  } else if (EDGE_WHITESPACE.test(value)) {
    lines.push(say(locale, 'hover.edgeWhitespace'));
  }
  return lines.join('\n\n');
}

/** True when an env var of this name holds a secret (its value is masked in hover). */
function isSecretName(name: string, lint: DocumentLint): boolean {
  const probe = { key: name, path: name, kind: 'env', format: 'dotenv' } as Setting;
  const role = roleOf(probe, lint.config.config.extraKeys);
  return role === 'apiKey' || role === 'header';
}

function envReadHover(read: EnvRead, lint: DocumentLint, locale: Locale, chainOf?: ChainOf): string {
  const lines = [title(say(locale, 'hover.envRead', { name: code(read.name) }))];
  const secret = isSecretName(read.name, lint);
  const shown = (value: string) => code(secret && !isPlaceholderKey(value) ? maskSecret(value, locale) : value);
  if (chainOf) {
    lines.push(chainLines(chainOf(read.name), read.name, locale, shown));
    lines.push(read.defaultValue !== undefined ? say(locale, 'hover.envDefault', { value: shown(read.defaultValue) }) : say(locale, 'hover.envNoDefault'));
    return lines.join('\n\n');
  }
  const path = lint.location.absPath;
  const values = path && lint.location.facts ? (lint.location.facts.siblingEnv(path)[read.name] ?? []) : [];
  if (values.length) {
    lines.push(`${say(locale, 'hover.envValues')}\n\n${values.map((v) => say(locale, 'hover.envValue', { file: code(v.file), value: shown(v.value) })).join('\n')}`);
  } else {
    lines.push(say(locale, 'hover.envNone', { name: code(read.name) }));
  }
  lines.push(read.defaultValue !== undefined ? say(locale, 'hover.envDefault', { value: shown(read.defaultValue) }) : say(locale, 'hover.envNoDefault'));
  return lines.join('\n\n');
}

/** The value chain of a variable: each definition with its file:line, value (masked for keys) and why it sits there. */
function chainLines(chain: readonly ChainEntry[], name: string, locale: Locale, shown: (value: string) => string): string {
  if (chain.length === 0) return say(locale, 'hover.envNowhere', { name: code(name) });
  const entries = chain.map((e, i) => {
    const file = code(`${e.definition.at.path}:${e.definition.at.start.line + 1}`);
    const value = e.definition.value === undefined ? code('…') : shown(e.definition.value);
    const line = say(locale, 'hover.envChainEntry', { n: i + 1, file, value, reason: say(locale, `chain.${e.reason}` as const) });
    return line;
  });
  return `${say(locale, 'hover.envChain')}\n\n${entries.join('\n')}`;
}
