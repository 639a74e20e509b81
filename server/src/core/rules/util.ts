import type { ParseProblem, RequestSite, Setting, TextEdit } from '../model/types';
import { redactUrlSecrets } from '../model/secret';

/** Subject key for findings about a setting (see `Finding.subject`). */
export function subjectOf(setting: Setting): string {
  return `setting@${setting.valueRange.start}`;
}

/** Subject key for findings about a request site. */
export function siteSubject(site: RequestSite): string {
  return `site@${site.range.start}`;
}

/**
 * True for template files that are meant to hold placeholders (`.env.example`, `.env.sample`,
 * `config.template.yaml`, `settings.example.json`): key rules do not apply to them (DESIGN).
 */
export function isExampleFile(path: string): boolean {
  const name = path.split('/').pop() ?? path;
  return /(^|[._-])(example|sample|template|dist|tmpl)([._-]|$)/i.test(name);
}

/**
 * An edit that replaces the characters inside the quotes of `setting` (the whole value when
 * unquoted) with `content`, leaving quotes and everything around them untouched.
 */
export function replaceContent(setting: Setting, content: string): TextEdit {
  return { range: { ...setting.contentRange }, text: content };
}

/**
 * Shortens a value for a message: credentials inside URLs are hidden (`redactUrlSecrets`), then at
 * most `max` characters are kept, with `…` in the middle.
 */
export function shorten(raw: string, max = 80): string {
  const value = redactUrlSecrets(raw);
  if (value.length <= max) return value;
  const half = Math.floor((max - 1) / 2);
  return `${value.slice(0, half)}…${value.slice(-half)}`;
}

/**
 * True when a parse problem (an unterminated quote, a syntax error) overlaps the setting's value:
 * `parse-error` reports the root cause, so value rules stay quiet about the misread value.
 */
export function isMisparsed(setting: Setting, problems: readonly ParseProblem[]): boolean {
  const { start, end } = setting.valueRange;
  return problems.some((p) => p.range.start < Math.max(end, start + 1) && start < Math.max(p.range.end, p.range.start + 1));
}
