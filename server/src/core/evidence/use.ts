import type { Extraction, Range, Setting } from '../model/types';
import { normalizeKey } from '../resolve/roles';
import { isServerLaunch } from '../formats/shell/servers';
import type { Evidence } from './evidence';

/** Flags that name the address a program listens on (a bind address, never a destination). */
const BIND_FLAGS = new Set(['host', 'bind', 'listen', 'bind_host', 'listen_host', 'server_host', 'http_host', 'address', 'ip', 'addr']);

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** References to variable `name` in one source text: `$NAME`, `${NAME…}` (shell), `{NAME}`/`NAME` (Python). */
function referencePattern(name: string, format: Setting['format']): RegExp {
  const n = escapeRegExp(name);
  return format === 'python' ? new RegExp(`(?<![\\w.])${n}(?!\\w)`) : new RegExp(`\\$\\{?${n}(?!\\w)`);
}

/**
 * Where a host-role variable (`ROUTER_HOST="${ROUTER_HOST:-0.0.0.0}"`, Python `ROUTER_HOST = …`) is
 * used in its file: `destination` when a base URL, a destination flag or a host-role setting reads
 * it; `bind` when its only uses are the `--host`/`--bind` of a command, any flag of a server launch
 * (`sglang_router.launch_router --host "$ROUTER_HOST"`) or a `host=` keyword (`uvicorn.run(app, host=H)`); `unknown` when it has no visible use or
 * other uses. Settings that are not variables (YAML/JSON keys, flags, dotenv lines) are `destination`:
 * their key already says what they are; except `X_SERVER_HOST` in a `.env` or a Python dict (the env
 * handed to a server's container: `{"CUA_SERVER_HOST": "0.0.0.0"}`), which may be the server's own
 * bind address: `unknown`.
 */
export function variableUse(setting: Setting, extraction: Extraction, text: string): { use: 'destination' | 'bind' | 'unknown'; evidence?: Evidence } {
  const variable = variableOf(setting, extraction);
  if (!variable) {
    const serverOwn = (setting.format === 'dotenv' || (setting.format === 'python' && setting.kind === 'dictEntry')) && /_server_host$/i.test(setting.key);
    return serverOwn ? { use: 'unknown', evidence: { strength: 'plausible', id: 'host.name', data: { key: setting.key } } } : { use: 'destination' };
  }
  const { name, statement } = variable;
  const ref = referencePattern(name, setting.format);
  const global = new RegExp(ref.source, 'g');
  let total = 0;
  for (const m of text.matchAll(global)) {
    if (m.index >= statement.start && m.index < statement.end) continue;
    total++;
  }
  let bind = 0;
  for (const other of extraction.settings) {
    const own = other.statementRange.start < statement.end && statement.start < other.statementRange.end;
    if (other === setting || own || !ref.test(other.raw)) continue;
    const bindFlag = other.kind === 'flag' && (BIND_FLAGS.has(normalizeKey(other.key)) || (other.command !== undefined && isServerLaunch(other.command)));
    const bindKwarg = other.kind === 'kwarg' && BIND_FLAGS.has(normalizeKey(other.key));
    if (bindFlag || bindKwarg) {
      bind += other.raw.match(global)?.length ?? 1;
      continue;
    }
    if (other.role === 'baseUrl' || other.role === 'host') {
      return { use: 'destination', evidence: { strength: 'proven', id: 'host.destination', data: { key: setting.key, use: other.key } } };
    }
  }
  if (total > 0 && bind === total) return { use: 'bind' };
  return { use: 'unknown', evidence: { strength: 'plausible', id: 'host.name', data: { key: setting.key } } };
}

/**
 * The variable a setting defines, with the statement that defines it: a shell assignment or
 * `${NAME:-default}`, a Python assignment, or the `os.getenv("X", "default")` default of a Python
 * assignment (`HOST = os.getenv("HOST", "0.0.0.0")` defines `HOST`). `undefined` for anything else.
 */
function variableOf(setting: Setting, extraction: Extraction): { name: string; statement: Range } | undefined {
  if (setting.format === 'shell' && (setting.kind === 'env' || setting.kind === 'envDefault')) return { name: setting.envName ?? setting.key, statement: setting.statementRange };
  if (setting.format !== 'python') return undefined;
  if (setting.kind === 'assignment') return { name: setting.key, statement: setting.statementRange };
  if (setting.kind !== 'envDefault') return undefined;
  const owner = extraction.settings.find((s) => s.kind === 'assignment' && s.statementRange.start <= setting.valueRange.start && setting.valueRange.end <= s.statementRange.end);
  return owner ? { name: owner.key, statement: owner.statementRange } : undefined;
}
