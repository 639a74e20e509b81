import type { Setting } from '../model/types';

/**
 * Shapes of base-URL and host values shared by `base-url-placeholder`, `base-url-missing-scheme`,
 * `base-url-malformed` and `base-url-bind-address`. Values are trimmed by the caller.
 */

const ANGLE = /<[^<>\s][^<>]*>/;
const YOUR = /(^|[^a-z])your[_-]?[a-z]/i;
const IP_PATTERN = /(^|[/@])x{1,3}(\.x{1,3}){3}(?=[:/]|$)/i;
const WORD = /^(changeme|change[_-]me|todo|tbd|fixme|placeholder|url|base[_-]?url|api[_-]?base|endpoint|x{3,}|\.{3}|…)$/i;
const AUTHORITY = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/)?(?:[^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*)(?::([^/?#]*))?/;
/** Upper-case host words from READMEs: `http://HOST:8000`, `http://SERVER_IP:30000/v1`. */
const NAMED_HOST = /^[A-Z][A-Z0-9_]*$/;
const NAMED_HOST_WORD = /HOST|IP|SERVER|DOMAIN|ADDR|ENDPOINT|NAME/;

/**
 * True when a base URL or host value is a documentation placeholder: `<HOST_IP>`, `YOUR_BASE_URL`,
 * `http://x.x.x.x:port`, `http://HOST:PORT/v1`, `changeme`. `${VAR}` left literal is decided per
 * format by the rule (see `literalTemplate`).
 */
export function isPlaceholderUrl(value: string): boolean {
  if (ANGLE.test(value) || YOUR.test(value) || IP_PATTERN.test(value) || WORD.test(value)) return true;
  const authority = AUTHORITY.exec(value);
  if (!authority || !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(value)) return false;
  const [, host, port] = authority;
  if (port !== undefined && /^[A-Za-z_]+$/.test(port)) return true;
  return NAMED_HOST.test(host) && NAMED_HOST_WORD.test(host);
}

/**
 * How a `${VAR}`/`$VAR` in a literal value reaches the client unexpanded, or `undefined` when some
 * reader may still expand it. Shell single quotes and Python string literals never expand; in a
 * dotenv file only single quotes stop python-dotenv and Compose from expanding. YAML and JSON are
 * left alone: Compose, OmegaConf/Hydra and OpenClaw interpolate `${…}` there; so is a camelCase key of a
 * Python dict (`"apiKey": "${OPENCLAW_KEY}"`, `"baseURL": "$OPENAI_BASE_URL"`): code building an
 * openclaw.json or opencode.json for a tool that interpolates it, not a client argument.
 */
export function literalTemplate(setting: Setting): 'singleQuoted' | 'literal' | undefined {
  if (setting.value === undefined || !/\$\{[^}]*\}|\$[A-Za-z_]/.test(setting.value)) return undefined;
  if (setting.format === 'shell') return setting.quote === "'" ? 'singleQuoted' : 'literal';
  if (setting.format === 'python') return setting.kind === 'dictEntry' && /[a-z][A-Z]/.test(setting.key) ? undefined : 'literal';
  if (setting.format === 'dotenv' && setting.quote === "'") return 'singleQuoted';
  return undefined;
}

/** True for values some other program fills in later: `${…}`, `$VAR`, `{host}`, `{{ host }}`, `%(host)s`, `%s`. */
export function isTemplated(value: string): boolean {
  return /\$|%\(|%s/.test(value) || /\{[^{}]*\}/.test(value);
}

const SCHEMELESS = /^(?:\/\/)?(?:[^/?#@\s]*@)?((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\]|localhost|[A-Za-z0-9][A-Za-z0-9-]*(?=:\d))(?::\d{1,5})?(?:[/?#]\S*)?$/;

/**
 * The host of a URL written without its scheme (`api.example.com/v1`, `127.0.0.1:30000/v1`,
 * `localhost:8000`, `vllm:8000/v1`, `//host/v1`), or `undefined`. A single-label name counts only
 * with a port (or as `localhost`), so plain words and relative paths are never hosts.
 */
export function schemelessHost(value: string): string | undefined {
  if (value.includes('://')) return undefined;
  return SCHEMELESS.exec(value)?.[1];
}
