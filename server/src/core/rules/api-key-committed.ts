import { defineRule } from './rule';
import { isExampleFile, subjectOf } from './util';
import { isRealLookingKey } from '../model/keys';
import { maskSecret } from '../model/secret';
import type { Setting } from '../model/types';

/**
 * True when the body of a key (after a `sk-…`/`tt-` style prefix) is one block repeated at least
 * twice, a partial last copy allowed (`abcd1234abcd1234…`): a made-up test value whose entropy can
 * still pass `isRealLookingKey`. Linear: the shortest period is the length minus the longest proper
 * border (KMP prefix function).
 */
export function isRepeatedBlock(key: string): boolean {
  const body = key.trim().replace(/^[a-z]{1,4}[-_](?:[a-z]{1,8}[-_])?/i, '');
  if (body.length < 2) return false;
  const border = new Array<number>(body.length).fill(0);
  for (let i = 1; i < body.length; i++) {
    let k = border[i - 1];
    while (k > 0 && body[i] !== body[k]) k = border[k - 1];
    border[i] = body[i] === body[k] ? k + 1 : k;
  }
  return body.length - border[body.length - 1] <= body.length / 2;
}

/** The key text a setting carries: the value of a key role, the token after `Bearer ` of a header role. */
function keyText(setting: Setting): string | undefined {
  if (setting.value === undefined || setting.valueType !== 'string') return undefined;
  if (setting.role === 'apiKey') return setting.value.trim();
  const bearer = /^\s*bearer\s+(\S+)\s*$/i.exec(setting.value);
  return bearer?.[1];
}

/**
 * A real-looking key (DESIGN: a provider prefix or ≥ 20 characters, entropy ≥ 3 bits/char, not a run
 * or a repeated block, not a placeholder) in a file git tracks, or in a git work tree / workspace
 * with `.gitignore` files where none ignores it (`WorkspaceFacts.gitState`: `tracked` / `exposed`).
 * `ignored` and `unknown` (no git, no `.gitignore`) are not reported. Template files are exempt.
 * The message shows the masked key only.
 */
export default defineRule({
  meta: {
    id: 'api-key-committed',
    title: 'Real-looking API key in a file git tracks or does not ignore',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: false,
  },
  messages: {
    en: {
      tracked: '{key} holds a real-looking key ({masked}) and git tracks {file}: anyone with the repository has it; revoke the key and load it from a git-ignored .env',
      exposed: '{key} holds a real-looking key ({masked}) and no .gitignore ignores {file}: the next "git add ." commits it; ignore the file or move the key to a git-ignored .env',
    },
    'zh-CN': {
      tracked: '{key} 含有一个看起来真实的密钥（{masked}），且 git 已跟踪 {file}：任何拿到仓库的人都能看到它；请吊销该密钥，并改为从被 git 忽略的 .env 读取',
      exposed: '{key} 含有一个看起来真实的密钥（{masked}），且没有任何 .gitignore 忽略 {file}：下一次 "git add ." 就会提交它；请忽略该文件，或把密钥移到被 git 忽略的 .env',
    },
  },
  check({ document, resolution, facts, report }) {
    if (isExampleFile(document.path)) return;
    let state: ReturnType<typeof facts.gitState> | undefined;
    for (const setting of [...resolution.byRole('apiKey'), ...resolution.byRole('header')]) {
      const key = keyText(setting);
      if (key === undefined || !isRealLookingKey(key) || isRepeatedBlock(key)) continue;
      state ??= facts.gitState(document.path);
      if (state !== 'tracked' && state !== 'exposed') return;
      report({
        messageId: state,
        data: { key: setting.key, masked: maskSecret(key), file: document.path.split('/').pop() ?? document.path },
        range: setting.contentRange,
        subject: subjectOf(setting),
      });
    }
  },
});
