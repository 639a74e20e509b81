import { defineRule, type FixReport } from './rule';
import { subjectOf } from './util';
import { loaderNames } from './api-key-whitespace';
import type { Locale } from '../messages/locale';
import { LOADERS, type Loader, type Setting } from '../model/types';
import { LineIndex } from '../positions';

/**
 * The same key defined twice in one dotenv file. Every loader keeps the LAST definition it accepts:
 * npm dotenv 17 `parse()` assigns `obj[key] = value` line by line (checked against the installed
 * package), python-dotenv builds its dict in order (`resolve_variables`; its current source also logs
 * "Duplicate key"), a shell's later assignment wins, and Compose and `docker --env-file` take the
 * later entry. The earlier line is dead, and editing it changes nothing — a classic "I changed the
 * key and still get 401". When loaders disagree (one rejects the later line) the message says which
 * keeps which line.
 */
export default defineRule({
  meta: {
    id: 'dotenv-duplicate-key',
    title: 'The same key is defined twice in a dotenv file',
    defaultSeverity: 'warning',
    formats: ['dotenv'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      dead: '{key} is defined again on line {line}; every loader keeps that later value, so this line has no effect',
      split: '{key} is defined more than once and loaders disagree: {detail}',
      keeps: 'line {line} for {loaders}',
      'fix.delete': 'Delete this line (line {line} wins)',
    },
    'zh-CN': {
      dead: '{key} 在第 {line} 行再次定义；所有加载器都保留后面的值，这一行不起作用',
      split: '{key} 定义了多次，且各加载器结果不同：{detail}',
      keeps: '{loaders} 采用第 {line} 行',
      'fix.delete': '删除这一行（以第 {line} 行为准）',
    },
  },
  check({ document, extraction, report, t, locale }) {
    const byKey = new Map<string, Setting[]>();
    for (const setting of extraction.settings) {
      if (setting.format !== 'dotenv' || setting.kind !== 'env') continue;
      const same = byKey.get(setting.key);
      if (same) same.push(setting);
      else byKey.set(setting.key, [setting]);
    }
    const { text } = document;
    let index: LineIndex | undefined;
    const lineAt = (offset: number): number => (index ??= new LineIndex(text)).positionAt(offset).line + 1;
    for (const [key, settings] of byKey) {
      if (settings.length < 2) continue;
      const winners = new Map<Loader, Setting>();
      for (const loader of LOADERS) {
        const last = settings.filter((s) => s.loaded?.[loader] != null).pop();
        if (last) winners.set(loader, last);
      }
      const live = [...new Set(winners.values())].sort((a, b) => a.keyRange.start - b.keyRange.start);
      if (live.length === 0) continue;
      const kept = live[live.length - 1];
      const keptLine = lineAt(kept.keyRange.start);
      for (const setting of settings) {
        if (live.includes(setting)) continue;
        report({
          messageId: live.length === 1 ? 'dead' : 'split',
          data: { key, line: keptLine, detail: live.length === 1 ? '' : detail(winners, lineAt, t, locale) },
          range: setting.keyRange,
          subject: subjectOf(setting),
          fixes: deleteLine(text, setting, keptLine),
        });
      }
      if (live.length > 1) {
        const first = live[0];
        report({ messageId: 'split', data: { key, line: keptLine, detail: detail(winners, lineAt, t, locale) }, range: first.keyRange, subject: subjectOf(first) });
      }
    }
  },
});

function detail(winners: Map<Loader, Setting>, lineAt: (offset: number) => number, t: (id: string, data?: Record<string, string | number>) => string, locale: Locale): string {
  const groups = new Map<Setting, Loader[]>();
  for (const [loader, setting] of winners) groups.set(setting, [...(groups.get(setting) ?? []), loader]);
  return [...groups]
    .sort(([a], [b]) => a.keyRange.start - b.keyRange.start)
    .map(([setting, loaders]) => t('keeps', { loaders: loaderNames(loaders, locale), line: lineAt(setting.keyRange.start) }))
    .join(locale === 'zh-CN' ? '；' : '; ');
}

/** Deletes the dead statement's whole line(s), line break included. */
function deleteLine(text: string, setting: Setting, keptLine: number): FixReport[] {
  const start = text.lastIndexOf('\n', setting.statementRange.start - 1) + 1;
  if (text.slice(start, setting.statementRange.start).trim() !== '') return [];
  const newline = text.indexOf('\n', setting.statementRange.end);
  const end = newline < 0 ? text.length : newline + 1;
  return [{ titleId: 'fix.delete', data: { line: keptLine }, safety: 'unsafe', edits: [{ range: { start, end }, text: '' }] }];
}
