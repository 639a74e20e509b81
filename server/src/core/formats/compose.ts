import type { Language } from 'web-tree-sitter';
import type { CommandWord, Extraction, Range, ServerCommand, Setting } from '../model/types';
import { commandWords } from './shell';

/** `services.<name>.command`, `…command[i]` and `…image` (the Compose file's settings as the YAML extractor names them). */
const SERVICE_SETTING = /^services\.("(?:[^"\\]|\\.)*"|[^."]+)\.(command|image)(\[\d+\])?$/;

/** A cheap test before reading commands: a launch or an image that runs one is mentioned at all. */
export const SERVER_TOKEN = /\bvllm\b|sglang/;

/**
 * The `command:` of each Compose service in a YAML extraction, as words: a list's items as YAML reads
 * them (a `$` item is not literal: Compose interpolates it), a string split by the shell grammar
 * (`bash`), as Compose splits it with shell quoting rules (compose-go `transformShellCommand`:
 * `shellwords.Parse(str)`, mattn/go-shellwords) without running a shell. Services are told apart by
 * their settings' `group`, so each YAML document's services stand alone. A string command's word
 * ranges are offsets into the scalar's content (exact for a plain one-line scalar, clamped to the
 * content otherwise); one is split only when it or its image mentions vLLM or SGLang.
 */
export function composeCommands(text: string, extraction: Extraction, bash: Language | undefined): ServerCommand[] {
  if (!SERVER_TOKEN.test(text)) return [];
  const services = new Map<string, { name: string; image?: string; command?: Setting; items: Setting[] }>();
  for (const setting of extraction.settings) {
    if (setting.kind !== 'property') continue;
    const m = SERVICE_SETTING.exec(setting.path);
    if (!m || (m[2] === 'image' && m[3] !== undefined)) continue;
    let service = services.get(setting.group);
    if (!service) services.set(setting.group, (service = { name: m[1].replace(/^"|"$/g, ''), items: [] }));
    if (m[2] === 'image') service.image = setting.value;
    else if (m[3] === undefined) service.command = setting;
    else service.items.push(setting);
  }
  const out: ServerCommand[] = [];
  for (const { name, image, command, items } of services.values()) {
    let words: CommandWord[];
    let range: Range;
    if (command && command.valueType === 'string' && command.value !== undefined) {
      // Only a launch, or the arguments of an image that runs one, needs its words.
      if (!bash || !(SERVER_TOKEN.test(command.value) || (image !== undefined && SERVER_TOKEN.test(image)))) continue;
      const content = command.contentRange;
      // go-shellwords counts a line break as a blank between words (`isSpace`); the shell grammar would end the command there.
      words = commandWords(command.value.replace(/[\r\n]/g, ' '), bash).map((w) => ({ literal: w.literal, range: { start: Math.min(content.start + w.range.start, content.end), end: Math.min(content.start + w.range.end, content.end) } }));
      range = command.contentRange;
    } else if (items.length > 0) {
      words = items.map((item) => ({ literal: item.value !== undefined && (item.valueType === 'string' || item.valueType === 'number') && !item.value.includes('$') ? item.value : undefined, range: item.valueRange }));
      range = { start: items[0].valueRange.start, end: items[items.length - 1].valueRange.end };
    } else continue;
    const lineBreak = text.indexOf('\n', range.start);
    const lineEnd = lineBreak < 0 ? range.end : Math.min(range.end, lineBreak - (text[lineBreak - 1] === '\r' ? 1 : 0));
    out.push({ words, range: { start: range.start, end: Math.max(range.start, lineEnd) }, service: name, ...(image !== undefined ? { image } : {}) });
  }
  return out;
}
