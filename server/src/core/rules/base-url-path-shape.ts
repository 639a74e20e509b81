import { defineRule } from './rule';
import { replaceContent, shorten, subjectOf } from './util';

/** An empty path segment (`//v1`, `/v1//`). */
const EMPTY_SEGMENT = /\/\//;
/** A version segment written in upper case (`/V1`). */
const UPPER_VERSION = /\/V(\d+)(?=\/|$)/;

/**
 * A base URL whose path has an empty segment (`http://host//v1`) or an upper-case version segment
 * (`http://host/V1`). Every client sends the path as written (openai-python 3.22.1 and 2.54.0,
 * anthropic-python 1.13.0 and langchain-openai 1.6.6 record `POST //v1/chat/completions` and
 * `POST /V1/chat/completions` in test/conformance), and FastAPI/Starlette, which vLLM and SGLang serve
 * their OpenAI routes with, match paths exactly: both answer 404 (checked with FastAPI 0.142.2 on Starlette
 * 1.7.0: `/v1/chat/completions` 200, `//v1/chat/completions`, `/V1/chat/completions` and
 * `/v1//chat/completions` 404). A warning, since a server or proxy in front may normalise the path.
 * The fix collapses the empty segments and lower-cases the version: safe, the one path every
 * OpenAI-compatible server serves.
 */
export default defineRule({
  meta: {
    id: 'base-url-path-shape',
    title: 'Base URL path has an empty segment (//v1) or an upper-case version (/V1)',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'python', 'shell'],
    fixable: 'safe',
  },
  messages: {
    en: {
      emptySegment: 'base URL "{value}" has an empty path segment (//); clients send {url} as written, which vLLM/SGLang (FastAPI) answer with 404',
      upperVersion: 'base URL "{value}" writes the version as /V{n}; clients send {url} as written, and vLLM/SGLang (FastAPI) routes are case-sensitive: 404',
      both: 'base URL "{value}" has an empty path segment (//) and writes the version as /V{n}; clients send {url} as written, which vLLM/SGLang (FastAPI) answer with 404 (their routes are case-sensitive)',
      'fix.normalize': 'Change the path to {path}',
    },
    'zh-CN': {
      emptySegment: 'base URL "{value}" 的路径含有空段（//）；客户端按原样发送 {url}，vLLM/SGLang（FastAPI）会返回 404',
      upperVersion: 'base URL "{value}" 把版本写成了 /V{n}；客户端按原样发送 {url}，而 vLLM/SGLang（FastAPI）的路由区分大小写：404',
      both: 'base URL "{value}" 的路径含有空段（//），并把版本写成了 /V{n}；客户端按原样发送 {url}，vLLM/SGLang（FastAPI）会返回 404（其路由区分大小写）',
      'fix.normalize': '把路径改为 {path}',
    },
  },
  check({ resolution, report }) {
    for (const base of resolution.baseUrls) {
      const { setting, parsed } = base;
      if (!parsed || setting.value === undefined) continue;
      const empty = EMPTY_SEGMENT.test(parsed.path);
      const upper = UPPER_VERSION.exec(parsed.path);
      if (!empty && !upper) continue;
      const path = parsed.path.replace(/\/{2,}/g, '/').replace(/\/V(\d+)(?=\/|$)/g, '/v$1');
      const request = base.requests.find((r) => r.sent);
      const value = setting.value.trim();
      const fixed = setting.value.replace(parsed.path, path);
      report({
        messageId: empty && upper ? 'both' : empty ? 'emptySegment' : 'upperVersion',
        data: { value: shorten(value), url: shorten(request?.url ?? value, 100), n: upper?.[1] ?? '1', path: path || '/' },
        range: setting.contentRange,
        subject: subjectOf(setting),
        fixes: setting.value.includes(parsed.path) ? [{ titleId: 'fix.normalize', data: { path: path || '/' }, safety: 'safe', edits: [replaceContent(setting, fixed)] }] : [],
      });
    }
  },
});
