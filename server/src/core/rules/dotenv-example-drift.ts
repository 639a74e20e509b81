import type { TextEdit } from '../model/types';
import type { WorkspaceFacts } from '../model/facts';
import { defineRule } from './rule';

/** Template names that document a `.env` of the same folder (dotenv-linter, create-react-app, Laravel conventions). */
const TEMPLATES = ['.env.example', '.env.sample', '.env.template', '.env.dist'];

/**
 * The variables of a sibling file as `WorkspaceFacts.envFile` gives them, or `undefined` when there are none
 * to compare: absent, `'outsideWorkTree'` (not read), or `null` (how an absent answer arrives from the main
 * thread in the lint worker).
 */
function variablesOf(answer: ReturnType<WorkspaceFacts['envFile']> | null): Record<string, string> | undefined {
  return typeof answer === 'object' && answer !== null ? answer : undefined;
}

/** Roles whose empty value overrides a client default (an empty `OPENAI_BASE_URL=` breaks the SDK): no empty-value fix for them. */
const NO_EMPTY = /(^|_)(BASE_URL|API_BASE|API_KEY|AUTH_TOKEN|ENDPOINT)$/i;

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * `.env` against its template in the same folder (`.env.example`, `.env.sample`, `.env.template`,
 * `.env.dist`): keys the template documents that `.env` lacks (reported in `.env`), and keys `.env`
 * sets that the template does not document (reported in the template). Hints: a missing key may be
 * meant to come from the shell. The fix appends `KEY=` with an empty value, except in `.env` for
 * base-URL and key names, where an empty value overrides the client's own default.
 */
export default defineRule({
  meta: {
    id: 'dotenv-example-drift',
    title: '.env and .env.example list different keys',
    defaultSeverity: 'hint',
    formats: ['dotenv'],
    fixable: 'safe',
  },
  messages: {
    en: {
      missingInEnv: '{key} is documented in {template} but not set in {file}',
      undocumented: '{key} is set in {file} but not documented in {template}',
      'fix.add': 'Add {key}= to {file}',
    },
    'zh-CN': {
      missingInEnv: '{key} 在 {template} 中有说明，但 {file} 中没有设置',
      undocumented: '{key} 在 {file} 中有设置，但 {template} 中没有说明',
      'fix.add': '在 {file} 中添加 {key}=',
    },
  },
  check({ document, extraction, facts, report }) {
    const name = baseName(document.path);
    const own = new Set(extraction.settings.filter((s) => s.kind === 'env').map((s) => s.key));
    const text = document.text;
    const append = (key: string): TextEdit => {
      const eol = text.includes('\r\n') ? '\r\n' : '\n';
      const needsBreak = text.length > 0 && !text.endsWith('\n');
      return { range: { start: text.length, end: text.length }, text: `${needsBreak ? eol : ''}${key}=${eol}` };
    };
    const anchor = { start: 0, end: Math.max(0, text.search(/\r?\n|$/)) };
    if (name === '.env') {
      let vars: Record<string, string> | undefined;
      const template = TEMPLATES.find((t) => (vars = variablesOf(facts.envFile(document.path, t))) !== undefined);
      if (!template || !vars) return;
      for (const key of Object.keys(vars)) {
        if (own.has(key)) continue;
        report({
          messageId: 'missingInEnv',
          data: { key, template, file: name },
          range: anchor,
          subject: `drift@${key}`,
          fixes: NO_EMPTY.test(key) ? [] : [{ titleId: 'fix.add', data: { key, file: name }, safety: 'safe', edits: [append(key)] }],
        });
      }
    } else if (TEMPLATES.includes(name)) {
      const env = variablesOf(facts.envFile(document.path, '.env'));
      if (!env) return;
      for (const key of Object.keys(env)) {
        if (own.has(key)) continue;
        report({
          messageId: 'undocumented',
          data: { key, template: name, file: '.env' },
          range: anchor,
          subject: `drift@${key}`,
          fixes: [{ titleId: 'fix.add', data: { key, file: name }, safety: 'safe', edits: [append(key)] }],
        });
      }
    }
  },
});
