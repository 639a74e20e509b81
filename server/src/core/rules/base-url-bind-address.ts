import { defineRule } from './rule';
import { shorten, subjectOf } from './util';
import { isBindAllHost } from '../resolve/urls';
import { isServerLaunch } from '../formats/shell';
import type { Setting, TextEdit } from '../model/types';
import { variableUse } from '../evidence/use';
import type { EnvView } from '../workspace/env-index';
import type { EnvReadRef } from '../workspace/env-facts';

const LOOPBACK = '127.0.0.1';

/** The host part of a destination value (`0.0.0.0`, `[::]:30000`, `http://0.0.0.0:8000/v1`) with its offset in `value`. */
function hostOf(value: string): { host: string; at: number } | undefined {
  const m = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/)?(?:[^/?#@]*@)?(\[[^\]]*\]|::|[^/?#:]*)/.exec(value);
  return m ? { host: m[1].toLowerCase(), at: m[0].length - m[1].length } : undefined;
}

/**
 * The reads the value of an env definition reaches: those the index says it reaches, and for a
 * script variable (`HOST="${HOST:-0.0.0.0}"`) the reads in its own file outside its own statement.
 */
function readersOf(env: EnvView, path: string, setting: Setting): EnvReadRef[] {
  const name = setting.envName ?? setting.key;
  const own = setting.statementRange;
  const local = env.reads(name).filter((r) => r.at.path === path && (r.at.range.end <= own.start || r.at.range.start >= own.end));
  const reached = setting.kind === 'env' ? env.readersOf(name, setting.keyRange.start).filter((r) => r.at.path !== path) : [];
  return [...reached, ...local];
}

/** Every read of the variable is the listen address of a server launch (at least one read). */
function bindOnly(reads: readonly { bindAddress?: boolean }[]): boolean {
  return reads.length > 0 && reads.every((r) => r.bindAddress);
}

/**
 * `0.0.0.0` or `::` in a destination: a base URL, or a host role such as TRL's `vllm_server_host`
 * and slime's `--sglang-router-ip`. These addresses mean "listen on every interface" to a server;
 * as a destination they reach the local machine only on some systems (Linux and macOS route
 * 0.0.0.0 to the local host, Windows refuses it) and never another node of a multi-node run.
 * A server launch's own `--host 0.0.0.0` and OpenClaw-RL's `HOST="0.0.0.0"` have no role and are
 * never reported; host-role flags of a server launch (`isServerLaunch`) are skipped as well. A
 * host-role variable is followed to its uses in the file (`variableUse`): only a `--host`/`--bind`
 * of a launch → silent; a base URL or destination flag reading it → warning; no visible use → hint.
 * never reported; host-role flags of a server launch (`isServerLaunch`) are skipped as well, and so
 * is an env definition whose every read is the `--host` of a server launch (`readersOf`).
 */
export default defineRule({
  meta: {
    id: 'base-url-bind-address',
    title: 'Bind address 0.0.0.0 or :: used as a destination',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      url: 'base URL "{value}" points at {host}, a bind address ("listen on all interfaces"), not a destination; it reaches only this machine, and not on every OS: use {loopback} or the server\'s address',
      host: '{key} is {host}, a bind address ("listen on all interfaces"), not a destination; clients should connect to {loopback} or the server\'s address, which another node of the run can reach',
      'fix.loopback': 'Use {loopback}',
    },
    'zh-CN': {
      url: 'base URL "{value}" 指向 {host}，这是绑定地址（"监听所有网卡"），不是连接目标；它只能连到本机，且并非所有系统都支持：请改用 {loopback} 或服务器的实际地址',
      host: '{key} 为 {host}，这是绑定地址（"监听所有网卡"），不是连接目标；客户端应连接 {loopback} 或服务器的实际地址（其他节点也能访问）',
      'fix.loopback': '改用 {loopback}',
    },
  },
  check({ document, extraction, resolution, env, report }) {
    const candidates: { setting: Setting; isUrl: boolean }[] = [
      ...resolution.baseUrls.filter((b) => b.parsed && isBindAllHost(b.parsed.host)).map((b) => ({ setting: b.setting, isUrl: true })),
      ...resolution.byRole('host').map((setting) => ({ setting, isUrl: false })),
    ];
    for (const { setting, isUrl } of candidates) {
      if (setting.value === undefined || setting.valueType !== 'string') continue;
      if (setting.kind === 'flag' && setting.command !== undefined && isServerLaunch(setting.command)) continue;
      if ((setting.kind === 'env' || setting.kind === 'envDefault') && bindOnly(readersOf(env, document.path, setting))) continue;
      const source = document.text.slice(setting.contentRange.start, setting.contentRange.end);
      const lead = source.length - source.trimStart().length;
      const found = hostOf(source.trim());
      if (!found || !isBindAllHost(found.host)) continue;
      const use = isUrl ? { use: 'destination' as const, evidence: undefined } : variableUse(setting, extraction, document.text);
      if (use.use === 'bind') continue;
      const start = setting.contentRange.start + lead + found.at;
      const edit: TextEdit = { range: { start, end: start + found.host.length }, text: LOOPBACK };
      report({
        messageId: isUrl ? 'url' : 'host',
        data: { key: setting.key, value: shorten(setting.value.trim()), host: found.host, loopback: LOOPBACK },
        range: setting.contentRange,
        subject: subjectOf(setting),
        evidence: use.evidence,
        fixes: [{ titleId: 'fix.loopback', data: { loopback: LOOPBACK }, safety: 'unsafe', edits: [edit] }],
      });
    }
  },
});
