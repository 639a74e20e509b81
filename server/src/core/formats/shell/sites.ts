import { lastIndexBefore } from '../../range-lookup';
import type { InsertionPoint, RequestSite, Setting } from '../../model/types';
import type { ShellContext } from './context';
import { rangeOf } from './values';

/** Flags (canonical names) that make a command a request site: it asks for, or caps, log probs. */
const LOGPROB_PARAMS = new Set(['logprobs', 'top_logprobs', 'return_logprob', 'max_logprobs']);
const ROLLOUT_WORD = /(?:^|[^A-Za-z0-9])rollout(?:[^A-Za-z0-9]|$)/i;

/** `--top-logprobs` → `top_logprobs`: leading dashes dropped, `-` → `_`. */
export function canonicalFlag(key: string): string {
  return key.replace(/^-+/, '').replace(/-/g, '_');
}

/**
 * Second pass over the commands: flags of spread arrays take the command of the first command
 * that spreads them, and every command with a log-prob flag (its own or from an array) becomes a
 * `flags` RequestSite whose params are all its flags by canonical name (its own flags win over arrays').
 */
export function addFlagSites(context: ShellContext): void {
  const claimed = new Set<Setting>();
  for (const { invocation, settings, spreads } of context.invocations) {
    const fromArrays = arrayFlags(context, spreads, invocation.range.start, new Set());
    for (const setting of fromArrays) {
      if (claimed.has(setting)) continue;
      claimed.add(setting);
      setting.command = invocation.summary;
    }
    const params: Record<string, Setting> = {};
    for (const setting of [...fromArrays, ...settings]) params[canonicalFlag(setting.key)] = setting;
    if (!Object.keys(params).some((name) => LOGPROB_PARAMS.has(name))) continue;
    const site: RequestSite = {
      format: 'shell',
      apiKind: 'unknown',
      style: 'flags',
      range: invocation.range,
      anchorRange: rangeOf(invocation.program),
      params,
      isRollout: false,
      insertion: insertionAfter(context.text, invocation.range),
      callee: invocation.summary,
    };
    const reason = rolloutReason(invocation.summary, [...fromArrays, ...settings]);
    if (reason) {
      site.isRollout = true;
      site.rolloutReason = reason;
    }
    context.out.requestSites.push(site);
  }
}

/**
 * The flags a command gets from the arrays it spreads: the last assignment to each array before
 * the command plus the `+=` additions before it (the first assignment when all come later, as when a
 * function defined above uses an array assigned below).
 */
function arrayFlags(context: ShellContext, spreads: string[], at: number, seen: Set<string>): Setting[] {
  const result: Setting[] = [];
  for (const name of spreads) {
    const definitions = context.arrays.get(name);
    if (!definitions || seen.has(name)) continue;
    seen.add(name);
    const last = Math.max(0, lastIndexBefore(definitions, at, (d) => d.start));
    let first = last;
    while (first > 0 && definitions[first].append) first--;
    for (const definition of definitions.slice(first, last + 1)) {
      result.push(...definition.settings, ...arrayFlags(context, definition.spreads, at, seen));
    }
  }
  return result;
}

/** After the command's last word: ` ` on one line, ` \` + newline + the last line's indent when continued. */
function insertionAfter(text: string, range: { start: number; end: number }): InsertionPoint {
  const continuation = /\\(\r?\n)/.exec(text.slice(range.start, range.end));
  if (!continuation) return { offset: range.end, prefix: ' ', suffix: '' };
  const lineStart = text.lastIndexOf('\n', range.end - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, range.end))![0];
  return { offset: range.end, prefix: ` \\${continuation[1]}${indent}`, suffix: '' };
}

/** DESIGN "Rollout requests", for commands: `rollout` as a word in the command, or `--rollout-*` flags. */
function rolloutReason(summary: string, settings: Setting[]): string | undefined {
  if (ROLLOUT_WORD.test(summary)) return `command "${summary}" names rollout`;
  const flag = settings.find((setting) => /^--rollout[-_]/.test(setting.key));
  return flag ? `command carries ${flag.key}` : undefined;
}
