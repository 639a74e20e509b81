import { maskSecret } from '../model/secret';
import { isDummyKey, pairedBaseUrl } from '../evidence/key';
import { serversAt, serverTarget } from '../workspace/servers';
import { defineRule } from './rule';
import { isExampleFile, shorten, subjectOf } from './util';

/**
 * A client key that the server it reaches will refuse: the server is a vLLM/SGLang launch in the
 * workspace started with `--api-key` (vLLM and SGLang then answer 401 to any request whose
 * `Authorization: Bearer` token differs; vLLM docs "--api-key: If provided, the server will require
 * this key to be presented in the header", SGLang server arguments "--api-key"), and the client in the
 * same call, command or env block sends a dummy value (`EMPTY`, `dummy`, `none`, empty) or a literal
 * key other than the launch's literal one. The reverse (a key sent to a server started without
 * `--api-key`) works, since both servers then ignore the header, and is not reported.
 */
export default defineRule({
  meta: {
    id: 'api-key-server-mismatch',
    title: 'Client key that the server started with --api-key will refuse',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'python', 'shell'],
    fixable: false,
  },
  messages: {
    en: {
      dummy: '{key} sends "{value}" to {url}, but the server started at {launch} requires --api-key: it answers 401 to every request. Send the same key the server was started with',
      differs: '{key} ({masked}) is not the --api-key the server started at {launch} expects ({expected}): it answers 401 to every request',
      launchedHere: 'the server is started here with --api-key',
    },
    'zh-CN': {
      dummy: '{key} 向 {url} 发送 "{value}"，但 {launch} 启动的服务器要求 --api-key：它会对每个请求返回 401。请发送与服务器启动时相同的密钥',
      differs: '{key}（{masked}）不是 {launch} 启动的服务器所要求的 --api-key（{expected}）：它会对每个请求返回 401',
      launchedHere: '服务器在此以 --api-key 启动',
    },
  },
  check({ document, resolution, env, report, t }) {
    if (isExampleFile(document.path)) return;
    const launches = (env.servers?.() ?? []).filter((l) => l.port !== undefined);
    if (!launches.some((l) => l.apiKey)) return;
    for (const setting of resolution.byRole('apiKey')) {
      if (setting.value === undefined || setting.kind === 'envDefault' || setting.origin) continue;
      const base = pairedBaseUrl(setting, resolution);
      const target = base?.value === undefined ? undefined : serverTarget(base.value);
      if (!target) continue;
      const servers = serversAt(target, launches);
      // every server that may listen there requires a key (else the request may go to one that does not)
      if (servers.length === 0 || !servers.every((s) => s.apiKey)) continue;
      const value = setting.value.trim();
      const first = servers[0];
      const launch = `${first.at.path}:${first.at.start.line + 1}`;
      const related = servers.map((s) => ({ location: s.at, message: t('launchedHere') }));
      if (value === '' || isDummyKey(value)) {
        report({ messageId: 'dummy', data: { key: setting.key, value: shorten(value, 20), url: target.url, launch }, range: setting.contentRange, subject: subjectOf(setting), related });
        continue;
      }
      const expected = servers.map((s) => s.apiKeyValue);
      if (expected.some((k) => k === undefined) || expected.includes(value)) continue;
      report({ messageId: 'differs', data: { key: setting.key, masked: maskSecret(value), expected: maskSecret(expected[0]!), launch }, range: setting.contentRange, subject: subjectOf(setting), related });
    }
  },
});
