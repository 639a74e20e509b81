import type { ProviderProfile } from './profiles';

/** The README markers around the generated providers table. */
export const PROVIDERS_START = '<!-- providers:start -->';
export const PROVIDERS_END = '<!-- providers:end -->';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

function logprobsCell(p: ProviderProfile): string {
  if (p.logprobs === 'supported') return p.topLogprobsMax !== undefined ? `supported (top_logprobs ≤ ${p.topLogprobsMax})` : 'supported';
  return p.logprobs;
}

function baseCell(p: ProviderProfile): string {
  const bases = p.openaiBases.map((b) => `\`${b}\``).join('<br>');
  const port = p.localPorts?.length ? ` (any local host, port ${p.localPorts.join('/')})` : '';
  return bases + port;
}

function sourceCell(p: ProviderProfile): string {
  const urls = [p.sources?.openaiBases, p.sources?.logprobs].filter((u): u is string => !!u);
  return [...new Set(urls)].map((u, i) => `[${i === 0 ? 'docs' : 'log probs'}](${u})`).join(' · ');
}

/**
 * The Markdown table of provider profiles (no markers): name, documented OpenAI-style base URL(s),
 * log-prob support for chat completions, and links to the sources of those facts.
 */
export function renderProvidersTable(profiles: readonly ProviderProfile[]): string {
  return [
    '| Provider | OpenAI-style base URL | Log probs (chat) | Source |',
    '| --- | --- | --- | --- |',
    ...profiles.map((p) => `| ${cell(p.name)} | ${cell(baseCell(p))} | ${logprobsCell(p)} | ${sourceCell(p)} |`),
  ].join('\n');
}

/** `readme` with the text between the providers markers replaced by `table`. Throws when a marker is missing, duplicated or out of order. */
export function replaceProvidersSection(readme: string, table: string): string {
  const start = readme.indexOf(PROVIDERS_START);
  const end = readme.indexOf(PROVIDERS_END);
  if (start < 0 || end < start || readme.indexOf(PROVIDERS_START, start + 1) >= 0 || readme.indexOf(PROVIDERS_END, end + 1) >= 0) {
    throw new Error(`README.md must contain ${PROVIDERS_START} and ${PROVIDERS_END} once each, in that order`);
  }
  const eol = readme.includes('\r\n') ? '\r\n' : '\n';
  return readme.slice(0, start + PROVIDERS_START.length) + eol + table.replace(/\n/g, eol) + eol + readme.slice(end);
}
