import type { Extraction, Finding, Setting } from '../model/types';
import type { Resolution } from '../resolve/resolve';
import { parseBaseUrl } from '../resolve/urls';
import { formatMessage, type Locale } from '../messages/locale';
import type { EnvView } from './env-index';
import { formatOf } from '../files';
import { roleOf } from '../resolve/roles';
import { loadedReadName } from '../evidence/loaded-config';
import { containing } from '../range-lookup';

/**
 * Rules whose verdict on a base URL depends on who reads it; only their findings are repeated at a
 * read in another file (the value's own defects are reported once, at the definition). They are also
 * the only rules that run on JavaScript/TypeScript, whose only settings are such imports.
 */
export const CONSUMER_RULES = new Set(['base-url-duplicate-v1', 'base-url-missing-v1', 'base-url-trailing-slash']);

const MESSAGES: Record<Locale, Record<string, string>> = {
  en: {
    from: '{name} from {file}:{line}: {message}',
    fromOneOf: '{name} from {file}:{line} (the first of {count} definitions in load order): {message}',
    definedHere: '{name} is defined here',
    readHere: 'read here: {via}',
  },
  'zh-CN': {
    from: '{name} 来自 {file}:{line}：{message}',
    fromOneOf: '{name} 来自 {file}:{line}（按加载顺序 {count} 处定义中的第一处）：{message}',
    definedHere: '{name} 在此定义',
    readHere: '在此读取：{via}',
  },
};

function say(locale: Locale, id: string, data: Record<string, string | number>): string {
  return formatMessage(MESSAGES[locale]?.[id] ?? MESSAGES.en[id], data);
}

/** What `importCrossFile` added to an extraction, for `finishCrossFile`. */
export interface CrossFileInputs {
  imported: { setting: Setting; name: string; definitions: number }[];
}

/**
 * Adds to `extraction` (before `resolve`) what the workspace env index knows about this document:
 * - consumer evidence for each env definition here from the reads in other files that its value
 *   reaches (`chainAt` lists it as applying there) and whose client is visible (`Consumer.origin` set);
 * - for each base URL of a JSON/YAML/TOML file that Python code loads and passes to a client
 *   (`loadedConfigReads`), consumer evidence `load:<path>` from that client;
 * - for each read here whose value flows into visible code (`f"{base}/v1/…"`, `OpenAI(base_url=…)`)
 *   and whose first applying definition is a literal base URL elsewhere, an imported `envDefault`
 *   setting with that value over the read's range (`Setting.origin` = the definition's value).
 */
export function importCrossFile(extraction: Extraction, path: string, env: EnvView): CrossFileInputs {
  const inputs: CrossFileInputs = { imported: [] };
  if (env.size === 0) return inputs;
  const localNames = new Set<string>();
  for (const setting of extraction.settings) {
    if (setting.kind !== 'env') continue;
    localNames.add(setting.key);
    if (!env.readsElsewhere(setting.key).some((r) => r.consumers.length > 0)) continue;
    for (const read of env.readersOf(setting.key, setting.keyRange.start)) {
      if (read.consumers.length === 0 || read.at.path === path) continue;
      for (const consumer of read.consumers) {
        extraction.consumerEvidence.push({
          target: `env:${setting.key}`,
          consumer: { ...consumer, via: `${consumer.via} (${read.at.path}:${read.at.start.line + 1})`, origin: read.at },
          range: { start: setting.keyRange.start, end: setting.keyRange.start },
        });
      }
    }
  }
  // A config file's base URL that Python code loads and hands to a client (`loadedConfigReads`): that client reads it.
  const format = formatOf(path);
  if (format === 'json' || format === 'yaml' || format === 'toml') {
    for (const setting of extraction.settings) {
      if (setting.kind !== 'property' || roleOf(setting) !== 'baseUrl') continue;
      for (const read of env.reads(loadedReadName(path, setting.key))) {
        if (read.at.path === path) continue;
        for (const consumer of read.consumers) {
          extraction.consumerEvidence.push({
            target: `load:${setting.path}`,
            consumer: { ...consumer, via: `${consumer.via} (${read.at.path}:${read.at.start.line + 1})`, origin: read.at },
            range: { start: setting.keyRange.start, end: setting.keyRange.start },
          });
        }
      }
    }
  }
  const evidenced = new Set(extraction.consumerEvidence.filter((e) => e.target.startsWith('env:') && !e.consumer.origin).map((e) => e.target.slice(4)));
  for (const read of extraction.envReads) {
    if (localNames.has(read.name) || !evidenced.has(read.name)) continue;
    const chain = env.chain(read.name).filter((e) => e.applies && e.definition.value !== undefined && e.definition.value.trim() !== '');
    const first = chain[0]?.definition;
    if (!first || !parseBaseUrl(first.value!.trim())) continue;
    const setting: Setting = {
      key: read.name,
      path: read.name,
      format: extraction.settings[0]?.format ?? formatOf(path) ?? 'python',
      kind: 'envDefault',
      raw: first.value!,
      value: first.value!,
      valueType: 'string',
      keyRange: read.range,
      valueRange: read.range,
      contentRange: read.range,
      quote: '',
      statementRange: read.range,
      group: `env-import@${read.range.start}`,
      envName: read.name,
      origin: first.valueAt,
    };
    extraction.settings.push(setting);
    inputs.imported.push({ setting, name: read.name, definitions: new Set(chain.map((e) => e.definition.value!.trim())).size });
  }
  return inputs;
}

/**
 * After the rules ran: findings on an imported setting keep only consumer-dependent rules, lose
 * their fixes (the bytes to change are in the other file), name the definition in the message and
 * point at it in `related`; when several definitions with different values may apply, an error
 * becomes a warning (which one is in effect depends on how the process is launched). Findings on a
 * definition here whose consumers include code elsewhere point at those reads.
 */
export function finishCrossFile(findings: Finding[], inputs: CrossFileInputs, resolution: Resolution, locale: Locale): Finding[] {
  const out: Finding[] = [];
  // Lookups instead of a scan per finding: 85k findings in one `.env` made this quadratic.
  const bySubject = new Map<string, CrossFileInputs['imported'][number]>();
  const byRange = new Map<string, CrossFileInputs['imported'][number]>();
  for (const i of [...inputs.imported].reverse()) {
    bySubject.set(`setting@${i.setting.valueRange.start}`, i);
    byRange.set(`${i.setting.valueRange.start}:${i.setting.valueRange.end}`, i);
  }
  const imports = (finding: Finding) => {
    const a = finding.subject === undefined ? undefined : bySubject.get(finding.subject);
    const b = byRange.get(`${finding.range.start}:${finding.range.end}`);
    return a && b ? (inputs.imported.indexOf(a) <= inputs.imported.indexOf(b) ? a : b) : a ?? b;
  };
  const around = containing(resolution.baseUrls.filter((b) => !b.setting.origin && b.consumers.some((c) => c.origin)), (b) => b.setting.statementRange);
  for (const finding of findings) {
    const imported = inputs.imported.length === 0 ? undefined : imports(finding);
    if (imported) {
      if (!CONSUMER_RULES.has(finding.ruleId)) continue;
      const origin = imported.setting.origin!;
      const data = { name: imported.name, file: origin.path, line: origin.start.line + 1, count: imported.definitions, message: finding.message };
      out.push({
        ...finding,
        severity: imported.definitions > 1 && finding.severity === 'error' ? 'warning' : finding.severity,
        message: say(locale, imported.definitions > 1 ? 'fromOneOf' : 'from', data),
        fixes: [],
        related: [{ location: origin, message: say(locale, 'definedHere', { name: imported.name }) }],
      });
      continue;
    }
    const base = around(finding.range)[0];
    if (!base) {
      out.push(finding);
      continue;
    }
    const related = base.consumers.filter((c) => c.origin).map((c) => ({ location: c.origin!, message: say(locale, 'readHere', { via: c.via }) }));
    out.push({ ...finding, related: [...(finding.related ?? []), ...related] });
  }
  return out;
}
