import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROBE_MESSAGES } from '../../../server/src/core/probe/messages';
import { VERDICTS } from '../../../server/src/core/probe/types';

const PROBE_DIR = join(__dirname, '../../../server/src/core/probe');

function placeholders(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
}

describe('probe messages (meta)', () => {
  it('en and zh-CN have the same ids and the same placeholders', () => {
    assert.deepEqual(Object.keys(PROBE_MESSAGES['zh-CN']).sort(), Object.keys(PROBE_MESSAGES.en).sort());
    for (const [id, template] of Object.entries(PROBE_MESSAGES.en)) {
      assert.deepEqual(placeholders(PROBE_MESSAGES['zh-CN'][id]), placeholders(template), id);
    }
  });

  it('every verdict has an explanation template', () => {
    for (const verdict of VERDICTS.filter((v) => v !== 'ok')) assert.ok(PROBE_MESSAGES.en[verdict], verdict);
    assert.ok(PROBE_MESSAGES.en['ok.logprobs'] && PROBE_MESSAGES.en['ok.notRequested']);
  });

  it('every message id the probe code names exists', () => {
    const ids = new Set<string>();
    for (const file of readdirSync(PROBE_DIR).filter((f) => f.endsWith('.ts') && f !== 'messages.ts')) {
      const text = readFileSync(join(PROBE_DIR, file), 'utf8');
      for (const m of text.matchAll(/\bid: '([\w.-]+)'/g)) ids.add(m[1]);
    }
    assert.ok(ids.size > 30, `found only ${ids.size} ids`);
    for (const id of ids) if (!id.startsWith('binding.')) assert.ok(PROBE_MESSAGES.en[id], id);
  });

  it('every template is used (no dead messages)', () => {
    const sources = [...readdirSync(PROBE_DIR).filter((f) => f.endsWith('.ts') && f !== 'messages.ts').map((f) => join(PROBE_DIR, f)), join(PROBE_DIR, '../../cli/ping.ts')];
    const text = sources.map((f) => readFileSync(f, 'utf8')).join('\n');
    const quoted = new Set([...text.matchAll(/'([\w.-]+)'/g)].map((m) => m[1]));
    for (const verdict of VERDICTS) quoted.add(verdict);
    for (const id of Object.keys(PROBE_MESSAGES.en)) {
      const viaTemplate = id.endsWith('.noKey') && text.includes('`${base}.noKey`');
      assert.ok(quoted.has(id) || viaTemplate, `message ${id} is never used`);
    }
  });

  it('core probe files import nothing from Node', () => {
    for (const file of readdirSync(PROBE_DIR).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(PROBE_DIR, file), 'utf8');
      assert.doesNotMatch(text, /from '(node:|fs|net|tls|http|https|dns|undici|child_process)/, file);
    }
  });
});
