import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../../../server/src/core/rules/index';
import { LOADER_NAMES } from '../../../server/src/core/rules/api-key-whitespace';
import { serverMessageIds, say } from '../../../server/src/lsp/messages';
import { PROBE_MESSAGES } from '../../../server/src/core/probe/messages';
import { GLOSSARY } from '../../../server/src/core/messages/glossary';
import { surfacePhrases } from '../../../server/src/core/messages/surface';
import { maskSecret } from '../../../server/src/core/model/secret';
import { lintDocument } from '../../../server/src/core/lint';
import { loadGrammars } from '../../../server/src/node/grammars';
import { say as clientSay } from '../../../client/src/connection/texts';
import { allClientMessages } from '../../../client/src/messages';
import { endpointViewMessages } from '../../../client/src/endpoints/texts';
import { providerName as clientProviderName } from '../../../client/src/connection/target';
import { BUILTIN_PROVIDERS, providerName } from '../../../server/src/core/providers/profiles';
import { hoverAt } from '../../../server/src/lsp/hover';
import type { DocumentLint } from '../../../server/src/lsp/lint-service';
import { probe } from '../../../server/src/core/probe/probe';
import type { ProbeDeps } from '../../../server/src/core/probe/types';
import type { Locale } from '../../../server/src/core/messages/locale';

const ROOT = join(__dirname, '..', '..', '..');
const readJson = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
const pkg = readJson('package.json');
const nlsEn: Record<string, string> = readJson('package.nls.json');
const nlsZh: Record<string, string> = readJson('package.nls.zh-cn.json');
const bundleEn: Record<string, string> = readJson('l10n/bundle.l10n.json');
const bundleZh: Record<string, string> = readJson('l10n/bundle.l10n.zh-cn.json');

const clientMessages = allClientMessages;

/** The user-facing strings of package.json: every value under these keys, anywhere in the manifest. */
const TEXT_KEYS = new Set(['title', 'category', 'description', 'markdownDescription', 'altText', 'displayName', 'markdownDeprecationMessage', 'deprecationMessage', 'enumDescriptions', 'markdownEnumDescriptions']);

function manifestTexts(node: unknown, path: string, out: { path: string; value: string }[]): void {
  if (Array.isArray(node)) node.forEach((n, i) => manifestTexts(n, `${path}[${i}]`, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (TEXT_KEYS.has(k) && typeof v === 'string') out.push({ path: `${path}.${k}`, value: v });
      else if (TEXT_KEYS.has(k) && Array.isArray(v)) v.forEach((s, i) => typeof s === 'string' && out.push({ path: `${path}.${k}[${i}]`, value: s }));
      else manifestTexts(v, `${path}.${k}`, out);
    }
  }
}

/** Every zh-CN text a surface can show, with where it comes from. */
function zhTexts(): { where: string; text: string }[] {
  const out: { where: string; text: string }[] = [];
  for (const r of RULES) for (const [id, text] of Object.entries(r.messages['zh-CN'])) out.push({ where: `rule ${r.meta.id} ${id}`, text });
  for (const id of serverMessageIds('zh-CN')) out.push({ where: `server ${id}`, text: say('zh-CN', id as Parameters<typeof say>[1]) });
  for (const [id, text] of Object.entries(PROBE_MESSAGES['zh-CN'])) out.push({ where: `probe ${id}`, text });
  for (const [k, text] of Object.entries(bundleZh)) out.push({ where: `client bundle "${k}"`, text });
  for (const [k, text] of Object.entries(nlsZh)) out.push({ where: `package.nls.zh-cn ${k}`, text });
  for (const [k, text] of Object.entries(LOADER_NAMES['zh-CN'])) out.push({ where: `loader ${k}`, text });
  return out;
}

/** Text with what may stay English removed: placeholders, code, quotes, links, URLs, paths and names. */
function prose(text: string): string {
  return text
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/`[^`]*`/g, ' ')
    .replace(/\{\w+\}/g, ' ')
    .replace(/"[^"]*"/g, ' ')
    .replace(/“[^”]*”/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/(?:^|\s)[-./\w]*[/_.=][-./\w]*/g, ' ')
    .replace(/--?\w[\w-]*|\b\w+(?:-\w+)+\b/g, ' ');
}

/** Three or more English words in a row: an English phrase inside Chinese text. */
const ENGLISH_PHRASE = /\b[A-Za-z][a-z]+(?:[ -]+[A-Za-z][a-z]+){2,}\b/;
/** Multi-word names that stay as they are in Chinese text. */
const NAMES = ['Rollout Lint', 'OpenAI Responses API', 'SGLang native API', 'Docker Compose', 'Node dotenv', 'Responses API'];
/** An ASCII length suffix such as `(40 chars)` or `12 chars`. */
const ASCII_LENGTH = /\d+\s*chars?\b|\(\s*\d+\s*characters?\s*\)/;

/** English words of a descriptive provider name left untranslated ("local SGLang", "OpenClaw-RL proxy", "llama.cpp server"). */
const ENGLISH_NAME_WORD = /\b(?:local|proxy|server|cloud|inference|providers?|models|catalog)\b/i;

/** The local servers of the built-in profiles (`http://127.0.0.1:<port>/v1`), by port. */
const LOCAL_PORTS = [...new Set(BUILTIN_PROVIDERS.flatMap((p) => p.localPorts ?? []))];

/**
 * Every text that names a built-in provider, rendered in `locale` through the real render paths:
 * rule diagnostics (lint of base URLs that trip the provider-named messages), hover on those base URLs,
 * the connection test's explanation and fix reason (a probe with scripted network deps), and the
 * client's provider name (status bar, report, quick pick).
 */
async function providerNamedTexts(locale: Locale): Promise<{ where: string; text: string }[]> {
  const grammars = await loadGrammars();
  const out: { where: string; text: string }[] = [];
  const bases = [
    ...LOCAL_PORTS.flatMap((port) => [`https://127.0.0.1:${port}/v1`, `http://127.0.0.1:${port}`, `http://127.0.0.1:${port}/api/v1`]),
    ...BUILTIN_PROVIDERS.flatMap((p) => [...p.openaiBases.filter((b) => !/[{*]/.test(b)).map((b) => b.replace(/\/v\d+$/, '')), ...(p.websiteHosts ?? []).map((h) => `https://${h}/`)]),
  ];
  for (const base of bases) {
    const text = `OPENAI_BASE_URL=${base}\nOPENAI_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345\n`;
    const outcome = lintDocument({ path: '.env', text }, { grammars, locale });
    for (const f of outcome.findings) out.push({ where: `${f.ruleId} for ${base}`, text: f.message });
    const lint = { outcome, doc: { range: () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }) } } as unknown as DocumentLint;
    const hover = hoverAt(lint, text.indexOf(base) + 1, locale);
    if (hover) out.push({ where: `hover on ${base}`, text: (hover.contents as { value: string }).value });
  }
  const deps: ProbeDeps = {
    lookup: async () => ['127.0.0.1'],
    connect: async () => ({ ok: true }),
    now: () => 0,
    fetch: async (url) => {
      const ok = url.endsWith('/v1/chat/completions');
      const body = ok ? JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'p' }, logprobs: { content: [{ token: 'p', logprob: -0.25, top_logprobs: [] }] } }] }) : 'not found';
      return { status: ok ? 200 : 404, headers: { get: (h: string) => (h.toLowerCase() === 'content-type' ? (ok ? 'application/json' : 'text/plain') : null) }, text: async () => body };
    },
  };
  for (const port of LOCAL_PORTS) {
    const report = await probe({ baseUrl: `http://127.0.0.1:${port}`, consumer: 'openai-sdk', model: 'policy' }, deps, { timeoutMs: 1000 });
    out.push({ where: `probe explanation for port ${port}`, text: report.explanation[locale] });
    if (report.fix) out.push({ where: `probe fix for port ${port}`, text: report.fix.reason[locale] });
  }
  for (const p of BUILTIN_PROVIDERS) out.push({ where: `client provider name ${p.id}`, text: clientProviderName([p.id], p.chatUrl, locale === 'zh-CN' ? 'zh-cn' : 'en') });
  return out;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
}

describe('localisation (l10n) of every surface', () => {
  it('every user-facing string of package.json is a %key% with an English and a Chinese text', () => {
    const texts: { path: string; value: string }[] = [];
    manifestTexts({ description: pkg.description, contributes: pkg.contributes, capabilities: pkg.capabilities }, 'package', texts);
    assert.ok(texts.length > 50, `found only ${texts.length} texts`);
    for (const { path, value } of texts) {
      const key = /^%(.+)%$/.exec(value)?.[1];
      assert.ok(key, `${path} is a literal string (${JSON.stringify(value.slice(0, 60))}): put it in package.nls.json and package.nls.zh-cn.json`);
      assert.ok(nlsEn[key], `${path}: package.nls.json has no "${key}"`);
      assert.ok(nlsZh[key], `${path}: package.nls.zh-cn.json has no "${key}"`);
    }
  });

  it('package.nls.json and package.nls.zh-cn.json have the same keys, placeholders and links', () => {
    assert.deepEqual(Object.keys(nlsZh).sort(), Object.keys(nlsEn).sort());
    for (const key of Object.keys(nlsEn)) {
      const links = (t: string) => [...t.matchAll(/\]\(([^)]*)\)/g)].map((m) => m[1]).sort();
      assert.deepEqual(links(nlsZh[key]), links(nlsEn[key]), `${key}: links differ`);
      assert.deepEqual(placeholders(nlsZh[key]), placeholders(nlsEn[key]), `${key}: placeholders differ`);
    }
  });

  it('the client l10n bundle holds exactly the client texts, and the zh-cn bundle translates each one', () => {
    const messages = clientMessages().sort();
    assert.deepEqual(Object.keys(bundleEn).sort(), messages, 'l10n/bundle.l10n.json is stale: it must map every English client text to itself');
    for (const [k, v] of Object.entries(bundleEn)) assert.equal(v, k);
    for (const message of messages) {
      assert.ok(bundleZh[message], `l10n/bundle.l10n.zh-cn.json has no translation of ${JSON.stringify(message)}`);
      assert.deepEqual(placeholders(bundleZh[message]), placeholders(message), `placeholders differ: ${message}`);
    }
    assert.deepEqual(Object.keys(bundleZh).filter((k) => !messages.includes(k)), [], 'the zh-cn bundle translates texts the client no longer has');
    assert.equal(pkg.l10n, './l10n');
  });

  it('every rule message id and fix title exists in both locales, with the same placeholders', () => {
    for (const r of RULES) {
      assert.deepEqual(Object.keys(r.messages['zh-CN']).sort(), Object.keys(r.messages.en).sort(), r.meta.id);
      for (const id of Object.keys(r.messages.en)) assert.deepEqual(placeholders(r.messages['zh-CN'][id]), placeholders(r.messages.en[id]), `${r.meta.id} ${id}`);
    }
    assert.deepEqual(serverMessageIds('zh-CN').sort(), serverMessageIds('en').sort());
    assert.deepEqual(Object.keys(PROBE_MESSAGES['zh-CN']).sort(), Object.keys(PROBE_MESSAGES.en).sort());
  });

  it('zh-CN texts carry no ASCII length fragments ("(40 chars)") and no English phrases', () => {
    const bad: string[] = [];
    for (const { where, text } of zhTexts()) {
      if (ASCII_LENGTH.test(text)) bad.push(`${where}: ASCII length: ${text}`);
      let rest = prose(text);
      for (const name of NAMES) rest = rest.split(name).join(' ');
      const phrase = ENGLISH_PHRASE.exec(rest);
      if (phrase) bad.push(`${where}: English phrase "${phrase[0]}": ${text}`);
    }
    assert.deepEqual(bad, []);
  });

  it('provider names are Chinese in zh-CN output (no "local", "proxy", "server"), English under en', async () => {
    for (const p of BUILTIN_PROVIDERS) assert.doesNotMatch(providerName(p, 'zh-CN'), ENGLISH_NAME_WORD, `${p.id}: give it a nameZh (${p.name})`);
    const zh = await providerNamedTexts('zh-CN');
    const named = zh.filter(({ text }) => BUILTIN_PROVIDERS.some((p) => text.includes(providerName(p, 'zh-CN'))));
    for (const id of ['sglang', 'openclaw-rl-proxy', 'vllm']) {
      const name = providerName(BUILTIN_PROVIDERS.find((p) => p.id === id)!, 'zh-CN');
      // Hover names the first profile of a port (SGLang before the OpenClaw-RL proxy on 30000).
      for (const where of ['rule', id === 'openclaw-rl-proxy' ? 'rule' : 'hover', 'probe explanation', 'probe fix', 'client']) {
        assert.ok(named.some((t) => t.text.includes(name) && (where === 'rule' ? !/^(hover|probe|client)/.test(t.where) : t.where.startsWith(where))), `no ${where} text names ${name}`);
      }
    }
    const bad = named.flatMap(({ where, text }) => {
      const word = ENGLISH_NAME_WORD.exec(prose(text).replace(/\[[^\]]*\]/g, ' '));
      return word ? [`${where}: English "${word[0]}": ${text}`] : [];
    });
    assert.deepEqual(bad, []);
    for (const t of zh) for (const glossary of GLOSSARY) for (const avoid of glossary.zhAvoid) assert.ok(!t.text.includes(avoid), `${t.where}: "${avoid}" (use "${glossary.zh}"): ${t.text}`);
    const en = await providerNamedTexts('en');
    assert.ok(en.some(({ text }) => text.includes('local SGLang / OpenClaw-RL proxy')), 'English output keeps the English names');
    assert.ok(en.every(({ text }) => !/本地|代理|服务器/.test(text)), 'English output has no Chinese names');
  });

  it('zh-CN texts use the glossary term of each concept', () => {
    const bad: string[] = [];
    for (const { where, text } of zhTexts()) {
      for (const entry of GLOSSARY) for (const avoid of entry.zhAvoid) if (text.includes(avoid)) bad.push(`${where}: "${avoid}" (use "${entry.zh}"): ${text}`);
    }
    assert.deepEqual(bad, []);
  });

  it('key masks have one form for short and long keys, without nested parentheses, localised', () => {
    assert.equal(maskSecret('sk-proj-abcdefghijklmnopqrstuvwxyz0123'), 'sk-proj-…0123, 38 chars');
    assert.equal(maskSecret('sk-short1234'), 'sk-…, 12 chars');
    assert.equal(maskSecret('abcdefghijkl'), '…, 12 chars');
    assert.equal(maskSecret('sk-proj-abcdefghijklmnopqrstuvwxyz0123', 'zh-CN'), 'sk-proj-…0123，38 个字符');
    assert.equal(maskSecret('', 'zh-CN'), '（空密钥）');
    assert.equal(clientSay('zh-cn', 'setKey.stored', { masked: maskSecret('abcdefghijkl'), origin: 'https://x.test' }), '已为 https://x.test 保存 API 密钥 …，12 个字符。');
  });

  it('rendered zh-CN diagnostics have no English fragments; English ones no "(… (12 chars))"', async () => {
    const grammars = await loadGrammars();
    const text = 'OPENAI_BASE_URL=https://api.openai.com/v1\nOPENAI_API_KEY="short-key-1 "\nANTHROPIC_API_KEY=" sk-ant-abcdefghijklmnopqrstuvwxyz0123"\nexport =broken\n';
    const zh = lintDocument({ path: 'configs/.env', text }, { grammars, locale: 'zh-CN' }).findings;
    const en = lintDocument({ path: 'configs/.env', text }, { grammars, locale: 'en' }).findings;
    assert.ok(zh.some((f) => f.ruleId === 'api-key-whitespace'), JSON.stringify(zh.map((f) => f.ruleId)));
    for (const f of zh) {
      assert.doesNotMatch(f.message, ASCII_LENGTH, f.message);
      assert.doesNotMatch(f.message, /POSIX shell \(|, (?=[A-Za-z])/, f.message);
    }
    for (const f of en) assert.doesNotMatch(f.message, /\([^()]*\(\d+ chars\)\)/, f.message);
    const whitespace = zh.find((f) => f.ruleId === 'api-key-whitespace')!;
    assert.match(whitespace.message, /个字符/);
  });

  it('messages name only commands their surface has: the CLI says rollout-lint ping, VS Code the command title', async () => {
    const titles = Object.entries(nlsEn).filter(([k]) => /^command\.\w+\.title$/.test(k)).flatMap(([k, v]) => [v, nlsZh[k]]);
    const templates = [...RULES.flatMap((r) => [...Object.values(r.messages.en), ...Object.values(r.messages['zh-CN'])]), ...serverMessageIds('en').map((id) => say('en', id as Parameters<typeof say>[1]))];
    for (const template of templates) {
      assert.doesNotMatch(template, /rollout-lint ping/, `a message names the CLI command itself; use {testConnection}: ${template}`);
      for (const title of titles) assert.ok(!template.includes(title), `a message names the VS Code command "${title}"; use {testConnection}: ${template}`);
    }
    const category = nlsEn['command.category'];
    assert.equal(surfacePhrases('en', 'vscode').testConnection, `"${category}: ${nlsEn['command.testConnection.title']}"`);
    assert.equal(surfacePhrases('zh-CN', 'vscode').testConnection, `“${nlsZh['command.category']}: ${nlsZh['command.testConnection.title']}”`);
    const grammars = await loadGrammars();
    const text = 'OPENAI_BASE_URL=https://taotoken.net/api\n';
    const message = (surface: 'cli' | 'vscode', locale: 'en' | 'zh-CN') =>
      lintDocument({ path: '.env', text }, { grammars, locale, surface }).findings.find((f) => f.ruleId === 'base-url-missing-v1')?.message ?? '';
    assert.match(message('cli', 'en'), /`rollout-lint ping`/);
    assert.doesNotMatch(message('cli', 'en'), /Test TaoToken Connection/);
    assert.match(message('vscode', 'en'), /"Rollout Lint: Test TaoToken Connection"/);
    assert.doesNotMatch(message('vscode', 'en'), /rollout-lint ping/);
    assert.match(message('vscode', 'zh-CN'), /测试 TaoToken 连接/);
  });

  it('client texts that name a VS Code command use its real title, in English and Chinese', () => {
    const category = nlsEn['command.category'];
    const en = new Set(Object.entries(nlsEn).filter(([k]) => /^command\.\w+\.title$/.test(k)).map(([, v]) => v));
    const zh = new Set(Object.entries(nlsZh).filter(([k]) => /^command\.\w+\.title$/.test(k)).map(([, v]) => v));
    for (const message of endpointViewMessages()) {
      // The view names its inline actions by their titles alone ("Test This Endpoint").
      for (const m of message.matchAll(/"([^"]+)"/g)) assert.ok(en.has(m[1]), `"${m[1]}" is no command title: ${message}`);
      for (const m of (bundleZh[message] ?? '').matchAll(/“([^”]+)”/g)) assert.ok(zh.has(m[1]), `"${m[1]}" is no zh command title: ${bundleZh[message]}`);
    }
    for (const message of clientMessages()) {
      for (const m of message.matchAll(new RegExp(`${category}: ([^"”]+)["”]`, 'g'))) assert.ok(en.has(m[1]), `"${m[1]}" is no command title: ${message}`);
      for (const m of (bundleZh[message] ?? '').matchAll(new RegExp(`${category}: ([^"”]+)["”]`, 'g'))) assert.ok(zh.has(m[1]), `"${m[1]}" is no zh command title: ${bundleZh[message]}`);
    }
  });
});
