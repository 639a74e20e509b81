import { normalizeLocale } from '../../../server/src/core/messages/locale';
import { maskSecret } from '../../../server/src/core/model/secret';
import { chooseProbeKey, originOf, type EnvMap, type MessageRef, type ProbeConsumer } from '../../../server/src/core/probe/index';
import type { Memento, SecretStore } from '../types';
import { say } from './texts';

/** The consent modal's answers (DESIGN "Security model"): Send once / Always for this origin / Cancel. */
export type ConsentAnswer = 'once' | 'always' | 'cancel';

/** What the consent modal shows; never a full key. */
export interface ConsentRequest {
  /** The origin the key would go to (`scheme://host[:port]`). */
  origin: string;
  message: string;
  detail: string;
}

/** A key configured in the same block as the base URL (from `rolloutLint/endpointAt`). */
export interface BlockKey {
  /** The key's setting name (`OPENAI_API_KEY`, `api_key`). */
  name: string;
  value: string;
  /** The base URL of the same block: the key may go only to its origin. */
  baseUrl: string;
  /** The file, for messages (workspace-relative path or name). */
  file: string;
}

/** The decision: the key to send (if any), where it came from, and how to say so. */
export interface KeyDecision {
  apiKey?: string;
  /** `file` (same block), `stored`, `env:NAME`, or `file:PATH#NAME` (a block key of another origin); approvals use it. */
  source?: string;
  /** One line for the report, key masked. */
  line: string;
  /** When no key is sent: why, for the probe's explanation. */
  note?: MessageRef;
}

export interface KeyInputs {
  baseUrl: string;
  consumer: ProbeConsumer;
  blockKey?: BlockKey;
  env: EnvMap;
  secrets: SecretStore;
  approvals: Approvals;
  language: string;
  /** Asks the user (the modal, or the test hook); called at most once per decision. */
  ask(request: ConsentRequest): Promise<ConsentAnswer>;
}

/** Environment variables a consumer's client reads its key from, by convention (the pairing offered for consent). */
const CONSUMER_KEY_ENV: Record<ProbeConsumer, readonly string[]> = {
  'openai-sdk': ['OPENAI_API_KEY'],
  'openai-responses': ['OPENAI_API_KEY'],
  'v1-appending': ['OPENAI_API_KEY'],
  raw: ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'],
  'sglang-native': [],
};

/** SecretStorage key of the API key the user typed for `origin`. */
export function storedKeyName(origin: string): string {
  return `rolloutLint.apiKey:${origin}`;
}

const APPROVALS = 'rolloutLint.connectionApprovals';

/** "Always for this origin" answers, kept in `globalState` as `origin + ' ' + key source`. */
export class Approvals {
  constructor(private readonly state: Memento) {}

  private list(): string[] {
    const value = this.state.get<unknown>(APPROVALS);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  }

  has(origin: string, source: string): boolean {
    return this.list().includes(`${origin} ${source}`);
  }

  async add(origin: string, source: string): Promise<void> {
    if (!this.has(origin, source)) await this.state.update(APPROVALS, [...this.list(), `${origin} ${source}`]);
  }

  /** Forgets every approval; resolves to how many there were. */
  async reset(): Promise<number> {
    const count = this.list().length;
    await this.state.update(APPROVALS, undefined);
    return count;
  }
}

/**
 * Decides which key the probe sends to `baseUrl` (DESIGN "Security model"), in this order:
 * 1. the key of the same block, only when the block's base URL has the same origin;
 * 2. the key the user stored for this origin (Set API Key);
 * 3. an environment key bound to this origin (`chooseProbeKey`: X_API_KEY → X's documented origin
 *    or X_BASE_URL of the same environment);
 * 4. otherwise the key the consumer's client would read (`OPENAI_API_KEY`, …; or a block key of
 *    another origin) only after consent: an "Always" approval for origin + source, or the modal.
 * Resolves to `undefined` when the user cancels the modal (nothing may be sent then).
 */
export async function decideKey(input: KeyInputs): Promise<KeyDecision | undefined> {
  const origin = originOf(input.baseUrl) ?? input.baseUrl;
  const t = (id: Parameters<typeof say>[1], data?: Record<string, string | number>) => say(input.language, id, data);
  const block = input.blockKey;
  const fromBlock = block ? t('source.file', { file: block.file, key: block.name }) : '';
  if (block?.value && originOf(block.baseUrl) === origin) return sent(block.value, 'file', fromBlock, input.language);
  const stored = await input.secrets.get(storedKeyName(origin));
  if (stored) return sent(stored, 'stored', t('source.stored'), input.language);
  const choice = chooseProbeKey({ baseUrl: input.baseUrl, env: input.env });
  if (choice.apiKey && choice.source) return sent(choice.apiKey, `env:${choice.source}`, t('source.env', { name: choice.source }), input.language);

  const name = CONSUMER_KEY_ENV[input.consumer].find((n) => input.env[n]);
  const candidate = block?.value
    ? { value: block.value, source: `file:${block.file}#${block.name}`, label: fromBlock }
    : name
      ? { value: input.env[name]!, source: `env:${name}`, label: t('source.env', { name }) }
      : undefined;
  if (!candidate) {
    const note = choice.note.id === 'keyNote.fileOtherOrigin' ? choice.note : { id: 'keyNote.none', data: { origin } };
    return { line: `${t('key.none')}. ${t('key.hint', { origin })}`, note };
  }
  if (input.approvals.has(origin, candidate.source)) {
    return sent(candidate.value, candidate.source, candidate.source.startsWith('env:') ? t('source.envApproved', { name: candidate.source.slice(4) }) : candidate.label, input.language);
  }
  const answer = await input.ask({
    origin,
    message: t('consent.message', { masked: maskSecret(candidate.value), source: candidate.label, origin }),
    detail: t('consent.detail', { origin }),
  });
  if (answer === 'cancel') return undefined;
  if (answer === 'always') await input.approvals.add(origin, candidate.source);
  return sent(candidate.value, candidate.source, candidate.label, input.language);
}

function sent(apiKey: string, source: string, from: string, language: string): KeyDecision {
  return { apiKey, source, line: `${maskSecret(apiKey, normalizeLocale(language))} · ${from}` };
}
