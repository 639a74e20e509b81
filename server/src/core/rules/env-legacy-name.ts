import { defineRule, type FixReport } from './rule';
import { subjectOf } from './util';
import { normalizeKey } from '../resolve/roles';
import type { Setting } from '../model/types';
import { envReadersOf } from '../evidence/env';

const LEGACY = 'openai_api_base';
const MODERN = 'OPENAI_BASE_URL';

/**
 * `OPENAI_API_BASE` set where `OPENAI_BASE_URL` is not. openai-python < 1.0 read `OPENAI_API_BASE`;
 * openai-python ≥ 1.0 and openai-node read only `OPENAI_BASE_URL` (`_client.py`, `client.ts`), so the
 * SDK silently calls `https://api.openai.com/v1` with the key meant for another server (401, or a bill
 * from the wrong provider). LangChain (`openai_api_base`) and LiteLLM still read the old name.
 * "Set" means in the same env block: the same dotenv file, shell scope (file-level exports, or one
 * command's `K=V` prefix), Compose service, JSON `env` map; any `os.environ[…]` in a Python file.
 * Silent when code the definition reaches reads the legacy name (`os.getenv("OPENAI_API_BASE")`,
 * LangChain-era code): then the value is meant for that reader. A `.env.example` reaches what the
 * `.env` copied from it would (`envReadersOf`).
 */
export default defineRule({
  meta: {
    id: 'env-legacy-name',
    title: 'OPENAI_API_BASE without OPENAI_BASE_URL (ignored by openai ≥ 1.0)',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      legacy: '{key} is the pre-1.0 name: the openai SDK (python ≥ 1.0, node) ignores it and calls https://api.openai.com/v1 instead; set OPENAI_BASE_URL too (LangChain and LiteLLM still read {key})',
      'fix.add': 'Add OPENAI_BASE_URL with the same value',
      'fix.rename': 'Rename to OPENAI_BASE_URL',
    },
    'zh-CN': {
      legacy: '{key} 是 1.0 之前的旧名称：openai SDK（python ≥ 1.0、node）会忽略它，转而请求 https://api.openai.com/v1；请同时设置 OPENAI_BASE_URL（LangChain 和 LiteLLM 仍读取 {key}）',
      'fix.add': '添加取值相同的 OPENAI_BASE_URL',
      'fix.rename': '重命名为 OPENAI_BASE_URL',
    },
  },
  check({ document, extraction, env: workspaceEnv, report }) {
    const env = extraction.settings.filter((s) => s.kind === 'env');
    const modernGroups = new Set(env.filter((s) => normalizeKey(s.key) === 'openai_base_url').map((s) => s.group));
    for (const setting of env) {
      if (normalizeKey(setting.key) !== LEGACY) continue;
      if (modernGroups.has(setting.group) || (setting.format === 'python' && modernGroups.size > 0)) continue;
      if (envReadersOf(workspaceEnv, document.path, setting).length > 0 || extraction.envReads.some((r) => r.name === setting.key)) continue;
      report({
        messageId: 'legacy',
        data: { key: setting.key },
        range: setting.keyRange,
        subject: subjectOf(setting),
        fixes: fixesFor(document.text, setting),
      });
    }
  },
});

/** Dotenv and shell lines get a copy under the new name (keeps old readers working); every form can be renamed. */
function fixesFor(text: string, setting: Setting): FixReport[] {
  const { keyRange, statementRange } = setting;
  const quoted = /^["']/.test(text.slice(keyRange.start, keyRange.end));
  const rename: FixReport = {
    titleId: 'fix.rename',
    safety: 'unsafe',
    edits: [{ range: quoted ? { start: keyRange.start + 1, end: keyRange.end - 1 } : keyRange, text: MODERN }],
  };
  const lineStart = text.lastIndexOf('\n', statementRange.start - 1) + 1;
  const indent = text.slice(lineStart, statementRange.start);
  const alone = /^[ \t]*$/.test(indent) && !/[^\s;]/.test(restOfLine(text, statementRange.end));
  if ((setting.format !== 'dotenv' && setting.group !== 'file') || !alone || quoted) return [rename];
  const statement = text.slice(statementRange.start, statementRange.end);
  const copy = statement.slice(0, keyRange.start - statementRange.start) + MODERN + statement.slice(keyRange.end - statementRange.start);
  const add: FixReport = { titleId: 'fix.add', safety: 'unsafe', edits: [{ range: { start: statementRange.end, end: statementRange.end }, text: `\n${indent}${copy}` }] };
  return [add, rename];
}

/** The text after `offset` up to the end of its line, without the line break. */
function restOfLine(text: string, offset: number): string {
  const end = text.indexOf('\n', offset);
  return text.slice(offset, end < 0 ? text.length : end).replace(/\r$/, '');
}
