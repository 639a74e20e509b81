import type { Setting } from '../../model/types';
import { isCodexCommand, toolFlags } from '../../model/tools';
import type { Invocation, ShellContext } from './context';
import { isRedirect } from './commands';
import { addSetting, rangeOf, wordOf } from './values';
import { attachedValue } from './flags';

/**
 * Reads what agent-tool CLIs are told on their command line, beyond long flags:
 * - the short flags of the tools in `model/tools` (`taotoken cc -k … -u … -m …`), as `flag` settings
 *   keyed by the flag as written;
 * - Codex `-c`/`--config key=value` overrides (codex-rs `config_override.rs`: the dotted key is a
 *   `config.toml` path, the value is parsed as TOML and taken as a plain string when that fails), as
 *   settings keyed by the last path segment with the dotted `path`, grouped per table, so
 *   `-c model_providers.x.base_url=…` pairs with `-c model_providers.x.wire_api=…` of the same command.
 */
export function readToolFlags(context: ShellContext, invocation: Invocation): Setting[] {
  const known = toolFlags(invocation.summary);
  const codex = isCodexCommand(invocation.summary);
  if (!known && !codex) return [];
  const settings: Setting[] = [];
  const { items } = invocation;
  for (let i = 0; i < items.length; i++) {
    if (isRedirect(items[i])) continue;
    const word = wordOf(context, items[i]);
    const flag = word.literal;
    if (flag === undefined) continue;
    const next = items[i + 1] && !isRedirect(items[i + 1]) ? items[i + 1] : undefined;
    if (known?.[flag] && next) {
      settings.push(addSetting(context, { key: flag, kind: 'flag', keyRange: rangeOf(items[i]), statementRange: invocation.statementRange, group: invocation.group, command: invocation.summary }, wordOf(context, next)));
      i++;
      continue;
    }
    if (!codex || !next) continue;
    const eqFlag = /^--config=/.exec(flag);
    if (flag !== '-c' && flag !== '--config' && !eqFlag) continue;
    const node = eqFlag ? items[i] : next;
    const setting = codexOverride(context, invocation, node, eqFlag ? eqFlag[0].length : 0);
    if (setting) settings.push(setting);
    if (!eqFlag) i++;
  }
  return settings;
}

function codexOverride(context: ShellContext, invocation: Invocation, node: Invocation['items'][number], skip: number): Setting | undefined {
  const word = wordOf(context, node);
  const head = word.segments[0];
  if (head?.kind !== 'literal') return undefined;
  const eq = head.text.indexOf('=', skip);
  if (eq <= skip) return undefined;
  const dotted = head.text.slice(skip, eq).trim();
  if (!/^[\w-]+(\.[\w-]+)*$/.test(dotted)) return undefined;
  const segments = dotted.split('.');
  const key = segments[segments.length - 1];
  const keyStart = head.offsets[skip + dotted.lastIndexOf(key)];
  let value = attachedValue(context, node, word, head.offsets[eq] + 1);
  const source = context.text.slice(value.range.start, value.range.end);
  if (value.literal !== undefined && source === value.literal && /^(["'])[^"'\\]*\1$/.test(source)) {
    // A TOML string inside shell quotes (`-c 'k="v"'`): Codex reads the characters between its quotes.
    value = { ...value, literal: source.slice(1, -1), quoted: { quote: source[0] as '"' | "'", content: { start: value.range.start + 1, end: value.range.end - 1 } } };
  }
  const setting = addSetting(context, {
    key,
    kind: 'flag',
    keyRange: { start: keyStart, end: keyStart + key.length },
    statementRange: invocation.statementRange,
    group: `${invocation.group}:${segments.slice(0, -1).join('.')}`,
    command: invocation.summary,
  }, value);
  setting.path = dotted;
  return setting;
}
