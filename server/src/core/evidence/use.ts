import type { Extraction, Setting } from '../model/types';
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
 * it; `bind` when its only uses are the `--host`/`--bind` of a command or any flag of a server launch
 * (`sglang_router.launch_router --host "$ROUTER_HOST"`); `unknown` when it has no visible use or
 * other uses. Settings that are not variables (YAML/JSON keys, flags, dotenv lines) are `destination`:
 * their key already says what they are.
 */
export function variableUse(setting: Setting, extraction: Extraction, text: string): { use: 'destination' | 'bind' | 'unknown'; evidence?: Evidence } {
  const isVariable = (setting.format === 'shell' && (setting.kind === 'env' || setting.kind === 'envDefault')) || (setting.format === 'python' && setting.kind === 'assignment');
  if (!isVariable) return { use: 'destination' };
  const name = setting.envName ?? setting.key;
  const ref = referencePattern(name, setting.format);
  const global = new RegExp(ref.source, 'g');
  let total = 0;
  for (const m of text.matchAll(global)) {
    if (m.index >= setting.statementRange.start && m.index < setting.statementRange.end) continue;
    total++;
  }
  let bind = 0;
  for (const other of extraction.settings) {
    const own = other.statementRange.start < setting.statementRange.end && setting.statementRange.start < other.statementRange.end;
    if (other === setting || own || !ref.test(other.raw)) continue;
    if (other.kind === 'flag' && (BIND_FLAGS.has(normalizeKey(other.key)) || (other.command !== undefined && isServerLaunch(other.command)))) {
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
