import { maskSecret } from '../model/secret';
import { BUILTIN_PROVIDERS, providerName, type ProviderProfile } from '../providers/profiles';
import type { MessageRef } from './types';

/** Environment variables as a plain map (`process.env`-shaped; values may be undefined). */
export type EnvMap = Readonly<Record<string, string | undefined>>;

/** A key found beside a base URL in one block of a file (same `.env`, same provider entry, same call). */
export interface FileKey {
  value: string;
  /** The base URL configured in the same block; the key may go only to its origin. */
  baseUrl: string;
}

export interface KeyChoiceInput {
  /** The URL the probe will call (its origin is what matters). */
  baseUrl: string;
  env: EnvMap;
  /** `--api-key-env NAME`: the user's explicit choice for this run; bypasses origin binding. */
  apiKeyEnv?: string;
  fileKey?: FileKey;
  profiles?: readonly ProviderProfile[];
}

/**
 * The key to send (if any) and why. `note` is a message id + data (key masked) for the report and
 * the CLI; `usageError` is set when `--api-key-env` names an unset variable.
 */
export interface KeyChoice {
  apiKey?: string;
  /** Env var name, or `file`. */
  source?: string;
  note: MessageRef;
  usageError?: boolean;
}

const KEY_VAR = /^(.+?)_(API_KEY|AUTH_TOKEN)$/i;

/** `scheme://host[:port]` of a URL, or undefined when it is not an absolute http(s) URL. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The origins a provider documents: `https://<host>` for each host, and the origins of its documented URLs. */
export function documentedOrigins(profile: ProviderProfile): string[] {
  const urls = [...profile.hosts.map((h) => `https://${h}`), ...profile.openaiBases, profile.chatUrl, profile.modelsUrl, profile.anthropicBase ?? ''];
  return [...new Set(urls.map(originOf).filter((o): o is string => !!o))];
}

interface Candidate {
  name: string;
  value: string;
  /** Origins the key is bound to, each with how. */
  bindings: { origin: string; binding: MessageRef }[];
}

function candidates(env: EnvMap, profiles: readonly ProviderProfile[]): Candidate[] {
  const out: Candidate[] = [];
  for (const [name, value] of Object.entries(env)) {
    const match = KEY_VAR.exec(name);
    if (!match || !value) continue;
    const bindings: Candidate['bindings'] = [];
    const baseEnv = `${match[1]}_BASE_URL`;
    const baseName = Object.keys(env).find((k) => k.toUpperCase() === baseEnv.toUpperCase());
    const baseOrigin = baseName ? originOf(env[baseName] ?? '') : undefined;
    if (baseName && baseOrigin) bindings.push({ origin: baseOrigin, binding: { id: 'binding.baseEnv', data: { baseEnv: baseName } } });
    for (const profile of profiles) {
      if (!profile.keyEnv?.some((k) => k.toUpperCase() === name.toUpperCase())) continue;
      for (const origin of documentedOrigins(profile)) bindings.push({ origin, binding: { id: 'binding.profile', data: { provider: { en: providerName(profile, 'en'), 'zh-CN': providerName(profile, 'zh-CN') } } } });
    }
    out.push({ name, value, bindings });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Decides which key the probe may send to `baseUrl` (DESIGN "Security model"):
 * 1. `--api-key-env NAME` — that variable, to any origin (the user chose it for this run);
 * 2. a key from a file, only to the origin of the base URL configured in the same block;
 * 3. an environment `X_API_KEY`/`X_AUTH_TOKEN`, only to X's documented origin (provider profiles:
 *    `keyEnv` → hosts and documented URLs) or to the origin of `X_BASE_URL` in the same environment.
 *    A key bound by `X_BASE_URL` wins over one bound by a profile; ties go by name.
 * Otherwise no key is sent, and the note says which keys exist and how to send one.
 */
export function chooseProbeKey(input: KeyChoiceInput): KeyChoice {
  const origin = originOf(input.baseUrl) ?? input.baseUrl;
  if (input.apiKeyEnv !== undefined) {
    const value = input.env[input.apiKeyEnv];
    if (!value) return { note: { id: 'keyNote.explicitMissing', data: { name: input.apiKeyEnv } }, usageError: true };
    return { apiKey: value, source: input.apiKeyEnv, note: { id: 'keyNote.explicit', data: { masked: maskSecret(value), name: input.apiKeyEnv, origin } } };
  }
  let fileNote: MessageRef | undefined;
  if (input.fileKey?.value) {
    const fileOrigin = originOf(input.fileKey.baseUrl);
    if (fileOrigin === origin) {
      return { apiKey: input.fileKey.value, source: 'file', note: { id: 'keyNote.file', data: { masked: maskSecret(input.fileKey.value), origin } } };
    }
    fileNote = { id: 'keyNote.fileOtherOrigin', data: { fileOrigin: fileOrigin ?? input.fileKey.baseUrl, origin } };
  }
  const all = candidates(input.env, input.profiles ?? BUILTIN_PROVIDERS);
  const allowed = all
    .map((c) => ({ c, bound: c.bindings.find((b) => b.origin === origin) }))
    .filter((x) => x.bound)
    .sort((a, b) => rank(a.bound!.binding) - rank(b.bound!.binding));
  const chosen = allowed[0];
  if (chosen) {
    const binding = chosen.bound!.binding;
    const id = binding.id === 'binding.baseEnv' ? 'keyNote.envBase' : 'keyNote.envProfile';
    return { apiKey: chosen.c.value, source: chosen.c.name, note: { id, data: { ...binding.data, masked: maskSecret(chosen.c.value), name: chosen.c.name, origin } } };
  }
  if (fileNote) return { note: fileNote };
  const bound = all.filter((c) => c.bindings.length > 0);
  if (bound.length === 0) return { note: { id: 'keyNote.none', data: { origin } } };
  return {
    note: {
      id: 'keyNote.notBound',
      data: {
        names: bound.map((c) => c.name).slice(0, 3).join(', '),
        origins: [...new Set(bound.flatMap((c) => c.bindings.map((b) => b.origin)))].slice(0, 3).join(', '),
        origin,
        name: bound[0].name,
      },
    },
  };
}

function rank(binding: MessageRef): number {
  return binding.id === 'binding.baseEnv' ? 0 : 1;
}
