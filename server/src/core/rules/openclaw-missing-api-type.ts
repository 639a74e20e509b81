import { defineRule } from './rule';
import { parseBaseUrl } from '../resolve/urls';
import type { Setting } from '../model/types';

/** `models.providers.<name>` (the name JSON-quoted when it holds a dot), optionally after a `docN:` prefix. */
const PROVIDER_GROUP = /^(?:doc\d+:)?(?:.*\.)?models\.providers\.("(?:[^"\\]|\\.)*"|[^."]+)$/;

/** Provider entries OpenClaw's own plugins configure (they bring their own protocol); and their API hosts. */
const BUILTIN_NAMES = new Set(['openai', 'openai-codex', 'anthropic']);
const BUILTIN_HOSTS = new Set(['api.openai.com', 'api.anthropic.com']);

/**
 * An openclaw.json provider entry (`models.providers.<name>`) with a `baseUrl` but no `"api"`:
 * OpenClaw then speaks the OpenAI Responses API (`POST {baseUrl}/responses`), which SGLang routers,
 * the OpenClaw-RL proxy and most OpenAI-compatible servers do not serve (OpenClaw model provider
 * configuration docs: `api` is one of `openai-completions`, `openai-responses`, `anthropic-messages`).
 */
export default defineRule({
  meta: {
    id: 'openclaw-missing-api-type',
    title: 'openclaw.json provider without "api" (OpenClaw then speaks the Responses API)',
    defaultSeverity: 'warning',
    formats: ['json'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      missing: 'provider "{name}" has no "api"; OpenClaw will call {url} (Responses API), which most OpenAI-compatible servers do not serve. Add "api": "{api}"',
      'fix.add': 'Add "api": "{api}"',
    },
    'zh-CN': {
      missing: '服务商 "{name}" 没有设置 "api"；OpenClaw 将调用 {url}（Responses API），大多数兼容 OpenAI 的服务器不提供该接口。请添加 "api": "{api}"',
      'fix.add': '添加 "api": "{api}"',
    },
  },
  check({ extraction, report }) {
    const byGroup = new Map<string, Setting[]>();
    for (const s of extraction.settings) {
      const list = byGroup.get(s.group);
      if (list) list.push(s);
      else byGroup.set(s.group, [s]);
    }
    for (const [group, mapping] of Object.entries(extraction.groups ?? {})) {
      const m = PROVIDER_GROUP.exec(group);
      if (!m) continue;
      const name = m[1].startsWith('"') ? (JSON.parse(m[1]) as string) : m[1];
      const members = byGroup.get(group) ?? [];
      const base = members.find((s) => s.key === 'baseUrl');
      if (!base || members.some((s) => s.key === 'api') || BUILTIN_NAMES.has(name.toLowerCase())) continue;
      const parsed = base.value === undefined ? undefined : parseBaseUrl(base.value);
      if (parsed && BUILTIN_HOSTS.has(parsed.host)) continue;
      const api = /anthropic/i.test(base.value ?? '') ? 'anthropic-messages' : 'openai-completions';
      const url = base.value === undefined ? '{baseUrl}/responses' : `${base.value.trim().replace(/\/+$/, '')}/responses`;
      report({
        messageId: 'missing',
        data: { name, url, api },
        range: mapping.anchorRange,
        subject: `group@${group}`,
        fixes: [{
          titleId: 'fix.add',
          data: { api },
          safety: 'unsafe',
          edits: [{ range: { start: mapping.insertion.offset, end: mapping.insertion.offset }, text: `${mapping.insertion.prefix}"api": "${api}"${mapping.insertion.suffix}` }],
        }],
      });
    }
  },
});
