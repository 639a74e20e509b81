import { defineRule } from './rule';
import { subjectOf } from './util';
import { LOADERS } from '../model/types';
import { loaderNames } from './api-key-whitespace';

/**
 * `KEY=   # comment`: loaders disagree whether the text after `#` is a comment. docker `--env-file`
 * keeps it verbatim (no comment processing), so the value becomes the comment text; a quoted
 * `"# …"` is a value for every loader. Reported when any loader reads a value starting with `#`.
 */
export default defineRule({
  meta: {
    id: 'dotenv-comment-as-value',
    title: 'A comment is read as the value by some loaders',
    defaultSeverity: 'error',
    formats: ['dotenv'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      comment: '{key}: {loaders} read the comment "{comment}" as the value; the others read {others}. Put the comment on its own line',
      empty: 'an empty value',
      'fix.moveComment': 'Move the comment to its own line above',
    },
    'zh-CN': {
      comment: '{key}：{loaders} 会把注释 "{comment}" 当作值；其他加载器读到的是{others}。请把注释放到单独一行',
      empty: '空值',
      'fix.moveComment': '把注释移到上一行',
    },
  },
  check({ document, extraction, report, t, locale }) {
    for (const setting of extraction.settings) {
      if (setting.format !== 'dotenv' || !setting.loaded) continue;
      const readers = LOADERS.filter((l) => setting.loaded?.[l]?.trim().startsWith('#'));
      if (readers.length === 0) continue;
      const comment = (setting.loaded[readers[0]] ?? '').trim();
      const others = LOADERS.filter((l) => !readers.includes(l) && setting.loaded?.[l] != null).map((l) => setting.loaded![l]!);
      const lineStart = setting.statementRange.start;
      const eq = document.text.indexOf('=', setting.keyRange.end);
      const commentStart = document.text.indexOf('#', eq);
      const lineEnd = setting.statementRange.end;
      const fixes =
        setting.quote === '' && eq >= 0 && commentStart > eq && commentStart < lineEnd
          ? [
              {
                titleId: 'fix.moveComment',
                safety: 'unsafe' as const,
                edits: [
                  { range: { start: lineStart, end: lineStart }, text: `${document.text.slice(commentStart, lineEnd).trimEnd()}\n` },
                  { range: { start: eq + 1, end: lineEnd }, text: '' },
                ],
              },
            ]
          : [];
      report({
        messageId: 'comment',
        data: {
          key: setting.key,
          loaders: loaderNames(readers, locale),
          comment: comment.length > 40 ? `${comment.slice(0, 39)}…` : comment,
          others: others.every((o) => o.trim() === '') ? t('empty') : [...new Set(others)].map((o) => `"${o}"`).join(' / '),
        },
        range: { start: setting.keyRange.start, end: lineEnd },
        subject: subjectOf(setting),
        fixes,
      });
    }
  },
});
