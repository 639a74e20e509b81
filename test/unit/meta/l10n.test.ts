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
import { clientMessages, say as clientSay } from '../../../client/src/connection/texts';

const ROOT = join(__dirname, '..', '..', '..');
const readJson = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
const pkg = readJson('package.json');
const nlsEn: Record<string, string> = readJson('package.nls.json');
const nlsZh: Record<string, string> = readJson('package.nls.zh-cn.json');
const bundleEn: Record<string, string> = readJson('l10n/bundle.l10n.json');
const bundleZh: Record<string, string> = readJson('l10n/bundle.l10n.zh-cn.json');

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
    for (const message of clientMessages()) {
      for (const m of message.matchAll(new RegExp(`${category}: ([^"”]+)["”]`, 'g'))) assert.ok(en.has(m[1]), `"${m[1]}" is no command title: ${message}`);
      for (const m of (bundleZh[message] ?? '').matchAll(new RegExp(`${category}: ([^"”]+)["”]`, 'g'))) assert.ok(zh.has(m[1]), `"${m[1]}" is no zh command title: ${bundleZh[message]}`);
    }
  });
});
