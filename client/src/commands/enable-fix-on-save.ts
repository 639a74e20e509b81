import { say } from '../connection/texts';
import type { CommandModule } from '../types';

/** The code action kind the server offers for fix-all (`source.fixAll.rollout-lint`, as in vscode-eslint). */
export const FIX_ALL_ON_SAVE_KIND = 'source.fixAll.rollout-lint';

/** VS Code's `editor.codeActionsOnSave` value: an object of kind → `explicit`/`always`/`never` (or a legacy boolean / array). */
type CodeActionsOnSave = Record<string, string | boolean> | string[] | undefined;

/**
 * Turn On Fix on Save: adds `"source.fixAll.rollout-lint": "explicit"` to the user's
 * `editor.codeActionsOnSave`, keeping every entry already there (a legacy array is converted).
 * Resolves to whether the setting changed.
 */
export const enableFixOnSave: CommandModule = {
  id: 'rolloutLint.enableFixOnSave',
  async run({ host }) {
    const current = host.getUserSetting<CodeActionsOnSave>('editor.codeActionsOnSave');
    const entries: Record<string, string | boolean> = Array.isArray(current) ? Object.fromEntries(current.map((kind) => [kind, 'explicit'])) : { ...(current ?? {}) };
    const value = entries[FIX_ALL_ON_SAVE_KIND];
    if (value === 'explicit' || value === 'always' || value === true) {
      void host.showMessage('info', say(host.language, 'fixOnSave.already'), {});
      return false;
    }
    await host.setUserSetting('editor.codeActionsOnSave', { ...entries, [FIX_ALL_ON_SAVE_KIND]: 'explicit' });
    void host.showMessage('info', say(host.language, 'fixOnSave.done'), {});
    return true;
  },
};
