import type { ParsedBaseUrl } from '../resolve/urls';
import type { ProviderProfile } from '../providers/profiles';
import { isLocalHost, isPrivateHost } from '../model/hosts';
import { normalizeKey } from '../resolve/roles';
import { MODEL_NAME_WORD } from './vendors';

/**
 * Default ports of local inference servers that serve their OpenAI-compatible API under `/v1` and speak
 * plain HTTP unless given a certificate. Sources (each server's own docs or source):
 * - Ollama 11434: docs/openai.md, `OpenAI(base_url='http://localhost:11434/v1/')`;
 * - vLLM 8000: "OpenAI-Compatible Server" docs, `vllm serve` listens on port 8000, `OpenAI(base_url="http://localhost:8000/v1")`;
 * - SGLang 30000: docs "OpenAI APIs", `launch_server --port 30000`, `OpenAI(base_url="http://127.0.0.1:30000/v1")`;
 * - LM Studio 1234: lmstudio.ai/docs/api/openai-api, "the server port is 1234", `base_url="http://localhost:1234/v1"`;
 * - llama.cpp `llama-server` 8080: tools/server/README.md, "--port PORT port to listen (default: 8080)", routes `/v1/chat/completions`.
 * `distinctive`: no common web framework or proxy listens there by default (Django, uvicorn and many
 * apps take 8000; every proxy takes 8080), so the port alone names the server. `plainHttp`: `https://`
 * to this port on a private host is a handshake failure; not claimed for 8080, where TLS-terminating
 * proxies and app servers are common.
 */
export const LOCAL_SERVER_PORTS: Readonly<Record<string, { server: string; distinctive: boolean; plainHttp: boolean }>> = {
  '11434': { server: 'Ollama', distinctive: true, plainHttp: true },
  '30000': { server: 'SGLang', distinctive: true, plainHttp: true },
  '1234': { server: 'LM Studio', distinctive: true, plainHttp: true },
  '8000': { server: 'vLLM', distinctive: false, plainHttp: true },
  '8080': { server: 'llama.cpp server', distinctive: false, plainHttp: false },
};

/**
 * The local inference server a URL's explicit port is the default of, on a host that is not a known
 * provider (`providers` empty) and not local (local hosts already match the server's profile by port,
 * see `matchProviders`): `http://gpu-box.example.com:11434` under an OpenAI client is Ollama, whose
 * OpenAI API lives under `/v1`. `undefined` when the port names no such server.
 */
export function serverOnPort(parsed: ParsedBaseUrl, providers: readonly ProviderProfile[]): { server: string; port: string } | undefined {
  if (providers.length > 0 || isLocalHost(parsed.host) || parsed.port === '') return undefined;
  const known = LOCAL_SERVER_PORTS[parsed.port];
  return known ? { server: known.server, port: parsed.port } : undefined;
}

/**
 * Whether an `https://` URL on a private host and port is certain to meet a plain-HTTP local server
 * (the TLS handshake then fails): for a base-URL setting, any listed port; for a setting of any other
 * name (`LLM_ENDPOINT`, `ollama_url`), a distinctive port, or any listed port when the name names a
 * model server or role (`VLLM_ENDPOINT`, `llm_url`). Returns the server, or `undefined`.
 */
export function plainHttpServer(parsed: ParsedBaseUrl, key: string, isBaseUrl: boolean): string | undefined {
  if (parsed.scheme !== 'https' || !isPrivateHost(parsed.host)) return undefined;
  const known = LOCAL_SERVER_PORTS[parsed.port];
  if (!known?.plainHttp) return undefined;
  if (isBaseUrl || known.distinctive || MODEL_NAME_WORD.test(normalizeKey(key))) return known.server;
  return undefined;
}
