import { defineRule } from './rule';

/** Pseudo-rule: the file could not be fully parsed; what could be read is still linted. */
export default defineRule({
  meta: {
    id: 'parse-error',
    title: 'The file could not be parsed',
    defaultSeverity: 'error',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell'],
    fixable: false,
  },
  messages: {
    en: { parse: 'cannot parse this {format} file here: {detail}; the rest of the file is still checked', parser: 'the parser says "{text}"' },
    'zh-CN': { parse: '无法解析此 {format} 文件的这一部分：{detail}；文件其余部分仍会检查', parser: '解析器信息“{text}”' },
  },
  check({ document, extraction, report, locale, t }) {
    const seen = new Set<string>();
    for (const problem of extraction.parseProblems) {
      const key = `${problem.range.start}:${problem.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const english = problem.message.replace(/[.。]\s*$/, '');
      // zh-CN: the extractor's own translation, else the parser library's English text, quoted as such.
      const detail = locale === 'en' ? english : problem.zh ? problem.zh.replace(/[.。]\s*$/, '') : t('parser', { text: english });
      report({ messageId: 'parse', data: { format: document.format, detail }, range: problem.range });
    }
  },
});
