import type { ConsumerId, Role } from './types';

/** What one flag of an agent-tool CLI configures. */
export interface ToolFlag {
  role: Role;
  /** The client the value ends up in, when the flag is a base URL. */
  consumer?: { id: ConsumerId; via: string };
}

/**
 * Agent-tool CLIs that take an endpoint as short flags, by invocation summary (program + subcommand).
 * `taotoken cc -k YOUR_API_KEY -u https://taotoken.net/api -m MODEL_ID` (the TaoToken quick-start
 * guide) writes the key, base URL and model into Claude Code's settings; Claude Code is an Anthropic
 * client that requests `{base}/v1/messages` (Claude Code docs, "ANTHROPIC_BASE_URL"), so `-u` takes the
 * base without `/v1`.
 */
const TOOL_FLAGS: Record<string, Record<string, ToolFlag>> = {
  'taotoken cc': {
    '-k': { role: 'apiKey' },
    '-u': { role: 'baseUrl', consumer: { id: 'anthropic', via: 'taotoken cc -u (Claude Code appends /v1/messages)' } },
    '-m': { role: 'model' },
  },
};

/** The flags `command` (an invocation summary such as `taotoken cc`) is known to take, or `undefined`. */
export function toolFlags(command: string | undefined): Record<string, ToolFlag> | undefined {
  return command === undefined ? undefined : TOOL_FLAGS[command];
}

/** True for a Codex CLI invocation (`codex`, `codex exec`), whose `-c key=value` overrides `config.toml`. */
export function isCodexCommand(command: string | undefined): boolean {
  return command !== undefined && /^codex( |$)/.test(command);
}
