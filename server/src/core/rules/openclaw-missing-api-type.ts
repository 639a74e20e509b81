import { defineRule } from './rule';
import { parseBaseUrl, sdkJoin } from '../resolve/urls';
import { OPENCLAW_DEFAULT_API } from '../resolve/consumers';
import type { Setting } from '../model/types';

/** `models.providers.<name>` (the name JSON-quoted when it holds a dot), optionally after a `docN:` prefix. */
const PROVIDER_GROUP = /^(?:doc\d+:)?(?:.*\.)?models\.providers\.("(?:[^"\\]|\\.)*"|[^."]+)$/;

/** Provider entries OpenClaw's own plugins configure (they bring their own protocol). */
const BUILTIN_NAMES = new Set(['openai', 'openai-codex', 'anthropic']);

/**
 * A path segment `anthropic` marks an Anthropic Messages endpoint of an OpenAI-compatible gateway
 * (DeepSeek `https://api.deepseek.com/anthropic`, Zhipu `https://open.bigmodel.cn/api/anthropic`,
 * Moonshot `https://api.moonshot.cn/anthropic`; each provider's Claude Code guide).
 */
const ANTHROPIC_SEGMENT = /(^|\/)anthropic(\/|$)/i;

/**
 * An openclaw.json provider entry (`models.providers.<name>`) without `"api"` whose `baseUrl` is an
 * Anthropic Messages endpoint. OpenClaw defaults such a provider to `openai-completions`
 * (`OPENCLAW_DEFAULT_API`; checked against the real `openclaw` package in the conformance suite) and
 * calls `POST {baseUrl}/chat/completions`, which an Anthropic endpoint does not serve. A provider without
 * `"api"` on an OpenAI-compatible base is correct and is not reported.
 */
export default defineRule({
  meta: {
    id: 'openclaw-missing-api-type',
    title: 'openclaw.json provider without "api" whose base URL is an Anthropic endpoint',
    defaultSeverity: 'warning',
    formats: ['json'],
    fixable: 'unsafe',
  },
  messages: {
    en: {
      missing: 'provider "{name}" has no "api", so OpenClaw uses {default} and calls {url}; "{value}" is an Anthropic Messages endpoint. Add "api": "anthropic-messages"',
      'fix.add': 'Add "api": "anthropic-messages"',
    },
    'zh-CN': {
      missing: '服务商 "{name}" 没有设置 "api"，OpenClaw 因此使用 {default} 并调用 {url}；而 "{value}" 是 Anthropic Messages 接口。请添加 "api": "anthropic-messages"',
      'fix.add': '添加 "api": "anthropic-messages"',
    },
  },
  check({ extraction, document, report }) {
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
      if (!base || base.value === undefined || members.some((s) => s.key === 'api') || BUILTIN_NAMES.has(name.toLowerCase())) continue;
      const value = base.value.trim();
      const parsed = parseBaseUrl(value);
      if (!parsed || !ANTHROPIC_SEGMENT.test(parsed.path)) continue;
      // Keep the file's JSON5 style: an unquoted key and the string quote of the neighbouring `baseUrl`.
      const unquotedKey = !/["']/.test(document.text[base.keyRange.start - 1] ?? '');
      const q = base.quote === "'" ? "'" : '"';
      const text = `${unquotedKey ? 'api' : `${q}api${q}`}: ${q}anthropic-messages${q}`;
      report({
        messageId: 'missing',
        data: { name, value, default: OPENCLAW_DEFAULT_API, url: sdkJoin(value, '/chat/completions') },
        range: mapping.anchorRange,
        subject: `group@${group}`,
        fixes: [{
          titleId: 'fix.add',
          data: {},
          safety: 'unsafe',
          edits: [{ range: { start: mapping.insertion.offset, end: mapping.insertion.offset }, text: `${mapping.insertion.prefix}${text}${mapping.insertion.suffix}` }],
        }],
      });
    }
  },
});
