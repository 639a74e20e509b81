import { defineRule } from './rule';

/**
 * Pseudo-rule: the file was not linted (larger than `maxFileBytes`, or binary: reported by the host
 * before any parsing, through `skippedFileFinding`; or over the per-file time/node budget: reported
 * by `lintDocument`, see `core/budget.ts`).
 */
export default defineRule({
  meta: {
    id: 'skipped-file',
    title: 'The file was not linted (too large or binary)',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell'],
    fixable: false,
  },
  messages: {
    en: {
      tooLarge: 'not linted: the file is {size} bytes, over maxFileBytes ({limit} bytes)',
      binary: 'not linted: the file looks binary (it contains NUL bytes or is not valid UTF-8 text)',
      budget: 'not linted: the file needs more than the per-file budget ({budget}); nothing in it was checked',
    },
    'zh-CN': {
      tooLarge: '未检查：文件大小 {size} 字节，超过 maxFileBytes（{limit} 字节）',
      binary: '未检查：文件看起来是二进制文件（含 NUL 字节或不是有效的 UTF-8 文本）',
      budget: '未检查：处理该文件超出了单个文件的预算（{budget}）；文件中的内容均未检查',
    },
  },
  check() {},
});
