import { defineRule } from './rule';
import type { Evidence } from '../evidence/evidence';
import type { ParseProblem, Range } from '../model/types';
import type { Resolution } from '../resolve/resolve';
import { SETTING_LINE_TOKENS } from '../files';

/** Parsers whose errors are the loader's own: a problem there breaks the whole file for the program. */
const WHOLE_FILE_FORMATS = new Set(['dotenv', 'yaml', 'json', 'toml', 'notebook']);

/** True when `region` of `text` holds a trigger token or a setting Rollout Lint reads. */
function holdsSetting(text: string, region: Range, resolution: Resolution): boolean {
  const lineStart = text.lastIndexOf('\n', region.start - 1) + 1;
  if (SETTING_LINE_TOKENS.test(text.slice(lineStart, Math.max(region.end, region.start + 1)))) return true;
  return resolution.settings.some((s) => s.keyRange.start >= lineStart && s.valueRange.end <= Math.max(region.end, region.start + 1));
}

/**
 * Pseudo-rule: the file could not be fully parsed; what could be read is still linted. A problem is
 * reported only where it hides a setting Rollout Lint reads (DESIGN "Evidence"):
 * - `syntax` problems of a whole-file loader format (dotenv, YAML, JSON, TOML, notebook JSON) when the file holds any
 *   setting or trigger token (the loader refuses or misreads the whole file): error;
 * - tree-sitter `syntax` problems (an unterminated quote, an unclosed bracket) when the broken part
 *   holds one: error;
 * - tree-sitter `grammar` problems (valid code the grammar may not cover) likewise, but a warning at most;
 * - YAML `duplicateKey` (PyYAML keeps the last) only when the repeated pair holds a setting we read:
 *   a warning at most, with its own message.
 */
export default defineRule({
  meta: {
    id: 'parse-error',
    title: 'The file could not be parsed',
    defaultSeverity: 'error',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml', 'notebook'],
    fixable: false,
  },
  messages: {
    en: {
      parse: 'cannot parse this {format} file here: {detail}; the rest of the file is still checked',
      parser: 'the parser says "{text}"',
      duplicate: '"{key}" appears twice in this mapping; PyYAML and most loaders keep the last one, other YAML tools refuse the file: remove the one you do not mean',
    },
    'zh-CN': {
      parse: '无法解析此 {format} 文件的这一部分：{detail}；文件其余部分仍会检查',
      parser: '解析器信息“{text}”',
      duplicate: '"{key}" 在此映射中出现了两次；PyYAML 等多数加载器保留后一个，其他 YAML 工具会拒绝该文件：请删除不需要的那一个',
    },
  },
  check({ document, extraction, resolution, report, locale, t }) {
    const { text, format } = document;
    const seen = new Set<string>();
    /** 0-based lines that already have a syntax finding: one parse error a line, the first the parser met. */
    const lines = new Set<number>();
    let lineOf: ((offset: number) => number) | undefined;
    let fileHolds: boolean | undefined;
    for (const problem of extraction.parseProblems) {
      const key = `${problem.range.start}:${problem.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const line = (lineOf ??= lineIndex(text))(problem.range.start);
      if (problem.kind !== 'duplicateKey' && lines.has(line)) continue;
      const evidence = evidenceOf(problem, format, () => (fileHolds ??= holdsSetting(text, { start: 0, end: text.length }, resolution)), (r) => holdsSetting(text, r, resolution));
      if (!evidence) continue;
      if (problem.kind === 'duplicateKey') {
        report({ messageId: 'duplicate', data: { key: problem.key ?? '' }, range: problem.range, evidence });
        continue;
      }
      const english = problem.message.replace(/[.。]\s*$/, '');
      // zh-CN: the extractor's own translation, else the parser library's English text, quoted as such.
      const detail = locale === 'en' ? english : problem.zh ? problem.zh.replace(/[.。]\s*$/, '') : t('parser', { text: english });
      report({ messageId: 'parse', data: { format, detail }, range: problem.range, evidence });
      lines.add(line);
    }
  },
});

function evidenceOf(problem: ParseProblem, format: string, fileHolds: () => boolean, holds: (r: Range) => boolean): Evidence | undefined {
  const region = problem.hidden ?? problem.range;
  switch (problem.kind ?? 'syntax') {
    case 'duplicateKey':
      return holds(region) ? { strength: 'known', id: 'parse.duplicate', data: { key: problem.key ?? '' } } : undefined;
    case 'grammar':
      return holds(region) ? { strength: 'known', id: 'parse.grammar', data: { format } } : undefined;
    default:
      if (WHOLE_FILE_FORMATS.has(format) ? !fileHolds() : !holds(region)) return undefined;
      return { strength: 'proven', id: 'parse.parser', data: { format } };
  }
}

/** A function from UTF-16 offset to 0-based line of `text` (line starts found once; binary search per call). */
function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
}
