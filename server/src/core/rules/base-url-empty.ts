import { defineRule, type FixReport } from './rule';
import { subjectOf } from './util';
import type { Setting } from '../model/types';

/**
 * An empty base URL that a client takes as given instead of falling back to its default.
 * openai-python and anthropic-python read `base_url` then the env var with `is None` checks
 * (`_client.py`), so `OPENAI_BASE_URL=` yields `base_url=""` and every request fails before it is
 * sent; openai-node (`readEnv` trims and treats "" as unset) falls back to its default. LangChain
 * passes an empty `OPENAI_API_BASE` on the same way. Reported for env entries some SDK reads
 * (warning) and for `base_url=""` passed to a known client constructor (error). `os.getenv("K", "")`
 * and `${K:-}` defaults are not reported.
 */
export default defineRule({
  meta: {
    id: 'base-url-empty',
    title: 'Empty base URL overrides the client default',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      env: '{key} is set but empty; openai-python and anthropic-python use "" as the base URL instead of their default and every request fails (openai-node ignores it): remove the line, or set the URL',
      kwarg: '{key}="" is passed to {callee}; the client uses "" as the base URL instead of its default and every request fails: drop the argument or pass the URL',
      'fix.comment': 'Comment out the empty assignment',
      'fix.unset': 'Replace it with unset {key}',
    },
    'zh-CN': {
      env: '{key} 已设置但为空；openai-python 和 anthropic-python 会把 "" 当作 base URL 而不使用默认值，所有请求都会失败（openai-node 会忽略它）：请删除这一行或填入 URL',
      kwarg: '{callee} 收到了 {key}=""；客户端会把 "" 当作 base URL 而不使用默认值，所有请求都会失败：请去掉该参数或传入 URL',
      'fix.comment': '注释掉这个空赋值',
      'fix.unset': '改为 unset {key}',
    },
  },
  check({ document, file, resolution, report }) {
    // A template (`.env.example`) leaves values empty for the reader to fill in, as api-key-empty assumes too.
    if (file.kind === 'template') return;
    for (const base of resolution.baseUrls) {
      const { setting } = base;
      if (setting.value === undefined || setting.valueType !== 'string' || setting.value.trim() !== '') continue;
      // Only an SDK reading the variable falls back on a default; code that joins a path onto it (a
      // release download's `RELEASE_BASE_URL`) is another service's setting (issue 23, kind 5).
      if (setting.kind === 'env' && base.consumers.some((c) => c.id !== 'raw' && c.id !== 'v1-appending')) {
        report({
          messageId: 'env',
          data: { key: setting.key },
          range: { start: setting.keyRange.start, end: Math.max(setting.keyRange.end, setting.valueRange.end) },
          subject: subjectOf(setting),
          fixes: envFix(document.text, setting),
        });
      } else if (setting.kind === 'kwarg' && setting.callee && base.consumers.length > 0) {
        report({
          severity: 'error',
          messageId: 'kwarg',
          data: { key: setting.key, callee: setting.callee },
          range: { start: setting.keyRange.start, end: setting.valueRange.end },
          subject: subjectOf(setting),
        });
      }
    }
  },
});

/** Comments out a dotenv line; turns a shell file-level `[export] K=` into `unset K`. Other forms get no fix. */
function envFix(text: string, setting: Setting): FixReport[] {
  const { start, end } = setting.statementRange;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (text.slice(lineStart, start).trim() !== '') return [];
  if (setting.format === 'dotenv') return [{ titleId: 'fix.comment', safety: 'unsafe', edits: [{ range: { start, end: start }, text: '# ' }] }];
  const statement = text.slice(start, end);
  if (setting.format === 'shell' && setting.group === 'file' && /^(export\s+)?[A-Za-z_]\w*=(''|"")?\s*$/.test(statement)) {
    return [{ titleId: 'fix.unset', data: { key: setting.key }, safety: 'unsafe', edits: [{ range: { start, end }, text: `unset ${setting.key}` }] }];
  }
  return [];
}
